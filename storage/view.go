package storage

import (
	"bytes"
	"fmt"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// View is one component's key space: every key passed to it or read
// through it is relative to its prefix. A View is safe for concurrent use
// and stays valid until the DB is closed.
type View struct {
	db *DB
	// prefix is prepended to every key. It is never changed, so it may be
	// shared with the batches and iterators made from the view.
	prefix []byte
	// live makes reads go to Pebble's live state, not the published one
	// (View.Live).
	live bool
	// pin, when set, is the one published state every read of the view
	// sees (View.Pin); the view holds a reference on it until released.
	pin *published
}

// Prefixed returns a view nested in v: its keys start with v's prefix
// followed by sub. The view copies sub. Sub-prefixes that sit side by side
// must not be prefixes of one another (use fixed lengths, such as IDs).
func (v *View) Prefixed(sub []byte) *View {
	return &View{db: v.db, prefix: concat(v.prefix, sub), live: v.live, pin: v.pin}
}

// Live returns a view of the same key space whose reads (and those of the
// views nested in it) see Pebble's live state rather than the state
// published after the last durable commit: they skip the published state's
// reference count, and may see a batch whose commit is still syncing.
// Writes are the same as v's.
//
// Use it only on the goroutine that commits every write to the key space
// it reads: a chain's acceptance pipeline (building, verifying and
// accepting blocks) reading its own VM's state. That goroutine is not
// reading while its own commit syncs, and no other goroutine writes there,
// so all it can see is durable. Anything an API handler answers must come
// from a view that is not live (package doc, "Durable before visible").
func (v *View) Live() *View {
	return &View{db: v.db, prefix: v.prefix, live: true}
}

// Pin returns a view of the same key space whose reads (and those of the
// views nested in it) all see one state: the one published now. A reader
// that reads several keys that one commit changes together (an index and
// the records it names) reads them through a pinned view, or a commit
// between two reads can show it half of the change. The caller must call
// release, once, when done; until then the DB's Close waits. Writes are the
// same as v's, and the pinned view's reads do not see them. A live view has
// no published state to pin: Pin returns it as it is.
func (v *View) Pin() (pinned *View, release func()) {
	if v.live || v.pin != nil {
		return v, func() {}
	}
	if err := v.db.begin(); err != nil {
		// A closed DB: the view's reads fail as v's would.
		return v, func() {}
	}
	pv := &pinnedView{View: View{db: v.db, prefix: v.prefix, pin: v.db.acquire()}}
	return &pv.View, pv.release
}

// pinnedView is a pinned View with what its release needs, in one allocation.
type pinnedView struct {
	View
	released atomic.Bool
}

// release drops the view's reference on its state and its call in flight, the first time only.
func (pv *pinnedView) release() {
	if pv.released.CompareAndSwap(false, true) {
		pv.pin.release()
		pv.db.inflight.Done()
	}
}

// Prefix returns a copy of the view's full prefix, from the database root.
func (v *View) Prefix() []byte { return bytes.Clone(v.prefix) }

// Get returns a copy of the value stored at key, which the caller owns, or
// an error wrapping ErrNotFound when the key is absent.
func (v *View) Get(key []byte) ([]byte, error) {
	if err := v.db.begin(); err != nil {
		return nil, err
	}
	defer v.db.inflight.Done()
	if len(v.prefix)+len(key) == 0 {
		return nil, ErrNotFound // the empty key can never be stored
	}
	val, ok, err := v.db.get(v.key(key), v.live, v.pin, true)
	if err != nil {
		return nil, fmt.Errorf("get: %w", err)
	}
	if !ok {
		return nil, ErrNotFound
	}
	return val, nil
}

// Has reports whether key is present. It does not keep key.
func (v *View) Has(key []byte) (bool, error) {
	if err := v.db.begin(); err != nil {
		return false, err
	}
	defer v.db.inflight.Done()
	if len(v.prefix)+len(key) == 0 {
		return false, nil // the empty key can never be stored
	}
	_, ok, err := v.db.get(v.key(key), v.live, v.pin, false)
	if err != nil {
		return false, fmt.Errorf("has: %w", err)
	}
	return ok, nil
}

// Put stores value at key and syncs it to disk before returning. Use a
// Batch to write many keys at the cost of one sync. It does not keep key
// or value. The empty key at the database root is refused with ErrEmptyKey.
func (v *View) Put(key, value []byte) error {
	if err := v.db.begin(); err != nil {
		return err
	}
	if len(v.prefix)+len(key) == 0 {
		v.db.inflight.Done()
		return ErrEmptyKey
	}
	defer v.db.inflight.Done()
	if err := v.db.write(func(pb *pebble.Batch) error { return pb.Set(v.key(key), value, nil) }); err != nil {
		return fmt.Errorf("put: %w", err)
	}
	return nil
}

// Delete removes key and syncs; deleting an absent key is not an error.
// It does not keep key.
func (v *View) Delete(key []byte) error {
	if err := v.db.begin(); err != nil {
		return err
	}
	if len(v.prefix)+len(key) == 0 {
		v.db.inflight.Done()
		return ErrEmptyKey
	}
	defer v.db.inflight.Done()
	if err := v.db.write(func(pb *pebble.Batch) error { return pb.Delete(v.key(key), nil) }); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	return nil
}

// NewBatch returns an empty batch whose keys are relative to v.
func (v *View) NewBatch() *Batch {
	return &Batch{st: &batchState{db: v.db, pb: v.db.pdb.NewBatch()}, prefix: v.prefix}
}

// Wrap returns a batch that writes into b, with keys relative to v. Both
// share one set of writes: committing either commits everything written
// through any of them, atomically. This is how several components write
// one block's changes in one batch.
func (v *View) Wrap(b *Batch) *Batch {
	return &Batch{st: b.st, prefix: v.prefix}
}

// NewIterator returns an iterator, in key order, over the keys of v that
// start with prefix, beginning at prefix+start (start does not repeat the
// prefix; neither slice is kept). Keys it returns are relative to v. The
// caller must Close it.
// It sees a consistent state: the one published when it was made (or, from
// a live view, Pebble's state then). It holds no lock: the goroutine that
// has it open may commit.
func (v *View) NewIterator(prefix, start []byte) (*Iterator, error) {
	if err := v.db.begin(); err != nil {
		return nil, err
	}
	full := concat(v.prefix, prefix)
	opts := &pebble.IterOptions{
		LowerBound: concat(full, start),
		UpperBound: upperBound(full),
	}
	pit, pub, err := v.db.newIter(opts, v.live, v.pin)
	if err != nil {
		v.db.inflight.Done()
		return nil, fmt.Errorf("new iterator: %w", err)
	}
	// The iterator keeps its inflight count and its state until Close.
	return &Iterator{db: v.db, pub: pub, it: pit, strip: len(v.prefix)}, nil
}

// key returns v's prefix followed by key, in a new slice.
func (v *View) key(key []byte) []byte { return concat(v.prefix, key) }

// concat returns a followed by b in a new slice that shares neither, or nil
// when both are empty: Pebble's invariant checks (race builds) index
// key[0] of any non-nil seek key, so an empty key must be nil.
func concat(a, b []byte) []byte {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make([]byte, len(a)+len(b))
	copy(out, a)
	copy(out[len(a):], b)
	return out
}

// upperBound returns the smallest key greater than every key that starts
// with prefix, or nil (no bound) when there is none: an empty prefix or one
// made of 0xff bytes only.
func upperBound(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
