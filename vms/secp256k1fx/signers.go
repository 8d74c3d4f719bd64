package secp256k1fx

import (
	"crypto/sha256"
	"sync"

	gsecp "github.com/consensys/gnark-crypto/ecc/secp256k1"

	"github.com/cornice-node/cornice/ids"
)

// Signers remembers the public keys of addresses whose signatures a chain accepted, so that the
// next signature expected from one of them is checked against its key instead of recovered: with
// the key's table of multiples (fixedBase) the check is two fixed-base multiplications, a
// fraction of a recovery's cost (about 25 µs against 150 of CPU on a 2.5 GHz Xeon). A wallet, an
// exchange or a validator signs tx after tx with the same keys, so the same few addresses come
// back (docs/decisions.md, "Signature checks against remembered keys").
//
// Only keys that made a signature the caller expected (the owner of the UTXO being spent) are
// remembered, at most max of them; a key's table (152 KB) is built the second time it
// signs, so a key seen once costs its caller nothing more than the recovery. When full, an
// arbitrary key is forgotten. A Signers is safe for concurrent use; a nil one remembers nothing.
type Signers struct {
	mu   sync.Mutex // guards keys
	keys map[ids.ShortID]*knownKey
	max  int
}

// warmGenerator starts building the generator's table once, when the first key is remembered.
var warmGenerator sync.Once

// knownKey is a remembered key: its point, and its table once it signed a second time.
type knownKey struct {
	pub   gsecp.G1Affine
	table *fixedBase
}

// NewSigners returns a Signers that remembers up to max keys.
func NewSigners(max int) *Signers {
	return &Signers{keys: make(map[ids.ShortID]*knownKey, max), max: max}
}

// RecoverAddress returns exactly what the package's RecoverAddress returns for sig over hash.
// want is the address the caller expects: when its key is remembered, sig is verified against
// that key, and recovered in full only if that fails; a signature that recovers to want makes
// the Signers remember want's key.
func (s *Signers) RecoverAddress(hash [sha256.Size]byte, sig Signature, want ids.ShortID) (ids.ShortID, error) {
	if s == nil {
		return RecoverAddress(hash, sig)
	}
	if err := checkMalleability(&sig); err != nil {
		return ids.ShortID{}, err
	}
	s.mu.Lock()
	var table *fixedBase
	if k := s.keys[want]; k != nil {
		table = k.table
	}
	s.mu.Unlock()
	if table != nil && verifyWithTable(table, hash, &sig) {
		return want, nil
	}
	pub, err := RecoverPublicKey(hash, sig)
	if err != nil {
		return ids.ShortID{}, err
	}
	addr := PublicKeyAddress(pub.SerializeCompressed())
	if addr == want {
		s.remember(want, pub.SerializeUncompressed())
	}
	return addr, nil
}

// remember records the key of addr (65 bytes, uncompressed: 0x04, X, Y), and builds its table
// if the key was already known without one.
func (s *Signers) remember(addr ids.ShortID, uncompressed []byte) {
	s.mu.Lock()
	k, ok := s.keys[addr]
	switch {
	case ok && k.table != nil:
		s.mu.Unlock()
		return
	case !ok:
		if len(s.keys) >= s.max {
			for old := range s.keys { // map order: an arbitrary key
				delete(s.keys, old)
				break
			}
		}
		k = &knownKey{}
		k.pub.X.SetBytes(uncompressed[1:33])
		k.pub.Y.SetBytes(uncompressed[33:65])
		s.keys[addr] = k
		s.mu.Unlock()
		// The key's next signature will be checked against the generator's table too: build it
		// now, off the request path, rather than in the first check (tens of milliseconds).
		warmGenerator.Do(func() { go generatorTable() })
		return
	}
	pub := k.pub
	s.mu.Unlock()
	// Build outside the lock; two goroutines building the same table both build the same.
	table := newFixedBase(&pub, signerTableBits)
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.keys[addr]; ok {
		k.table = table
	}
}

// HasTable reports whether addr's key is remembered with its table, so that its next signature
// is verified rather than recovered. Tests use it to see that a chain passes its Signers on.
func (s *Signers) HasTable(addr ids.ShortID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.keys[addr]
	return k != nil && k.table != nil
}
