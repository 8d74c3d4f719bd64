package exchange

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Key layout of the VM's key space (its chains.Context.DB). Every key starts with one of these
// bytes; IDs are fixed-width, so no key is a prefix of another kind's.
const (
	// keyUTXO | utxoID → the UTXO's bytes (UTXO.Bytes).
	keyUTXO byte = 'u'
	// keyAddr | address[20] | utxoID → empty: the UTXOs an address owns (among others), in
	// UTXO ID order, for getUTXOs and the balances.
	keyAddr byte = 'a'
	// keyTx | txID → the accepted tx's signed bytes; an accepted tx's status is Accepted.
	keyTx byte = 't'
	// keyBlock | blockID → the accepted block's bytes.
	keyBlock byte = 'b'
	// keyHeight | height (8 bytes, big-endian) → the ID of the accepted block at that height.
	keyHeight byte = 'h'
	// keyLast → the ID of the last accepted block and its height (8 bytes, big-endian).
	// Written with every block, in the block's batch; absent until the genesis is written.
	keyLast byte = 'l'
)

// state reads the X-Chain's accepted state from the VM's key space. It is safe for concurrent
// use: it holds no memory of its own, and every write goes through a block's batch (writeBlock)
// or the genesis batch.
type state struct {
	db *storage.View
}

func idKey(kind byte, id ids.ID) []byte {
	k := make([]byte, 1+ids.IDLen)
	k[0] = kind
	copy(k[1:], id[:])
	return k
}

func heightKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{keyHeight}, h)
}

func addrKey(addr ids.ShortID, utxoID ids.ID) []byte {
	k := make([]byte, 0, 1+len(addr)+ids.IDLen)
	k = append(k, keyAddr)
	k = append(k, addr[:]...)
	return append(k, utxoID[:]...)
}

// get reads key; found is false when it is absent.
func (s *state) get(key []byte) (v []byte, found bool, err error) {
	v, err = s.db.Get(key)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return v, true, nil
}

// utxo implements utxoSource over the accepted UTXOs.
func (s *state) utxo(id ids.ID) (*UTXO, error) {
	ux, found, err := s.getUTXO(id)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, utxoNotFoundError(id)
	}
	return ux, nil
}

// getUTXO returns the unspent UTXO id.
func (s *state) getUTXO(id ids.ID) (*UTXO, bool, error) {
	b, found, err := s.get(idKey(keyUTXO, id))
	if err != nil || !found {
		return nil, false, err
	}
	ux, err := ParseUTXO(b)
	if err != nil {
		return nil, false, fmt.Errorf("stored utxo %s: %w", id, err)
	}
	return ux, true, nil
}

// getTx returns the accepted tx id.
func (s *state) getTx(id ids.ID) (*Tx, bool, error) {
	b, found, err := s.get(idKey(keyTx, id))
	if err != nil || !found {
		return nil, false, err
	}
	tx, err := ParseTx(b)
	if err != nil {
		return nil, false, fmt.Errorf("stored tx %s: %w", id, err)
	}
	return tx, true, nil
}

// hasTx reports whether tx id is accepted.
func (s *state) hasTx(id ids.ID) (bool, error) {
	return s.db.Has(idKey(keyTx, id))
}

// getBlock returns the accepted block id.
func (s *state) getBlock(id ids.ID) (*StandardBlock, bool, error) {
	b, found, err := s.get(idKey(keyBlock, id))
	if err != nil || !found {
		return nil, false, err
	}
	blk, err := ParseBlock(b)
	if err != nil {
		return nil, false, fmt.Errorf("stored block %s: %w", id, err)
	}
	return blk, true, nil
}

// blockIDAt returns the ID of the accepted block at height.
func (s *state) blockIDAt(height uint64) (ids.ID, bool, error) {
	b, found, err := s.get(heightKey(height))
	if err != nil || !found {
		return ids.ID{}, false, err
	}
	id, err := ids.ToID(b)
	if err != nil {
		return ids.ID{}, false, fmt.Errorf("stored block ID at height %d: %w", height, err)
	}
	return id, true, nil
}

// lastAccepted returns the last accepted block's ID and height; found is false before the
// genesis is written.
func (s *state) lastAccepted() (id ids.ID, height uint64, found bool, err error) {
	b, found, err := s.get([]byte{keyLast})
	if err != nil || !found {
		return ids.ID{}, 0, false, err
	}
	if len(b) != ids.IDLen+8 {
		return ids.ID{}, 0, false, fmt.Errorf("stored last accepted block: %d bytes", len(b))
	}
	return ids.ID(b[:ids.IDLen]), binary.BigEndian.Uint64(b[ids.IDLen:]), true, nil
}

// utxoIDs returns up to limit IDs of the UTXOs addr owns, in ID order, starting after start
// (from the first when start is empty), as the reference pages them (§5.1).
func (s *state) utxoIDs(addr ids.ShortID, start ids.ID, limit int) ([]ids.ID, error) {
	prefix := append([]byte{keyAddr}, addr[:]...)
	it, err := s.db.NewIterator(prefix, start[:])
	if err != nil {
		return nil, err
	}
	var out []ids.ID
	for len(out) < limit && it.Next() {
		id, err := ids.ToID(it.Key()[len(prefix):])
		if err != nil {
			return nil, errors.Join(fmt.Errorf("stored address entry: %w", err), it.Close())
		}
		if id == start {
			continue
		}
		out = append(out, id)
	}
	return out, errors.Join(it.Err(), it.Close())
}

// owners returns the addresses that own ux's output.
func owners(ux *UTXO) []ids.ShortID {
	switch out := ux.Out.(type) {
	case *secp256k1fx.TransferOutput:
		return out.Addrs
	case *secp256k1fx.MintOutput:
		return out.Addrs
	}
	return nil
}

// writer stages changes into a batch.
type writer struct {
	b *storage.Batch
}

func (w writer) putTx(tx *Tx) error {
	return w.b.Put(idKey(keyTx, tx.ID()), tx.Bytes())
}

func (w writer) putUTXO(ux *UTXO) error {
	b, err := ux.Bytes()
	if err != nil {
		return err
	}
	id := ux.InputID()
	if err := w.b.Put(idKey(keyUTXO, id), b); err != nil {
		return err
	}
	for _, addr := range owners(ux) {
		if err := w.b.Put(addrKey(addr, id), nil); err != nil {
			return err
		}
	}
	return nil
}

func (w writer) deleteUTXO(ux *UTXO) error {
	id := ux.InputID()
	if err := w.b.Delete(idKey(keyUTXO, id)); err != nil {
		return err
	}
	for _, addr := range owners(ux) {
		if err := w.b.Delete(addrKey(addr, id)); err != nil {
			return err
		}
	}
	return nil
}

// putBlock records blk as accepted at its height and as the last accepted block.
func (w writer) putBlock(blk *StandardBlock) error {
	id := blk.ID()
	if err := w.b.Put(idKey(keyBlock, id), blk.Bytes()); err != nil {
		return err
	}
	if err := w.b.Put(heightKey(blk.Height()), id[:]); err != nil {
		return err
	}
	return w.b.Put([]byte{keyLast}, binary.BigEndian.AppendUint64(id[:], blk.Height()))
}
