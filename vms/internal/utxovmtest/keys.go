package utxovmtest

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Key parses h, a secp256k1 private key in hex.
func Key(t testing.TB, h string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.HexToECDSA(h)
	require.NoError(t, err)
	return k
}

// Addr returns k's address on the X- and P-Chains (§3.2).
func Addr(k *ecdsa.PrivateKey) ids.ShortID {
	return secp256k1fx.PublicKeyAddress(crypto.CompressPubkey(&k.PublicKey))
}

// Sign signs unsigned with one credential per key, each holding that key's signature over
// sha256 of the unsigned bytes (§3.2), and returns the tx a chain's newTx makes of them;
// unsignedBytes is the chain's encoding of an unsigned tx.
func Sign[U, T any](t testing.TB, unsigned U, unsignedBytes func(U) ([]byte, error),
	newTx func(U, []secp256k1fx.Credential) (T, error), keys ...*ecdsa.PrivateKey,
) T {
	t.Helper()
	b, err := unsignedBytes(unsigned)
	require.NoError(t, err)
	h := sha256.Sum256(b)
	creds := make([]secp256k1fx.Credential, len(keys))
	for i, k := range keys {
		sig, err := crypto.Sign(h[:], k)
		require.NoError(t, err)
		creds[i].Sigs = []secp256k1fx.Signature{secp256k1fx.Signature(sig)}
	}
	tx, err := newTx(unsigned, creds)
	require.NoError(t, err)
	return tx
}
