// Package chainstate is the part of the key layout and the reads and writes that the X- and
// P-Chain states share (reference/platform-exchange.md §5.1, §6.5): UTXOs by ID, the address
// index of the UTXOs each address owns, accepted txs, accepted blocks and the height index. Each
// VM's state.go documents its whole layout and adds its own kinds; the bytes here are both
// chains' on-disk format and must not change.
//
// Every key starts with a kind byte; IDs are fixed-width, so no key is a prefix of another
// kind's. The functions hold no memory and are safe for concurrent use as far as the
// *storage.View or *storage.Batch they are given is. Returned keys are new slices the caller
// owns.
package chainstate

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// The shared key kinds.
const (
	// KeyUTXO | utxoID → the UTXO's bytes.
	KeyUTXO byte = 'u'
	// KeyAddr | address[20] | utxoID → empty: the UTXOs an address owns (among others), in UTXO
	// ID order.
	KeyAddr byte = 'a'
	// KeyTx | txID → the accepted tx's signed bytes.
	KeyTx byte = 't'
	// KeyBlock | blockID → the accepted block's bytes.
	KeyBlock byte = 'b'
	// KeyHeight | height (8 bytes, big-endian) → the ID of the accepted block at that height.
	KeyHeight byte = 'h'
	// KeyLast → the last accepted block's ID and height (8 bytes, big-endian), then a part of
	// each VM's own.
	KeyLast byte = 'l'
)

// All is the limit that reads every ID of IDsUnder.
const All = int(^uint(0) >> 1)

// IDKey returns kind | id.
func IDKey(kind byte, id ids.ID) []byte {
	k := make([]byte, 1+ids.IDLen)
	k[0] = kind
	copy(k[1:], id[:])
	return k
}

// PairKey returns kind | a | b: an entry of an index of b under a, such as the blockchains of a
// subnet.
func PairKey(kind byte, a, b ids.ID) []byte {
	k := make([]byte, 0, 1+2*ids.IDLen)
	k = append(k, kind)
	k = append(k, a[:]...)
	return append(k, b[:]...)
}

// HeightKey returns KeyHeight | h.
func HeightKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{KeyHeight}, h)
}

// AddrKey returns KeyAddr | addr | utxoID.
func AddrKey(addr ids.ShortID, utxoID ids.ID) []byte {
	k := make([]byte, 0, 1+ids.ShortIDLen+ids.IDLen)
	k = append(k, KeyAddr)
	k = append(k, addr[:]...)
	return append(k, utxoID[:]...)
}

// Get reads key; found is false when it is absent.
func Get(db *storage.View, key []byte) (v []byte, found bool, err error) {
	v, err = db.Get(key)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return v, true, nil
}

// IDsUnder returns the IDs that follow prefix in its keys, in order, up to limit (All for
// every one), starting after start (from the first when start is empty).
func IDsUnder(db *storage.View, prefix []byte, start ids.ID, limit int) ([]ids.ID, error) {
	it, err := db.NewIterator(prefix, start[:])
	if err != nil {
		return nil, err
	}
	var out []ids.ID
	for len(out) < limit && it.Next() {
		id, err := ids.ToID(it.Key()[len(prefix):])
		if err != nil {
			return nil, errors.Join(fmt.Errorf("stored key under %x: %w", prefix, err), it.Close())
		}
		if id == start {
			continue
		}
		out = append(out, id)
	}
	return out, errors.Join(it.Err(), it.Close())
}

// UTXOIDs returns up to limit IDs of the UTXOs addr owns, in ID order, starting after start
// (from the first when start is empty), as the reference pages them (§5.1).
func UTXOIDs(db *storage.View, addr ids.ShortID, start ids.ID, limit int) ([]ids.ID, error) {
	return IDsUnder(db, append([]byte{KeyAddr}, addr[:]...), start, limit)
}

// BlockIDAt returns the ID of the accepted block at height.
func BlockIDAt(db *storage.View, height uint64) (ids.ID, bool, error) {
	b, found, err := Get(db, HeightKey(height))
	if err != nil || !found {
		return ids.ID{}, false, err
	}
	id, err := ids.ToID(b)
	if err != nil {
		return ids.ID{}, false, fmt.Errorf("stored block ID at height %d: %w", height, err)
	}
	return id, true, nil
}

// PutUTXO stages the UTXO id with its bytes and an address index entry for each of owners.
func PutUTXO(b *storage.Batch, id ids.ID, bytes []byte, owners []ids.ShortID) error {
	if err := b.Put(IDKey(KeyUTXO, id), bytes); err != nil {
		return err
	}
	for _, addr := range owners {
		if err := b.Put(AddrKey(addr, id), nil); err != nil {
			return err
		}
	}
	return nil
}

// DeleteUTXO stages the removal of the UTXO id and of its owners' address index entries.
func DeleteUTXO(b *storage.Batch, id ids.ID, owners []ids.ShortID) error {
	if err := b.Delete(IDKey(KeyUTXO, id)); err != nil {
		return err
	}
	for _, addr := range owners {
		if err := b.Delete(AddrKey(addr, id)); err != nil {
			return err
		}
	}
	return nil
}

// StageUTXOs stages into batch what an accepted block's txs leave: the UTXOs they spent
// (deleted, through del) and created (written, through put), and their requests to shared memory
// (none if nil), which commit with the rest of the block (docs/decisions.md). del and put are the
// chain's own DeleteUTXO and PutUTXO calls, which know its UTXOs' owners.
func StageUTXOs[U any](batch *storage.Batch, shared *atomic.SharedMemory, deleted, written []U, del, put func(U) error, requests map[ids.ID]*atomic.Requests) error {
	for _, ux := range deleted {
		if err := del(ux); err != nil {
			return err
		}
	}
	for _, ux := range written {
		if err := put(ux); err != nil {
			return err
		}
	}
	if requests == nil {
		return nil
	}
	if err := shared.Apply(batch, requests); err != nil {
		return fmt.Errorf("stage shared memory: %w", err)
	}
	return nil
}

// PutBlock stages the accepted block id with its bytes, its entry in the height index, and
// KeyLast: id, height (8 bytes, big-endian), then last, the chain's own part of the record
// (Format.LastExtra bytes).
func PutBlock(b *storage.Batch, id ids.ID, height uint64, bytes, last []byte) error {
	if err := b.Put(IDKey(KeyBlock, id), bytes); err != nil {
		return err
	}
	if err := b.Put(HeightKey(height), id[:]); err != nil {
		return err
	}
	v := make([]byte, 0, ids.IDLen+8+len(last))
	v = append(v, id[:]...)
	v = binary.BigEndian.AppendUint64(v, height)
	return b.Put([]byte{KeyLast}, append(v, last...))
}

// Commit stages into a new batch of db's what stage puts there, and commits it: a VM's genesis,
// written in one batch of its own.
func Commit(db *storage.View, stage func(*storage.Batch) error) error {
	b := db.NewBatch()
	defer b.Close()
	if err := stage(b); err != nil {
		return err
	}
	return b.Commit()
}

// Genesis checks that c holds what the X- and P-Chain VMs need of their chain's context (DB,
// Log, Clock, SharedMemory and Chains) and parses c's genesis with parse.
func Genesis[G any](c chains.Context, parse func([]byte) (G, error)) (G, error) {
	if c.DB == nil || c.Log == nil || c.Clock == nil || c.SharedMemory == nil || c.Chains == nil {
		var zero G
		return zero, errors.New("chains.Context needs DB, Log, Clock, SharedMemory and Chains")
	}
	g, err := parse(c.Genesis)
	if err != nil {
		return g, fmt.Errorf("parse genesis: %w", err)
	}
	return g, nil
}

// Read reads the value stored under kind | id and decodes it with parse; found is false when it
// is absent. what names the value in a decoding error ("stored what id: …").
func Read[T any](db *storage.View, kind byte, id ids.ID, what string, parse func([]byte) (T, error)) (v T, found bool, err error) {
	b, found, err := Get(db, IDKey(kind, id))
	if err != nil || !found {
		return v, false, err
	}
	v, err = parse(b)
	if err != nil {
		var zero T
		return zero, false, fmt.Errorf("stored %s %s: %w", what, id, err)
	}
	return v, true, nil
}

// AcceptedBlockIDAt returns the ID of the accepted block at height, or chains.ErrBlockNotFound
// when there is none: chains.VM.GetBlockIDAtHeight.
func AcceptedBlockIDAt(db *storage.View, height uint64) (ids.ID, error) {
	id, found, err := BlockIDAt(db, height)
	return Found(id, found, err)
}

// Found returns v, or chains.ErrBlockNotFound when it was not found: a block read for
// chains.VM.
func Found[T any](v T, found bool, err error) (T, error) {
	var zero T
	switch {
	case err != nil:
		return zero, err
	case !found:
		return zero, chains.ErrBlockNotFound
	}
	return v, nil
}
