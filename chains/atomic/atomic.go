package atomic

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// The key layout under the view New is given (storage.PrefixAtomic). dst is the chain that may
// import, src the chain that exported; all IDs are fixed-width, so no key is a prefix of another.
//
//	"v" | dst | src | key                  -> element record: uint32 count | count × trait[20] | value
//	"t" | dst | src | trait[20] | key      -> empty: the keys that trait owns, in key order
//
// The record keeps the traits so that a removal deletes the element's trait entries too.
const (
	keyValue byte = 'v'
	keyTrait byte = 't'
)

// Element is one atomic UTXO as shared memory holds it.
type Element struct {
	// Key is the UTXO's ID: ids.ID.Prefix(outputIndex) of its tx ID.
	Key ids.ID
	// Value is the UTXO's bytes in the source chain's codec, as getUTXOs returns them.
	Value []byte
	// Traits are the addresses that own the UTXO, by which Keys pages the set.
	Traits []ids.ShortID
}

// Requests is what one accepted block does to the shared memory it has with one peer chain.
type Requests struct {
	// Remove names elements the peer exported to this chain that the block imports.
	Remove []ids.ID
	// Put are elements the block exports to the peer.
	Put []Element
}

// Memory is the shared memory of every chain of the node, in one key space of the node's
// database.
type Memory struct {
	view *storage.View
}

// New returns the shared memory kept in view (the node gives storage.PrefixAtomic's).
func New(view *storage.View) *Memory { return &Memory{view: view} }

// For returns chainID's handle on shared memory: what it may import and how it exports.
func (m *Memory) For(chainID ids.ID) *SharedMemory {
	return &SharedMemory{view: m.view, chainID: chainID}
}

// SharedMemory is one chain's handle on shared memory. Its reads see what the peers' accepted
// blocks exported to the chain and its own accepted blocks have not imported yet.
type SharedMemory struct {
	view    *storage.View
	chainID ids.ID
}

// Pinned returns a handle on the same shared memory whose reads all see the state published now
// (storage.View.Pin), for an answer made of several reads, such as a page of keys and then their
// values; the caller must call release, once, when done.
func (s *SharedMemory) Pinned() (pinned *SharedMemory, release func()) {
	v, release := s.view.Pin()
	return &SharedMemory{view: v, chainID: s.chainID}, release
}

// Get returns the values of keys, in order, from the set peer exported to this chain. A missing
// key fails the call with an error wrapping ErrNotFound.
func (s *SharedMemory) Get(peer ids.ID, keys []ids.ID) ([][]byte, error) {
	if peer == s.chainID {
		return nil, ErrSelf
	}
	values := make([][]byte, len(keys))
	for i, key := range keys {
		e, err := s.get(s.chainID, peer, key)
		if err != nil {
			return nil, err
		}
		values[i] = e.Value
	}
	return values, nil
}

// Keys returns up to n keys, in key order, of the elements peer exported to this chain that trait
// owns, starting after start (from the first when start is the empty ID): the page walk of
// getUTXOs with a sourceChain.
func (s *SharedMemory) Keys(peer ids.ID, trait ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	if peer == s.chainID {
		return nil, ErrSelf
	}
	prefix := traitPrefix(s.chainID, peer, trait)
	it, err := s.view.NewIterator(prefix, start[:])
	if err != nil {
		return nil, fmt.Errorf("read shared memory from %s: %w", peer, err)
	}
	var out []ids.ID
	for len(out) < n && it.Next() {
		key, err := ids.ToID(it.Key()[len(prefix):])
		if err != nil {
			return nil, errors.Join(fmt.Errorf("%w: trait key %x", errBadRecord, it.Key()), it.Close())
		}
		if key == start {
			continue
		}
		out = append(out, key)
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return nil, fmt.Errorf("read shared memory from %s: %w", peer, err)
	}
	return out, nil
}

// Apply stages into batch, the batch of the block being accepted, what the block does to shared
// memory: for each peer chain, its imports (removed from what the peer exported to this chain)
// and its exports (put into what this chain exported to the peer). It checks, against the
// committed state, that every removed key is there and no put key is, and that no key appears
// twice in requests, so that a faulty block halts its chain rather than lose or mint a UTXO; a
// failed Apply may have staged part of its writes, and the caller then discards the batch.
func (s *SharedMemory) Apply(batch *storage.Batch, requests map[ids.ID]*Requests) error {
	w := s.view.Wrap(batch)
	seen := make(map[[2]ids.ID]struct{})
	once := func(set, key ids.ID) error {
		k := [2]ids.ID{set, key}
		if _, dup := seen[k]; dup {
			return duplicateError(key)
		}
		seen[k] = struct{}{}
		return nil
	}
	for peer, req := range requests {
		if peer == s.chainID {
			return ErrSelf
		}
		for _, key := range req.Remove {
			if err := once(peer, key); err != nil {
				return err
			}
			e, err := s.get(s.chainID, peer, key)
			if err != nil {
				return err
			}
			if err := remove(w, s.chainID, peer, e); err != nil {
				return fmt.Errorf("stage import of %s from %s: %w", key, peer, err)
			}
		}
		for _, e := range req.Put {
			if err := once(peer, e.Key); err != nil {
				return err
			}
			has, err := s.view.Has(valueKey(peer, s.chainID, e.Key))
			if err != nil {
				return fmt.Errorf("read shared memory of %s: %w", peer, err)
			}
			if has {
				return duplicateError(e.Key)
			}
			if err := put(w, peer, s.chainID, e); err != nil {
				return fmt.Errorf("stage export of %s to %s: %w", e.Key, peer, err)
			}
		}
	}
	return nil
}

// get reads the element key of the set src exported to dst.
func (s *SharedMemory) get(dst, src, key ids.ID) (Element, error) {
	b, err := s.view.Get(valueKey(dst, src, key))
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return Element{}, notFoundError(src, key)
	case err != nil:
		return Element{}, fmt.Errorf("read shared memory from %s: %w", src, err)
	}
	e, err := decodeElement(key, b)
	if err != nil {
		return Element{}, fmt.Errorf("element %s from %s: %w", key, src, err)
	}
	return e, nil
}

// put stages e into the set src exports to dst.
func put(w *storage.Batch, dst, src ids.ID, e Element) error {
	if err := w.Put(valueKey(dst, src, e.Key), encodeElement(e)); err != nil {
		return err
	}
	for _, t := range e.Traits {
		if err := w.Put(traitKey(dst, src, t, e.Key), nil); err != nil {
			return err
		}
	}
	return nil
}

// remove stages the removal of e, with its trait entries, from the set src exported to dst.
func remove(w *storage.Batch, dst, src ids.ID, e Element) error {
	if err := w.Delete(valueKey(dst, src, e.Key)); err != nil {
		return err
	}
	for _, t := range e.Traits {
		if err := w.Delete(traitKey(dst, src, t, e.Key)); err != nil {
			return err
		}
	}
	return nil
}

// setKey returns kind | dst | src, with room for what follows.
func setKey(kind byte, dst, src ids.ID, more int) []byte {
	k := make([]byte, 0, 1+2*ids.IDLen+more)
	k = append(k, kind)
	k = append(k, dst[:]...)
	return append(k, src[:]...)
}

func valueKey(dst, src, key ids.ID) []byte {
	return append(setKey(keyValue, dst, src, ids.IDLen), key[:]...)
}

func traitPrefix(dst, src ids.ID, trait ids.ShortID) []byte {
	return append(setKey(keyTrait, dst, src, ids.ShortIDLen+ids.IDLen), trait[:]...)
}

func traitKey(dst, src ids.ID, trait ids.ShortID, key ids.ID) []byte {
	return append(traitPrefix(dst, src, trait), key[:]...)
}

// encodeElement returns e's record: its traits, then its value.
func encodeElement(e Element) []byte {
	b := make([]byte, 0, 4+len(e.Traits)*ids.ShortIDLen+len(e.Value))
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.Traits)))
	for _, t := range e.Traits {
		b = append(b, t[:]...)
	}
	return append(b, e.Value...)
}

// decodeElement parses the record of the element key; the element does not keep b.
func decodeElement(key ids.ID, b []byte) (Element, error) {
	if len(b) < 4 {
		return Element{}, errBadRecord
	}
	n := binary.BigEndian.Uint32(b)
	b = b[4:]
	if uint64(len(b)) < uint64(n)*ids.ShortIDLen {
		return Element{}, fmt.Errorf("%w: %d traits in %d bytes", errBadRecord, n, len(b))
	}
	e := Element{Key: key, Traits: make([]ids.ShortID, n)}
	for i := range e.Traits {
		copy(e.Traits[i][:], b)
		b = b[ids.ShortIDLen:]
	}
	e.Value = append([]byte{}, b...)
	return e, nil
}
