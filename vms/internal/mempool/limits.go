package mempool

import (
	"errors"
	"fmt"
)

// Mempool and block size limits of both chains (reference/platform-exchange.md §1.2).
const (
	// MaxTxSize is the largest tx the mempool takes: 64 KiB.
	MaxTxSize = 64 * 1024
	// MaxSize is how many bytes of txs may be pending at once.
	MaxSize = 64 * 1024 * 1024
	// TargetBlockSize is the size a builder fills a block up to: 128 KiB.
	TargetBlockSize = 128 * 1024
)

// The mempool's refusals, which both chains' issueTx sends to the client (raw on the X-Chain,
// behind the P-Chain's prefix).
var (
	// ErrDuplicateTx refuses a tx that is pending or accepted already (and a tx twice in a
	// block).
	ErrDuplicateTx = errors.New("duplicate tx")
	// ErrTxTooLarge refuses a tx over MaxTxSize (§1.2).
	ErrTxTooLarge = errors.New("tx too large")
	// ErrFull refuses a tx when MaxSize bytes are pending.
	ErrFull = errors.New("mempool is full")
	// ErrConflictsWithOtherTx refuses an ImportTx whose atomic UTXO a pending tx (or an earlier
	// tx of the block) imports already: the reference's mempool text.
	ErrConflictsWithOtherTx = errors.New("tx conflicts with other tx")
)

// CheckLimits refuses tx when it is larger than MaxTxSize (naming its ID and size) or would take
// the pending txs past MaxSize bytes.
func (p *Pool[T, E]) CheckLimits(tx T) error {
	if tx.Size() > MaxTxSize {
		return fmt.Errorf("%w: %s size (%d) > max size (%d)", ErrTxTooLarge, tx.ID(), tx.Size(), MaxTxSize)
	}
	if p.size+tx.Size() > MaxSize {
		return ErrFull
	}
	return nil
}
