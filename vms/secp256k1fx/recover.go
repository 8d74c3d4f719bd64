package secp256k1fx

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/big"

	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	//lint:ignore SA1019 short addresses are defined with RIPEMD-160 (platform-exchange.md §2.4).
	"golang.org/x/crypto/ripemd160"

	"github.com/cornice-node/cornice/ids"
)

// halfN is half the order of the secp256k1 group, as 32 big-endian bytes: a valid signature's S
// is at most this.
var halfN = func() (b [32]byte) {
	new(big.Int).Rsh(secp.S256().Params().N, 1).FillBytes(b[:])
	return b
}()

// RecoverAddress returns the short address of the key that made sig over hash: ripemd160 of
// sha256 of the compressed public key (platform-exchange.md §2.4, §3.2). A high S or a recovery
// flag other than 0 or 1 fails with ErrMutatedSig; a signature no key made fails with ErrWrongSig.
//
// Recovery uses decred's pure-Go secp256k1 (the code go-ethereum's crypto runs without cgo), never
// go-ethereum's cgo build: the genesis package, and so the node, link the VMs that call this, and
// the node's tests also link the reference node's clients, whose C secp256k1 symbols clash with
// go-ethereum's (docs/decisions.md).
func RecoverAddress(hash [sha256.Size]byte, sig Signature) (ids.ShortID, error) {
	pub, err := RecoverPublicKey(hash, sig)
	if err != nil {
		return ids.ShortID{}, err
	}
	return PublicKeyAddress(pub.SerializeCompressed()), nil
}

// RecoverPublicKey returns the public key that made sig over hash, with RecoverAddress's checks
// and errors. The C-Chain's atomic txs compare its Ethereum address with their inputs'.
func RecoverPublicKey(hash [sha256.Size]byte, sig Signature) (*secp.PublicKey, error) {
	if err := checkMalleability(&sig); err != nil {
		return nil, err
	}
	// Compact form: header 27 + recovery flag (uncompressed key), then r and s.
	var compact [65]byte
	compact[0] = 27 + sig[64]
	copy(compact[1:], sig[:64])
	pub, _, err := ecdsa.RecoverCompact(compact[:], hash[:])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWrongSig, err)
	}
	return pub, nil
}

// checkMalleability refuses a signature with a recovery flag other than 0 or 1 or a high S
// (§3.2): ErrMutatedSig.
func checkMalleability(sig *Signature) error {
	// Both are 32 big-endian bytes, so they compare as numbers do.
	if sig[64] > 1 || bytes.Compare(sig[32:64], halfN[:]) > 0 {
		return ErrMutatedSig
	}
	return nil
}

// PublicKeyAddress returns the short address of a 33-byte compressed secp256k1 public key:
// ripemd160(sha256(key)) (§2.4).
func PublicKeyAddress(compressed []byte) ids.ShortID {
	sum := sha256.Sum256(compressed)
	h := ripemd160.New()
	h.Write(sum[:])
	var addr ids.ShortID
	h.Sum(addr[:0])
	return addr
}
