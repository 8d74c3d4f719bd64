package index

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Keys in the indexer's view (the node passes the view of storage.PrefixIndex):
//
//	0x00 ‖ chainID ‖ kind    → the key space of one index (index.go)
//	0x01 ‖ chainID ‖ 0x04    → marker: the chain ran with indexing disabled ("incomplete")
//	0x01 ‖ chainID ‖ 0x05    → marker: the chain ran with indexing enabled ("previously indexed")
//	0x02                     → marker: the indexer has run on this database before
//
// The marker bytes are the reference's (node-api.md §5.3). Markers are never removed.
const (
	prefixIndexes    = 0x00
	prefixMarkers    = 0x01
	keyHasRun        = 0x02
	markerIncomplete = 0x04
	markerIndexed    = 0x05
)

// Config says whether the node indexes. Its zero value disables indexing and refuses incomplete
// indexes.
type Config struct {
	// Enabled indexes accepted containers and serves the Index API (--index-enabled).
	Enabled bool
	// AllowIncomplete lets the node start when an index would miss containers, or already
	// does (--index-allow-incomplete; node-api.md §5.7).
	AllowIncomplete bool
}

// Indexer keeps the indexes of every registered chain. It is safe for concurrent use; see Accept for
// the one ordering rule.
type Indexer struct {
	cfg Config
	db  *storage.View
	clk clock.Clock
	log *slog.Logger
	// ranBefore tells whether an indexer ran on this database before this process: the "has run"
	// marker as it was when New read it, before this run's Register wrote it.
	ranBefore bool

	// mu guards the fields below.
	mu sync.RWMutex
	// chains holds every registered chain; its indexes are nil when indexing is disabled.
	chains map[ids.ID]*chainIndexes
	// ranMarked is set once this process has written the "has run" marker.
	ranMarked bool
}

// chainIndexes are the indexes of one chain; a nil field is an index the chain does not have.
type chainIndexes struct {
	block, tx, vtx *index
}

// New returns an Indexer over db, the index's key space (the node passes the view of
// storage.PrefixIndex). It only reads the database: nothing is written before Register, so a start
// that Check refuses leaves the database as it was. clk gives acceptance times.
func New(cfg Config, db *storage.View, clk clock.Clock, log *slog.Logger) (*Indexer, error) {
	var errs []error
	if db == nil {
		errs = append(errs, fmt.Errorf("%w: nil database", ErrInvalidConfig))
	}
	if clk == nil {
		errs = append(errs, fmt.Errorf("%w: nil clock", ErrInvalidConfig))
	}
	if log == nil {
		errs = append(errs, fmt.Errorf("%w: nil logger", ErrInvalidConfig))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	ranBefore, err := db.Has([]byte{keyHasRun})
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	return &Indexer{
		cfg:       cfg,
		db:        db,
		clk:       clk,
		log:       log,
		ranBefore: ranBefore,
		chains:    make(map[ids.ID]*chainIndexes),
	}, nil
}

// Check applies the start-up rules of node-api.md §5.7 to chainID, without writing anything:
//   - indexing disabled: a chain indexed before is refused with ErrWouldBecomeIncomplete, unless
//     AllowIncomplete;
//   - indexing enabled: a chain marked incomplete is refused with ErrIncomplete, unless
//     AllowIncomplete, when it was indexed before or the indexer ran on this database before.
//
// So a new database started with indexing works, a database that ever ran without indexing needs
// AllowIncomplete to index, and the incomplete mark is never cleared. The node calls Check for every
// chain it knows before it writes anything, and refuses to start if any fails. A refusal is one of
// the two sentinels, unwrapped; any other error is a database failure.
func (x *Indexer) Check(chainID ids.ID) error {
	incomplete, err := x.db.Has(markerKey(chainID, markerIncomplete))
	if err != nil {
		return fmt.Errorf("check index of chain %s: %w", chainID, err)
	}
	indexed, err := x.db.Has(markerKey(chainID, markerIndexed))
	if err != nil {
		return fmt.Errorf("check index of chain %s: %w", chainID, err)
	}
	if x.cfg.AllowIncomplete {
		return nil
	}
	if !x.cfg.Enabled {
		if indexed {
			return ErrWouldBecomeIncomplete
		}
		return nil
	}
	if incomplete && (indexed || x.ranBefore) {
		return ErrIncomplete
	}
	return nil
}

// Register records that chainID runs, and with indexing enabled creates its indexes of the given
// kinds and returns their JSON-RPC handlers (service "index", node-api.md §5.5), keyed by kind. The
// node mounts each at /ext/index/<alias>/<kind>, and an L1 chain's block index also at
// /ext/index/<blockchainID>/block.
//
// It runs Check first and returns its refusal without writing. Otherwise it writes, in one
// commit, the chain's marker (incomplete when indexing is disabled, previously indexed when
// enabled) and the indexer's "has run" marker. With indexing disabled it returns no handlers and
// ignores kinds. Kinds must be distinct values among Block, Tx and Vtx (ErrInvalidKind); a chain
// is registered once (ErrRegistered).
func (x *Indexer) Register(chainID ids.ID, kinds ...Kind) (map[Kind]http.Handler, error) {
	ci := new(chainIndexes)
	if x.cfg.Enabled {
		var errs []error
		for _, k := range kinds {
			slot := ci.slot(k)
			switch {
			case slot == nil:
				errs = append(errs, fmt.Errorf("%w: %d", ErrInvalidKind, k))
			case *slot != nil:
				errs = append(errs, fmt.Errorf("%w: %s given twice", ErrInvalidKind, k))
			default:
				*slot = &index{view: x.db.Prefixed(indexPrefix(chainID, k))}
			}
		}
		if err := errors.Join(errs...); err != nil {
			return nil, fmt.Errorf("register index of chain %s: %w", chainID, err)
		}
	}

	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.chains[chainID]; ok {
		return nil, fmt.Errorf("register index of chain %s: %w", chainID, ErrRegistered)
	}
	if err := x.Check(chainID); err != nil {
		return nil, err
	}
	b := x.db.NewBatch()
	defer b.Close()
	marker := byte(markerIncomplete)
	if x.cfg.Enabled {
		marker = markerIndexed
	}
	if err := b.Put(markerKey(chainID, marker), nil); err != nil {
		return nil, fmt.Errorf("register index of chain %s: %w", chainID, err)
	}
	if !x.ranMarked {
		if err := b.Put([]byte{keyHasRun}, nil); err != nil {
			return nil, fmt.Errorf("register index of chain %s: %w", chainID, err)
		}
	}
	if err := b.Commit(); err != nil {
		return nil, fmt.Errorf("register index of chain %s: %w", chainID, err)
	}
	x.ranMarked = true

	log := x.log.With("chainID", chainID)
	if !x.cfg.Enabled {
		x.chains[chainID] = &chainIndexes{}
		log.Info("indexing disabled; chain marked incomplete")
		return nil, nil
	}
	x.chains[chainID] = ci
	handlers := make(map[Kind]http.Handler, len(kinds))
	names := make([]string, len(kinds))
	for i, k := range kinds {
		handlers[k] = newHandler(*ci.slot(k), log.With("index", k.String()))
		names[i] = k.String()
	}
	log.Debug("chain indexed", "kinds", names)
	return handlers, nil
}

// Accept stages the index entries of an accepted block into batch, the block's own batch, which
// the pipeline commits together with the VM's state and its last-accepted pointer: Accept never
// commits. block goes to the chain's block index and txs, in order, to its tx index, if the chain
// has them; the vtx index is never written. Every container gets the same acceptance time, the
// clock's now. A container whose ID is already in its index is skipped, so accepting a block again
// after a crash is a no-op (node-api.md §5.4). For a chain that is not registered, or with indexing
// disabled, Accept does nothing.
//
// Accept reads the committed indexes to number the new entries, so for one chain it must be called
// by one goroutine at a time, and the batch of one call committed or discarded before the next
// call. If it fails, the batch may hold part of the entries and must be discarded. It neither keeps
// nor changes the slices it is given. ctx is not used: staging neither blocks nor waits.
func (x *Indexer) Accept(_ context.Context, batch *storage.Batch, chainID ids.ID, block chains.Container, txs []chains.Container) error {
	x.mu.RLock()
	ci := x.chains[chainID]
	x.mu.RUnlock()
	if ci == nil || (ci.block == nil && ci.tx == nil) {
		return nil
	}
	now := x.clk.Now().UnixNano()
	if ci.block != nil {
		if err := ci.block.stage(ci.block.view.Wrap(batch), now, block); err != nil {
			return fmt.Errorf("index block %s of chain %s: %w", block.ID, chainID, err)
		}
	}
	if ci.tx != nil && len(txs) > 0 {
		if err := ci.tx.stage(ci.tx.view.Wrap(batch), now, txs...); err != nil {
			return fmt.Errorf("index transactions of block %s of chain %s: %w", block.ID, chainID, err)
		}
	}
	return nil
}

// slot returns where the index of kind k lives, or nil for an invalid kind.
func (ci *chainIndexes) slot(k Kind) **index {
	switch k {
	case Block:
		return &ci.block
	case Tx:
		return &ci.tx
	case Vtx:
		return &ci.vtx
	default:
		return nil
	}
}

// indexPrefix returns the sub-prefix of the index of kind k of chainID.
func indexPrefix(chainID ids.ID, k Kind) []byte {
	p := make([]byte, 0, 1+ids.IDLen+1)
	p = append(p, prefixIndexes)
	p = append(p, chainID[:]...)
	return append(p, byte(k))
}

// markerKey returns the key of a chain's marker.
func markerKey(chainID ids.ID, marker byte) []byte {
	k := make([]byte, 0, 1+ids.IDLen+1)
	k = append(k, prefixMarkers)
	k = append(k, chainID[:]...)
	return append(k, marker)
}

var _ chains.Truncater = (*Indexer)(nil)

// Truncate implements chains.Truncater: it stages into batch the removal of chainID's block
// index entries from block from on (a chain rolled back by a developer's evm_revert, issue #16
// §2): their containers, with one range deletion, the ID entries of dropped (which must be among
// them), and the next index, set to from's. The ID entries of the other removed blocks stay,
// stale, until Forget; readers ignore them. A block not in the index removes nothing. A chain's
// transaction index is not cut: only chains without one (the EVM chains) roll back.
func (x *Indexer) Truncate(_ context.Context, batch *storage.Batch, chainID ids.ID, from ids.ID, dropped []ids.ID) (int, error) {
	ci := x.blockIndex(chainID)
	if ci == nil {
		return 0, nil
	}
	n, err := ci.truncate(ci.view.Wrap(batch), from, dropped)
	if err != nil {
		return 0, fmt.Errorf("truncate block index of chain %s: %w", chainID, err)
	}
	return n, nil
}

// Forget implements chains.Truncater: it stages into batch the removal of the ID entries that a
// Truncate left for the blocks dropped, skipping any block accepted again since.
func (x *Indexer) Forget(_ context.Context, batch *storage.Batch, chainID ids.ID, dropped []ids.ID) error {
	ci := x.blockIndex(chainID)
	if ci == nil {
		return nil
	}
	if err := ci.forget(ci.view.Wrap(batch), dropped); err != nil {
		return fmt.Errorf("forget dropped blocks of chain %s: %w", chainID, err)
	}
	return nil
}

// blockIndex returns chainID's block index, nil when it has none.
func (x *Indexer) blockIndex(chainID ids.ID) *index {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if ci := x.chains[chainID]; ci != nil {
		return ci.block
	}
	return nil
}
