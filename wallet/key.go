package wallet

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// keyPrefix starts the CB58 form of a private key (platform-exchange.md §2.5).
const keyPrefix = "PrivateKey-"

// LocalKey is the well-known key the local network's genesis funds on X, P and C ("ewoq",
// platform-exchange.md §2.5). Its secret is public: [CheckKeyForNetwork] refuses it elsewhere.
const LocalKey = config.LocalFundedKey

// localNetworkID is the local network's ID (§2.4).
const localNetworkID = 12345

// Key is a secp256k1 private key. It is immutable and safe for concurrent use.
type Key struct {
	priv *ecdsa.PrivateKey
	// addr is the short address: ripemd160(sha256(compressed public key)) (§2.4).
	addr ids.ShortID
}

// ParseKey parses a private key written as `PrivateKey-<CB58>` or as 32 bytes of hex, with or
// without 0x. Surrounding white space is ignored.
func ParseKey(s string) (*Key, error) {
	s = strings.TrimSpace(s)
	var (
		b   []byte
		err error
	)
	if rest, ok := strings.CutPrefix(s, keyPrefix); ok {
		b, err = ids.CB58Decode(rest)
	} else {
		b, err = hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X"))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	if len(b) != 32 {
		return nil, fmt.Errorf("%w: %d bytes, want 32", ErrInvalidKey, len(b))
	}
	priv, err := crypto.ToECDSA(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return NewKey(priv), nil
}

// NewKey wraps an ECDSA secp256k1 private key. The caller must not change priv afterwards.
func NewKey(priv *ecdsa.PrivateKey) *Key {
	return &Key{priv: priv, addr: secp256k1fx.PublicKeyAddress(crypto.CompressPubkey(&priv.PublicKey))}
}

// String returns the key's `PrivateKey-<CB58>` form. It is the secret: do not log it.
func (k *Key) String() string { return keyPrefix + ids.CB58Encode(crypto.FromECDSA(k.priv)) }

// Hex returns the key as 0x and 64 hex digits, the form wallets such as MetaMask import. It is
// the secret: do not log it.
func (k *Key) Hex() string { return "0x" + hex.EncodeToString(crypto.FromECDSA(k.priv)) }

// Address returns the key's short address, the owner of X- and P-Chain outputs (§2.4).
func (k *Key) Address() ids.ShortID { return k.addr }

// EthAddress returns the key's C-Chain address: the last 20 bytes of keccak256 of the
// uncompressed public key.
func (k *Key) EthAddress() common.Address { return crypto.PubkeyToAddress(k.priv.PublicKey) }

// ChainAddress returns the key's address on chain alias ("X" or "P") of network networkID, e.g.
// `X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u` (§2.4).
func (k *Key) ChainAddress(alias string, networkID uint32) string {
	s, err := address.Format(alias, address.HRP(networkID), k.addr)
	if err != nil {
		// The HRPs of address.HRP and 20-byte addresses always encode.
		panic(fmt.Sprintf("format address: %v", err))
	}
	return s
}

// IsLocalKey reports whether k is the well-known [LocalKey].
func (k *Key) IsLocalKey() bool { return k.String() == LocalKey }

// CheckKeyForNetwork refuses the well-known local key on networks other than local (12345) and
// the custom ones (those without a named HRP, §2.4).
func CheckKeyForNetwork(k *Key, networkID uint32) error {
	if !k.IsLocalKey() || networkID == localNetworkID || address.HRP(networkID) == address.HRP(0) {
		return nil
	}
	return fmt.Errorf("%w: network %d (%s)", ErrLocalKeyRefused, networkID, address.HRP(networkID))
}

// Sign signs a 32-byte digest: deterministic ECDSA with a low S, as r[32] ‖ s[32] ‖ v[1] with v
// the recovery ID 0 or 1 (§3.2).
func (k *Key) Sign(digest [sha256.Size]byte) (secp256k1fx.Signature, error) {
	sig, err := crypto.Sign(digest[:], k.priv)
	if err != nil {
		return secp256k1fx.Signature{}, fmt.Errorf("sign: %w", err)
	}
	return secp256k1fx.Signature(sig), nil
}

// SignTx signs unsigned with one credential per key, in order: keys[i] signs input i with a
// single signature (one-owner outputs). Every credential signs the same digest, sha256 of the
// unsigned bytes (§3.2), so a key that signs many inputs signs once.
func SignTx(unsigned xtxs.UnsignedTx, keys ...*Key) (*xtxs.Tx, error) {
	b, err := xtxs.UnsignedBytes(unsigned)
	if err != nil {
		return nil, fmt.Errorf("encode the unsigned tx: %w", err)
	}
	creds, err := credentials(b, keys)
	if err != nil {
		return nil, err
	}
	tx, err := xtxs.NewTx(unsigned, creds)
	if err != nil {
		return nil, fmt.Errorf("encode the signed tx: %w", err)
	}
	return tx, nil
}

// credentials returns one credential per key, in order, each holding the key's signature of
// sha256(unsignedBytes) (§3.2); a key is asked to sign once.
func credentials(unsignedBytes []byte, keys []*Key) ([]secp256k1fx.Credential, error) {
	digest := sha256.Sum256(unsignedBytes)
	sigs := make(map[*Key]secp256k1fx.Signature, 1)
	creds := make([]secp256k1fx.Credential, len(keys))
	for i, k := range keys {
		sig, ok := sigs[k]
		if !ok {
			var err error
			if sig, err = k.Sign(digest); err != nil {
				return nil, err
			}
			sigs[k] = sig
		}
		creds[i].Sigs = []secp256k1fx.Signature{sig}
	}
	return creds, nil
}

// PrivateKey returns the key as go-ethereum's ECDSA key, to sign EVM transactions.
func (k *Key) PrivateKey() *ecdsa.PrivateKey { return k.priv }
