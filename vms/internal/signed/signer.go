package signed

import (
	"crypto/sha256"
	"sync"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// signerMemo holds the addresses a Tx's signatures recover to over its unsigned hash.
//
// Invariant: len(bySig) ≤ the number of signatures in the Tx's credentials, so a memo never
// outgrows the tx it belongs to.
type signerMemo struct {
	mu sync.Mutex // guards the fields below
	// hash is sha256 of the Tx's unsigned bytes, set with hashed on first use.
	hash   [sha256.Size]byte
	hashed bool
	// bySig maps a signature to what it recovers to over hash. One key signing several inputs
	// gives the same signature, recovered once. Keying on the whole signature (the hash being
	// fixed for the Tx) means a changed signature is never answered from the memo.
	bySig map[secp256k1fx.Signature]recovered
	// limit is the number of signatures in the Tx's credentials, counted on first use.
	limit int
}

// recovered is the outcome of one recovery: an address or the error RecoverAddress gave.
type recovered struct {
	addr ids.ShortID
	err  error
}

// Signer returns the address that signature sig of credential cred recovers to over the tx's
// unsigned hash (platform-exchange.md §3.2), or the error of [secp256k1fx.RecoverAddress]
// (wrapping ErrMutatedSig or ErrWrongSig). want is the address the caller expects and keys the
// keys it remembers (nil: none): a first call checks the signature against want's remembered key
// when there is one (secp256k1fx.Signers), and the answer is the same either way. The first call
// for a signature recovers it; later calls on this Tx for the same signature bytes answer from
// memory, errors included, since recovery is a function of the signature and the hash alone. It
// panics if cred or sig is out of range. It is safe for concurrent use.
func (tx *Tx[U]) Signer(keys *secp256k1fx.Signers, cred, sig int, want ids.ShortID) (ids.ShortID, error) {
	s := tx.creds[cred].Sigs[sig]
	m := tx.signers
	if m == nil { // a Tx not made by this package's constructors: no memo
		return keys.RecoverAddress(tx.UnsignedHash(), s, want)
	}
	m.mu.Lock()
	if !m.hashed {
		m.hash, m.hashed = tx.UnsignedHash(), true
		for i := range tx.creds {
			m.limit += len(tx.creds[i].Sigs)
		}
	}
	if r, ok := m.bySig[s]; ok {
		m.mu.Unlock()
		return r.addr, r.err
	}
	hash := m.hash
	m.mu.Unlock()

	// Recover without the lock: two goroutines verifying the same Tx may both recover a
	// signature, and both get the same answer.
	var r recovered
	r.addr, r.err = keys.RecoverAddress(hash, s, want)

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bySig == nil {
		m.bySig = make(map[secp256k1fx.Signature]recovered, m.limit)
	}
	// The credentials are immutable by contract; should a caller change a signature anyway,
	// the memo starts over rather than grow past the tx's own signatures.
	if _, ok := m.bySig[s]; !ok && len(m.bySig) >= m.limit {
		clear(m.bySig)
	}
	m.bySig[s] = r
	return r.addr, r.err
}
