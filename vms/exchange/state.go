package exchange

import (
	"encoding/binary"
	"fmt"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Key layout of the VM's key space (its chains.Context.DB): the kinds it shares with the P-Chain
// (chainstate), nothing of its own. Every key starts with one of these bytes; IDs are
// fixed-width, so no key is a prefix of another kind's.
//
//   - chainstate.KeyUTXO | utxoID → the UTXO's bytes (UTXO.Bytes).
//   - chainstate.KeyAddr | address[20] | utxoID → empty: the UTXOs an address owns (among
//     others), in UTXO ID order, for getUTXOs and the balances.
//   - chainstate.KeyTx | txID → the accepted tx's signed bytes; an accepted tx's status is
//     Accepted.
//   - chainstate.KeyBlock | blockID → the accepted block's bytes.
//   - chainstate.KeyHeight | height (8 bytes, big-endian) → the ID of the accepted block at that
//     height.
//   - chainstate.KeyLast → the ID of the last accepted block and its height (8 bytes,
//     big-endian). Written with every block, in the block's batch; absent until the genesis is
//     written.

// state reads the X-Chain's accepted state from the VM's key space. It is safe for concurrent
// use: it holds no memory of its own, and every write goes through a block's batch (writeBlock)
// or the genesis batch.
type state struct {
	db *storage.View
	// shared is the chain's shared memory: the UTXOs other chains exported to it.
	shared *atomic.SharedMemory
}

// utxo implements utxoSource over the accepted UTXOs.
func (s *state) utxo(ref *utxo.UTXOID) (*txs.UTXO, error) {
	id := ref.InputID()
	ux, found, err := s.getUTXO(id)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, utxoNotFoundError(id)
	}
	return ux, nil
}

// atomicUTXO implements utxoSource over shared memory: the UTXO ref that peer exported to the
// X-Chain and no accepted block imported. Every chain's UTXO bytes share the X-Chain's output
// type IDs (§1.3).
func (s *state) atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error) {
	values, err := s.shared.Get(peer, []ids.ID{ref.InputID()})
	if err != nil {
		return nil, err
	}
	ux, err := txs.ParseUTXO(values[0])
	if err != nil {
		return nil, fmt.Errorf("atomic utxo %s from %s: %w", ref.InputID(), peer, err)
	}
	return ux, nil
}

// getUTXO returns the unspent UTXO id.
func (s *state) getUTXO(id ids.ID) (*txs.UTXO, bool, error) {
	return chainstate.Read(s.db, chainstate.KeyUTXO, id, "utxo", txs.ParseUTXO)
}

// getTx returns the accepted tx id.
func (s *state) getTx(id ids.ID) (*txs.Tx, bool, error) {
	return chainstate.Read(s.db, chainstate.KeyTx, id, "tx", txs.ParseTx)
}

// hasTx reports whether tx id is accepted.
func (s *state) hasTx(id ids.ID) (bool, error) {
	return s.db.Has(chainstate.IDKey(chainstate.KeyTx, id))
}

// getBlock returns the accepted block id.
func (s *state) getBlock(id ids.ID) (*txs.StandardBlock, bool, error) {
	return chainstate.Read(s.db, chainstate.KeyBlock, id, "block", txs.ParseBlock)
}

// blockIDAt returns the ID of the accepted block at height.
func (s *state) blockIDAt(height uint64) (ids.ID, bool, error) {
	return chainstate.BlockIDAt(s.db, height)
}

// lastAccepted returns the last accepted block's ID and height; found is false before the
// genesis is written.
func (s *state) lastAccepted() (id ids.ID, height uint64, found bool, err error) {
	b, found, err := chainstate.Get(s.db, []byte{chainstate.KeyLast})
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
	return chainstate.UTXOIDs(s.db, addr, start, limit)
}

// owners returns the addresses that own ux's output.
func owners(ux *txs.UTXO) []ids.ShortID {
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

func (w writer) putTx(tx *txs.Tx) error {
	return w.b.Put(chainstate.IDKey(chainstate.KeyTx, tx.ID()), tx.Bytes())
}

func (w writer) putUTXO(ux *txs.UTXO) error {
	b, err := ux.Bytes()
	if err != nil {
		return err
	}
	return chainstate.PutUTXO(w.b, ux.InputID(), b, owners(ux))
}

func (w writer) deleteUTXO(ux *txs.UTXO) error {
	return chainstate.DeleteUTXO(w.b, ux.InputID(), owners(ux))
}

// putBlock records blk as accepted at its height and as the last accepted block.
func (w writer) putBlock(blk *txs.StandardBlock) error {
	id := blk.ID()
	if err := chainstate.PutBlock(w.b, id, blk.Height(), blk.Bytes()); err != nil {
		return err
	}
	return w.b.Put([]byte{chainstate.KeyLast}, binary.BigEndian.AppendUint64(id[:], blk.Height()))
}
