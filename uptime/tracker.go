package uptime

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Validator is one current validator of the chain, as Sync receives it.
type Validator struct {
	// ValidationID identifies the validation: an L1 validation ID, or the AddSubnetValidator
	// transaction ID of a legacy subnet validator.
	ValidationID ids.ID
	NodeID       ids.NodeID
	// StartTime is when the validation started, in unix seconds.
	StartTime uint64
	// Active is false for an L1 validator whose fee balance ran out; it counts as offline.
	Active bool
}

// Options change a tracker's rules. A nil *Options gives the defaults.
type Options struct {
	// StoppedIsUp makes the time this node was stopped count as up time for the validators
	// restored from an earlier run, as the reference's Primary Network uptime manager counts it
	// (network-consensus-warp.md §1.10): the measuring node's own downtime is never held against
	// the others. Default false: it counts as down, as for an L1's validators (package doc).
	StoppedIsUp bool
}

// Tracker tracks the up time of a chain's validators. See the package documentation.
type Tracker struct {
	db  *storage.View
	clk clock.Clock

	mu sync.Mutex // guards the fields below
	// validators maps a validation ID to what is known of it.
	validators map[ids.ID]*entry
	// connected maps each connected NodeID to the time it connected.
	connected map[ids.NodeID]time.Time
	// started is set by StartTracking.
	started bool
	closed  bool
}

// entry is a tracked validator.
type entry struct {
	record
	// restored is set for a validator loaded from the database, until tracking starts: the time
	// since the last write, while the node was stopped, does not count as up.
	restored bool
}

// New returns a tracker holding the validators stored in db by an earlier run, on clk, with the
// rules of opts (nil: the defaults). db is the tracker's own key space. Tracking has not started:
// call StartTracking once the chain is ready.
func New(db *storage.View, clk clock.Clock, opts *Options) (*Tracker, error) {
	if opts == nil {
		opts = &Options{}
	}
	t := &Tracker{
		db:         db,
		clk:        clk,
		validators: make(map[ids.ID]*entry),
		connected:  make(map[ids.NodeID]time.Time),
	}
	it, err := db.NewIterator(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("read uptimes: %w", err)
	}
	for it.Next() {
		key := it.Key()
		validationID, err := ids.ToID(key)
		if err != nil {
			_ = it.Close()
			return nil, fmt.Errorf("read uptimes: %w: key %x", ErrCorrupt, key)
		}
		r, err := decodeRecord(it.Value())
		if err != nil {
			_ = it.Close()
			return nil, fmt.Errorf("read uptime of %s: %w", validationID, err)
		}
		t.validators[validationID] = &entry{record: r, restored: !opts.StoppedIsUp}
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return nil, fmt.Errorf("read uptimes: %w", err)
	}
	return t, nil
}

// uptimeLocked returns e's up time at now. Assumes t.mu is held.
func (t *Tracker) uptimeLocked(e *entry, now time.Time) time.Duration {
	since := e.lastUpdated
	switch {
	case !t.started:
		if e.restored {
			return e.up
		}
	case !e.active:
		return e.up
	default:
		connectedAt, ok := t.connected[e.nodeID]
		if !ok {
			return e.up
		}
		if connectedAt.After(since) {
			since = connectedAt
		}
	}
	if now.Before(since) {
		// The clock is behind: add nothing, as the reference.
		return e.up
	}
	return e.up + now.Sub(since)
}

// settleLocked moves e's up time to now, so that a change of its state takes effect from now.
// When the clock is behind e.lastUpdated, e is left unchanged. Assumes t.mu is held.
func (t *Tracker) settleLocked(e *entry, now time.Time) {
	if now.Before(e.lastUpdated) {
		return
	}
	e.up = t.uptimeLocked(e, now)
	e.lastUpdated = now
}

// Sync brings the tracked validators in line with the chain's current set and persists every
// validator's up time. A new validator starts with no up time, last updated at its start time; one
// missing from validators is forgotten. A validator that turns inactive stops counting up from now;
// one that turns active again counts up from now if its node is connected.
func (t *Tracker) Sync(validators []Validator) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	now := t.clk.Now()
	current := make(map[ids.ID]bool, len(validators))
	for _, v := range validators {
		current[v.ValidationID] = true
		e, ok := t.validators[v.ValidationID]
		if !ok {
			t.validators[v.ValidationID] = &entry{record: record{
				nodeID:      v.NodeID,
				startTime:   v.StartTime,
				active:      v.Active,
				lastUpdated: startTimeOf(v.StartTime),
			}}
			continue
		}
		if e.active != v.Active || e.nodeID != v.NodeID {
			t.settleLocked(e, now)
		}
		e.nodeID, e.startTime, e.active = v.NodeID, v.StartTime, v.Active
	}
	b := t.db.NewBatch()
	defer b.Close()
	for validationID := range t.validators {
		if current[validationID] {
			continue
		}
		delete(t.validators, validationID)
		if err := b.Delete(validationID[:]); err != nil {
			return fmt.Errorf("forget uptime of %s: %w", validationID, err)
		}
	}
	return t.writeLocked(b, now)
}

// writeLocked settles every validator at now, adds them to b and commits it. Assumes t.mu is held.
func (t *Tracker) writeLocked(b *storage.Batch, now time.Time) error {
	for validationID, e := range t.validators {
		t.settleLocked(e, now)
		if err := b.Put(validationID[:], e.encode()); err != nil {
			return fmt.Errorf("write uptime of %s: %w", validationID, err)
		}
	}
	if err := b.Commit(); err != nil {
		return fmt.Errorf("write uptimes: %w", err)
	}
	return nil
}

// StartTracking starts measuring: from now on only connected, active validators count as up.
// connected are the NodeIDs connected at this point (on a single node, the node itself). Up time
// until now is kept as the not-started rule gives it, except that validators restored from an
// earlier run resume from now. Calling it again only marks more NodeIDs connected.
func (t *Tracker) StartTracking(connected []ids.NodeID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.clk.Now()
	if !t.started {
		for _, e := range t.validators {
			t.settleLocked(e, now)
			if e.restored {
				// The time the node was stopped is not up time.
				e.lastUpdated = now
				e.restored = false
			}
		}
		t.started = true
	}
	for _, nodeID := range connected {
		t.connectLocked(nodeID, now)
	}
}

// Connect records that nodeID connected now. Connecting a connected node changes nothing.
func (t *Tracker) Connect(nodeID ids.NodeID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.connectLocked(nodeID, t.clk.Now())
}

// connectLocked marks nodeID connected at now. Assumes t.mu is held.
func (t *Tracker) connectLocked(nodeID ids.NodeID, now time.Time) {
	if _, ok := t.connected[nodeID]; ok {
		return
	}
	t.connected[nodeID] = now
}

// Disconnect records that nodeID disconnected now: its validators keep the up time they have and
// stop counting.
func (t *Tracker) Disconnect(nodeID ids.NodeID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.connected[nodeID]; !ok {
		return
	}
	now := t.clk.Now()
	for _, e := range t.validators {
		if e.nodeID == nodeID {
			t.settleLocked(e, now)
		}
	}
	delete(t.connected, nodeID)
}

// IsConnected reports whether nodeID is connected.
func (t *Tracker) IsConnected(nodeID ids.NodeID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.connected[nodeID]
	return ok
}

// Uptime returns the up time of the validation and the time it was computed at, the current time.
// An unknown validation ID fails with an error wrapping ErrNotFound: `validationID not found:
// <id>`.
func (t *Tracker) Uptime(validationID ids.ID) (up time.Duration, at time.Time, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.validators[validationID]
	if !ok {
		return 0, time.Time{}, notFoundError(validationID)
	}
	now := t.clk.Now()
	return t.uptimeLocked(e, now), now, nil
}

// Flush persists every validator's up time as of now.
func (t *Tracker) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	b := t.db.NewBatch()
	defer b.Close()
	return t.writeLocked(b, t.clk.Now())
}

// Close persists every validator's up time as of now, like Flush, and stops the tracker: Sync and
// Flush then fail with ErrClosed, while reads keep answering from memory. Closing twice returns
// ErrClosed.
func (t *Tracker) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	t.closed = true
	b := t.db.NewBatch()
	defer b.Close()
	return t.writeLocked(b, t.clk.Now())
}
