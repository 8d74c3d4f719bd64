package exchange

import (
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

// state reads the X-Chain's accepted state from the VM's key space: the shared kinds through
// its chainstate.Reader (UTXO, Tx, HasTx, Block, BlockIDAt, UTXOIDs, AtomicUTXO, LastHeight). It
// is safe for concurrent use: it holds no memory of its own, and every write goes through a
// block's batch (writeBlock) or the genesis batch.
type state struct {
	chainstate.Reader[*txs.UTXO, *txs.Tx, *txs.StandardBlock]
}

// newState returns the state of the key space db with the chain's shared memory.
func newState(db *storage.View, shared *atomic.SharedMemory) *state {
	f := chainstate.Format[*txs.UTXO, *txs.Tx, *txs.StandardBlock]{UTXO: txs.ParseUTXO, Tx: txs.ParseTx, Block: txs.ParseBlock}
	return &state{Reader: chainstate.NewReader(db, shared, f)}
}

// utxo implements utxoSource over the accepted UTXOs.
func (s *state) utxo(ref *utxo.UTXOID) (*txs.UTXO, error) {
	id := ref.InputID()
	ux, found, err := s.UTXO(id)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, utxoNotFoundError(id)
	}
	return ux, nil
}

// atomicUTXO implements utxoSource over shared memory: the UTXO ref that peer exported to the
// X-Chain and no accepted block imported.
func (s *state) atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error) {
	return s.AtomicUTXO(peer, ref.InputID())
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
	return chainstate.PutBlock(w.b, blk.ID(), blk.Height(), blk.Bytes(), nil)
}
