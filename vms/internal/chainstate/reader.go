package chainstate

import (
	"encoding/binary"
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Format is how one chain stores what the shared kinds hold: parsers of its UTXOs (U), signed txs
// (T) and blocks (B), and the length of its own part of the KeyLast record.
type Format[U, T, B any] struct {
	UTXO  func([]byte) (U, error)
	Tx    func([]byte) (T, error)
	Block func([]byte) (B, error)
	// LastExtra is how many bytes of the chain's own follow the ID and height in KeyLast.
	LastExtra int
}

// Reader reads the shared kinds of one chain's accepted state, and the UTXOs other chains
// exported to it, in the chain's Format. Each VM's state embeds one. It holds no
// memory and is safe for concurrent use as far as its view is. Its Tx, Block, BlockIDAt and
// LastHeight are what chainapi.Chain asks of a chain by the same names.
type Reader[U, T, B any] struct {
	db     *storage.View
	shared *atomic.SharedMemory
	f      Format[U, T, B]
}

// NewReader returns the Reader of the key space db, with the chain's shared memory (nil if it
// reads none).
func NewReader[U, T, B any](db *storage.View, shared *atomic.SharedMemory, f Format[U, T, B]) Reader[U, T, B] {
	return Reader[U, T, B]{db: db, shared: shared, f: f}
}

// DB returns the key space r reads: a VM's own kinds live there too.
func (r Reader[U, T, B]) DB() *storage.View { return r.db }

// Pinned returns a Reader whose reads all see the state published now (storage.View.Pin), for
// an answer made of several reads that one commit changes together. The caller must call
// release when done.
func (r Reader[U, T, B]) Pinned() (pinned Reader[U, T, B], release func()) {
	r.db, release = r.db.Pin()
	return r, release
}

// Shared returns the chain's shared memory, nil if it reads none. Its reads are never live:
// other chains write there.
func (r Reader[U, T, B]) Shared() *atomic.SharedMemory { return r.shared }

// UTXO returns the unspent UTXO id.
func (r Reader[U, T, B]) UTXO(id ids.ID) (U, bool, error) {
	return Read(r.db, KeyUTXO, id, "utxo", r.f.UTXO)
}

// UTXOBytes returns the unspent UTXO id's bytes as stored: its Bytes.
func (r Reader[U, T, B]) UTXOBytes(id ids.ID) ([]byte, bool, error) {
	return Get(r.db, IDKey(KeyUTXO, id))
}

// Tx returns the accepted tx id.
func (r Reader[U, T, B]) Tx(id ids.ID) (T, bool, error) {
	return Read(r.db, KeyTx, id, "tx", r.f.Tx)
}

// HasTx reports whether tx id is accepted.
func (r Reader[U, T, B]) HasTx(id ids.ID) (bool, error) {
	return r.db.Has(IDKey(KeyTx, id))
}

// Block returns the accepted block id.
func (r Reader[U, T, B]) Block(id ids.ID) (B, bool, error) {
	return Read(r.db, KeyBlock, id, "block", r.f.Block)
}

// BlockIDAt returns the ID of the accepted block at height.
func (r Reader[U, T, B]) BlockIDAt(height uint64) (ids.ID, bool, error) {
	return BlockIDAt(r.db, height)
}

// UTXOIDs returns up to limit IDs of the UTXOs addr owns, in ID order, starting after start
// (from the first when start is empty), as the reference pages them (§5.1).
func (r Reader[U, T, B]) UTXOIDs(addr ids.ShortID, start ids.ID, limit int) ([]ids.ID, error) {
	return UTXOIDs(r.db, addr, start, limit)
}

// AtomicUTXO returns the UTXO id that peer exported to this chain and no accepted block
// imported. Every chain's UTXO bytes share the same output type IDs (§1.3).
func (r Reader[U, T, B]) AtomicUTXO(peer, id ids.ID) (U, error) {
	values, err := r.shared.Get(peer, []ids.ID{id})
	if err != nil {
		var zero U
		return zero, err
	}
	ux, err := r.f.UTXO(values[0])
	if err != nil {
		return ux, fmt.Errorf("atomic utxo %s from %s: %w", id, peer, err)
	}
	return ux, nil
}

// LastHeight returns the last accepted block's height, as committed: a block whose txs read as
// accepted counts, even before the VM's Accepted has run. It is 0 before the genesis is written.
func (r Reader[U, T, B]) LastHeight() (uint64, error) {
	_, height, _, _, err := r.Last()
	return height, err
}

// Last reads KeyLast: the last accepted block's ID and height (8 bytes, big-endian), then rest,
// the Format's LastExtra bytes of the chain's own; found is false before the genesis is written.
func (r Reader[U, T, B]) Last() (id ids.ID, height uint64, rest []byte, found bool, err error) {
	b, found, err := Get(r.db, []byte{KeyLast})
	if err != nil || !found {
		return ids.ID{}, 0, nil, false, err
	}
	if len(b) != ids.IDLen+8+r.f.LastExtra {
		return ids.ID{}, 0, nil, false, fmt.Errorf("stored last accepted block: %d bytes", len(b))
	}
	return ids.ID(b[:ids.IDLen]), binary.BigEndian.Uint64(b[ids.IDLen:]), b[ids.IDLen+8:], true, nil
}

// Resume reads the last accepted block and the rest of its KeyLast record (the chain's own part),
// after checking that the accepted block at height 0 is genesisID: a VM resumes where it
// stopped. found is false on an empty key space, where the VM writes its genesis.
func (r Reader[U, T, B]) Resume(genesisID ids.ID) (last B, rest []byte, found bool, err error) {
	id, _, rest, found, err := r.Last()
	if err != nil || !found {
		if err != nil {
			err = fmt.Errorf("read last accepted block: %w", err)
		}
		return last, nil, false, err
	}
	stored, found, err := r.BlockIDAt(0)
	switch {
	case err != nil:
		return last, nil, false, fmt.Errorf("read genesis block: %w", err)
	case !found || stored != genesisID:
		return last, nil, false, fmt.Errorf("stored genesis block %s is not this chain's %s", stored, genesisID)
	}
	last, found, err = r.Block(id)
	switch {
	case err != nil:
		return last, nil, false, fmt.Errorf("read last accepted block %s: %w", id, err)
	case !found:
		return last, nil, false, fmt.Errorf("last accepted block %s is missing", id)
	}
	return last, rest, true, nil
}
