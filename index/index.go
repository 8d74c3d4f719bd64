package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Keys inside one index's view (the counterpart of the reference's per-index database, node-api.md
// §5.3; the bytes differ because we do not hash prefixes):
//
//	0x00              → the next index to assign, u64 big-endian; absent on a new index (0)
//	0x01 ‖ u64 index  → the stored container (container.go)
//	0x02 ‖ ID         → the container's index, u64 big-endian
//
// Invariant: if next is n, the containers are at exactly 0 … n-1, and the ID map holds their IDs.
// Accept changes all three in the block's batch, so a commit applies all or none of them. The ID
// map may also hold entries of containers a truncation dropped (a developer's roll-back cuts the
// containers with one range deletion and leaves their ID entries for a later Forget, so that it
// costs the same however many it drops): an ID entry counts only when the container at its index
// has that ID (lookup), and every reader goes through that check.
const (
	keyNext         = 0x00
	prefixContainer = 0x01
	prefixID        = 0x02
)

// containerKeyLen and idKeyLen are the lengths of the keys above.
const (
	containerKeyLen = 1 + 8
	idKeyLen        = 1 + ids.IDLen
)

// nextKey is the key of the counter. It is never modified.
var nextKey = []byte{keyNext}

// containerKey returns the key of the container at index i.
func containerKey(i uint64) [containerKeyLen]byte {
	var k [containerKeyLen]byte
	k[0] = prefixContainer
	binary.BigEndian.PutUint64(k[1:], i)
	return k
}

// idKey returns the key of the ID map entry of id.
func idKey(id ids.ID) [idKeyLen]byte {
	var k [idKeyLen]byte
	k[0] = prefixID
	copy(k[1:], id[:])
	return k
}

// index is one index (a chain and a Kind) in its own key space. It is safe for concurrent use by
// readers; stage must be called by one goroutine at a time (the chain's pipeline).
type index struct {
	view *storage.View
}

// pinned returns the index as published now, every read of it seeing that one state
// (storage.View.Pin), and its release, which the caller must call once. An answer that reads the
// counter and then the containers below it reads them through one: a developer's roll-back
// committed between the two reads would otherwise leave the counter naming containers gone.
func (ix *index) pinned() (*index, func()) {
	v, release := ix.view.Pin()
	return &index{view: v}, release
}

// readNext returns the next index to assign, which is also the number of containers.
func (ix *index) readNext() (uint64, error) {
	v, err := ix.view.Get(nextKey)
	if errors.Is(err, storage.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read next index: %w", err)
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("%w: next index of %d bytes", errCorrupt, len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// stage writes, into w, every container of cs that is not in the index yet, at consecutive indices,
// with the acceptance time timestamp (unix nanoseconds). A container already in the index, or
// repeated in cs, is skipped: after a crash the pipeline may accept a block again, and that must
// not index it twice (node-api.md §5.4). It reads only committed state, so the batch of a previous
// stage on this index must have been committed or discarded before the next one.
func (ix *index) stage(w *storage.Batch, timestamp int64, cs ...chains.Container) error {
	if len(cs) == 0 {
		return nil
	}
	next, err := ix.readNext()
	if err != nil {
		return err
	}
	start := next
	// seen catches a container repeated within cs; a short list is searched instead.
	var seen map[ids.ID]struct{}
	if len(cs) > 16 {
		seen = make(map[ids.ID]struct{}, len(cs))
	}
	var buf []byte
	for i, c := range cs {
		if seen != nil {
			if _, dup := seen[c.ID]; dup {
				continue
			}
			seen[c.ID] = struct{}{}
		} else if repeated(cs[:i], c.ID) {
			continue
		}
		has, err := ix.has(c.ID)
		if err != nil {
			return err
		}
		if has {
			continue
		}
		ik := idKey(c.ID)
		buf, err = appendContainer(buf[:0], c.ID, c.Bytes, timestamp)
		if err != nil {
			return fmt.Errorf("store container %s: %w", c.ID, err)
		}
		ck := containerKey(next)
		var at [8]byte
		binary.BigEndian.PutUint64(at[:], next)
		// Put copies key and value, so buf and the keys are reused.
		if err := w.Put(ck[:], buf); err != nil {
			return fmt.Errorf("stage container %s: %w", c.ID, err)
		}
		if err := w.Put(ik[:], at[:]); err != nil {
			return fmt.Errorf("stage container %s: %w", c.ID, err)
		}
		next++
	}
	if next == start {
		return nil
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], next)
	if err := w.Put(nextKey, n[:]); err != nil {
		return fmt.Errorf("stage next index: %w", err)
	}
	return nil
}

// repeated reports whether id is the ID of one of cs.
func repeated(cs []chains.Container, id ids.ID) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}

// at returns the container at index i; found is false when there is none.
func (ix *index) at(i uint64) (c stored, found bool, err error) {
	k := containerKey(i)
	v, err := ix.view.Get(k[:])
	if errors.Is(err, storage.ErrNotFound) {
		return stored{}, false, nil
	}
	if err != nil {
		return stored{}, false, fmt.Errorf("read container %d: %w", i, err)
	}
	c, err = decodeContainer(v)
	if err != nil {
		return stored{}, false, fmt.Errorf("read container %d: %w", i, err)
	}
	return c, true, nil
}

// lookup returns the index of the container id and the container; found is false when it is not
// in the index: no ID entry, or a stale one, left by a truncation, whose index holds no container
// or another one.
func (ix *index) lookup(id ids.ID) (i uint64, c stored, found bool, err error) {
	k := idKey(id)
	v, err := ix.view.Get(k[:])
	if errors.Is(err, storage.ErrNotFound) {
		return 0, stored{}, false, nil
	}
	if err != nil {
		return 0, stored{}, false, fmt.Errorf("look up container %s: %w", id, err)
	}
	if len(v) != 8 {
		return 0, stored{}, false, fmt.Errorf("%w: index of container %s has %d bytes", errCorrupt, id, len(v))
	}
	i = binary.BigEndian.Uint64(v)
	c, found, err = ix.at(i)
	if err != nil || !found || c.ID != id {
		return 0, stored{}, false, err
	}
	return i, c, true, nil
}

// has reports whether the container id is in the index.
func (ix *index) has(id ids.ID) (bool, error) {
	k := idKey(id)
	ok, err := ix.view.Has(k[:])
	if err != nil {
		return false, fmt.Errorf("look up container %s: %w", id, err)
	}
	if !ok {
		return false, nil // the common case, without reading a container
	}
	_, _, found, err := ix.lookup(id)
	return found, err
}

// scan calls fn for the containers from index start on, in order, at most n of them, with one
// iterator: the containers come from one snapshot of the database, so a block's containers are
// either all there or none (each block is one atomic batch). c.Bytes is valid only during the call.
// It stops early, with ctx's error, if ctx is done.
func (ix *index) scan(ctx context.Context, start, n uint64, fn func(i uint64, c stored) error) (err error) {
	from := containerKey(start)
	it, err := ix.view.NewIterator([]byte{prefixContainer}, from[1:])
	if err != nil {
		return fmt.Errorf("read containers from %d: %w", start, err)
	}
	defer func() {
		if cerr := it.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	for done := uint64(0); done < n && it.Next(); done++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := it.Key()
		if len(k) != containerKeyLen {
			return fmt.Errorf("%w: container key of %d bytes", errCorrupt, len(k))
		}
		i := binary.BigEndian.Uint64(k[1:])
		v := it.Value()
		if v == nil && it.Err() != nil {
			break // reported below
		}
		c, err := decodeContainer(v)
		if err != nil {
			return fmt.Errorf("read container %d: %w", i, err)
		}
		if err := fn(i, c); err != nil {
			return err
		}
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("read containers from %d: %w", start, err)
	}
	return nil
}

// truncate writes into w the removal of the container id and every later one, and of the ID
// entries of dropped, which must be among them, and returns how many containers it removes; none
// when id is not in the index. Many containers go with one range deletion (removeContainers), so
// its cost does not grow with their number; the ID entries of those not in dropped stay, stale,
// until forget.
func (ix *index) truncate(w *storage.Batch, id ids.ID, dropped []ids.ID) (int, error) {
	next, err := ix.readNext()
	if err != nil {
		return 0, err
	}
	// The first dropped container is most often the last one (a developer's 1-block revert):
	// reading it spares the read of its ID entry; any other is looked up by ID.
	var (
		start uint64
		found bool
	)
	if next > 0 {
		c, ok, err := ix.at(next - 1)
		if err != nil {
			return 0, err
		}
		start, found = next-1, ok && c.ID == id
	}
	if !found {
		if start, _, found, err = ix.lookup(id); err != nil || !found {
			return 0, err
		}
	}
	if start >= next {
		return 0, fmt.Errorf("%w: container %s at index %d, next index %d", errCorrupt, id, start, next)
	}
	if err := removeContainers(w, start, next); err != nil {
		return 0, fmt.Errorf("remove containers %d to %d: %w", start, next-1, err)
	}
	for _, d := range dropped {
		// id, the first dropped (often the only one: a developer's 1-block revert), was found
		// at start above: no second read.
		if d != id {
			i, _, found, err := ix.lookup(d)
			if err != nil {
				return 0, err
			}
			if !found || i < start {
				return 0, fmt.Errorf("forget container %s: not among the containers from index %d on", d, start)
			}
		}
		k := idKey(d)
		if err := w.Delete(k[:]); err != nil {
			return 0, fmt.Errorf("forget container %s: %w", d, err)
		}
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], start)
	if err := w.Put(nextKey, n[:]); err != nil {
		return 0, fmt.Errorf("stage next index: %w", err)
	}
	return int(next - start), nil
}

// pointDeletes is the most containers truncate removes key by key: Pebble's range deletions
// cost every later read a little until compaction drops them, and a developer's test suite
// reverts a few blocks after every test.
const pointDeletes = 64

// removeContainers writes into w the removal of the containers at indices start to next-1: key
// by key when they are few, else with one range deletion, whose cost does not grow with theirs.
func removeContainers(w *storage.Batch, start, next uint64) error {
	if next-start > pointDeletes {
		from, to := containerKey(start), containerKey(next)
		return w.DeleteRange(from[:], to[:])
	}
	for i := start; i < next; i++ {
		k := containerKey(i)
		if err := w.Delete(k[:]); err != nil {
			return err
		}
	}
	return nil
}

// forget writes into w the removal of the stale ID entries of dropped: those a truncation left.
// An ID whose container is in the index (accepted again since) keeps its entry, and one without
// an entry is skipped, so forgetting twice is harmless.
func (ix *index) forget(w *storage.Batch, dropped []ids.ID) error {
	for _, d := range dropped {
		k := idKey(d)
		ok, err := ix.view.Has(k[:])
		if err != nil {
			return fmt.Errorf("look up container %s: %w", d, err)
		}
		if !ok {
			continue
		}
		if _, _, found, err := ix.lookup(d); err != nil || found {
			if err != nil {
				return err
			}
			continue
		}
		if err := w.Delete(k[:]); err != nil {
			return fmt.Errorf("forget container %s: %w", d, err)
		}
	}
	return nil
}
