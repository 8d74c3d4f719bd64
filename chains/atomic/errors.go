package atomic

import (
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

// Errors of shared memory. No client sees them as they are: a VM checks an ImportTx's UTXOs with
// Get before its block is built and answers with the reference's text; Apply's errors mean a VM
// bug, and halt the chain rather than lose or mint AVAX.
var (
	// ErrNotFound is wrapped when a key is not in the set read or removed from.
	ErrNotFound = errors.New("atomic: not found")
	// ErrDuplicate is wrapped when Apply puts a key that is already in the set, or puts or removes
	// one key twice.
	ErrDuplicate = errors.New("atomic: duplicate key")
	// ErrSelf is returned when a chain names itself as the peer.
	ErrSelf = errors.New("atomic: a chain has no shared memory with itself")
	// errBadRecord is wrapped when a stored element cannot be decoded.
	errBadRecord = errors.New("atomic: malformed element record")
)

func notFoundError(peer, key ids.ID) error {
	return fmt.Errorf("%w: UTXO %s from chain %s", ErrNotFound, key, peer)
}

func duplicateError(key ids.ID) error {
	return fmt.Errorf("%w: %s", ErrDuplicate, key)
}
