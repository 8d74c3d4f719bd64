package exchange

import (
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/mempool"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Limits of the X-Chain's txs (reference/platform-exchange.md §6.2).
const (
	// MaxMemoSize is the longest memo, in bytes.
	MaxMemoSize = 256
	// maxNameLen, maxSymbolLen and maxDenomination bound a CreateAssetTx's fields.
	maxNameLen      = 128
	maxSymbolLen    = 4
	maxDenomination = 32
)

// rules are what a tx is checked against: the chain it belongs to and the fees it pays.
type rules struct {
	networkID        uint32
	chainID          ids.ID
	subnetID         ids.ID
	feeAssetID       ids.ID
	txFee            uint64
	createAssetTxFee uint64
	// chains finds the peer chains of atomic txs.
	chains chains.ChainLookup
}

// syntacticCheck checks a kind's own fields, which need no state (§6.2), and gives the fee it
// burns in the fee asset (§6.3) and, for an atomic tx, what it moves through shared memory.
type syntacticCheck struct {
	r   *rules
	fee uint64
	// peer is the other chain of an ImportTx (its source) or an ExportTx (its destination).
	peer ids.ID
	// imported are an ImportTx's inputs, spending UTXOs the peer exported; exported are an
	// ExportTx's outputs, which become UTXOs of the peer.
	imported []txs.TransferableInput
	exported []txs.TransferableOutput
}

var _ txs.Visitor = (*syntacticCheck)(nil)

// syntactic checks what needs no state: the tx is for this chain, well formed, sorted, has one
// credential per input (an ImportTx's imported ones after its own), and its inputs cover its
// outputs plus the fee in every asset (§3.3, §6.2). It returns what the kind's check found.
func (r *rules) syntactic(tx *txs.Tx) (*syntacticCheck, error) {
	kind := &syntacticCheck{r: r}
	if err := tx.Unsigned().Visit(kind); err != nil {
		return nil, err
	}
	base := tx.Unsigned().Base()
	switch {
	case base.NetworkID != r.networkID:
		return nil, utxo.ErrWrongNetworkID
	case base.BlockchainID != r.chainID:
		return nil, utxo.ErrWrongChainID
	case len(base.Memo) > MaxMemoSize:
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrMemoTooLarge, len(base.Memo), MaxMemoSize)
	}
	// Each list is sorted on its own, as the reference checks them (§3.3).
	for _, outs := range [][]txs.TransferableOutput{base.Outs, kind.exported} {
		if err := utxo.VerifyOutputs(outs, (*secp256k1fx.TransferOutput).Verify); err != nil {
			return nil, err
		}
	}
	for _, ins := range [][]txs.TransferableInput{base.Ins, kind.imported} {
		if err := utxo.VerifyInputs(ins, (*secp256k1fx.TransferInput).Verify); err != nil {
			return nil, err
		}
	}
	if len(tx.Creds()) != len(base.Ins)+len(kind.imported) {
		return nil, utxo.ErrWrongNumberOfCredentials
	}
	return kind, r.checkFlow(base, kind)
}

// checkFlow checks that, for every asset, the inputs (imported ones included) consume at least
// what the outputs (exported ones included) produce, plus the kind's fee of the fee asset (§3.3).
// Any excess is burned.
func (r *rules) checkFlow(base *txs.BaseTx, kind *syntacticCheck) error {
	consumed := make(map[ids.ID]uint64, 1)
	produced := make(map[ids.ID]uint64, 1)
	add := func(m map[ids.ID]uint64, asset ids.ID, v uint64) error {
		sum := m[asset] + v
		if sum < v {
			return utxo.ErrOverflow
		}
		m[asset] = sum
		return nil
	}
	for _, ins := range [][]txs.TransferableInput{base.Ins, kind.imported} {
		for i := range ins {
			if err := add(consumed, ins[i].AssetID, ins[i].In.Amount); err != nil {
				return err
			}
		}
	}
	for _, outs := range [][]txs.TransferableOutput{base.Outs, kind.exported} {
		for i := range outs {
			if err := add(produced, outs[i].AssetID, outs[i].Out.Amount); err != nil {
				return err
			}
		}
	}
	if kind.fee > 0 {
		if err := add(produced, r.feeAssetID, kind.fee); err != nil {
			return err
		}
	}
	for asset, out := range produced {
		if in := consumed[asset]; in < out {
			return utxo.InsufficientFundsError(asset, in, out)
		}
	}
	return nil
}

// utxoSource finds the UTXOs a tx spends: unknown or spent ones give an error wrapping
// utxo.ErrUTXONotFound (atomic.ErrNotFound for an atomic UTXO) or utxo.ErrDoubleSpend.
type utxoSource interface {
	utxo(ref *utxo.UTXOID) (*txs.UTXO, error)
	// atomicUTXO finds a UTXO that chain peer exported to this chain.
	atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error)
}

// effects are what an accepted tx changes: the UTXOs it consumes and those it produces.
type effects = utxo.Effects[txs.UTXO, *txs.UTXO]

// semantic checks tx, whose syntactic check found kind, against the UTXOs of src at chain time
// now (unix seconds): every input's UTXO exists, has the input's asset and amount, is unlocked,
// and the input's credential holds the owners' signatures (§3.3); an atomic tx's peer is another
// chain of the subnet, and an ImportTx's imported UTXOs are in shared memory. It returns the tx's
// effects.
//
// Signers are recovered through tx.Signer, which remembers them on tx: the builder
// verifying a pending tx again does not recover its signatures a second time.
func (r *rules) semantic(tx *txs.Tx, kind *syntacticCheck, src utxoSource, now uint64) (*effects, error) {
	if len(kind.imported)+len(kind.exported) > 0 { // an atomic tx: the syntactic check refuses empty lists
		if err := atomic.VerifyPeer(r.chainID, r.subnetID, kind.peer, r.subnetOf); err != nil {
			return nil, err
		}
	}
	base := tx.Unsigned().Base()
	eff := &effects{Tx: tx.ID(), Consumed: make([]*txs.UTXO, 0, len(base.Ins))}
	for i := range base.Ins {
		in := &base.Ins[i]
		ux, err := src.utxo(&in.UTXOID)
		if err != nil {
			return nil, transferError(err)
		}
		if err := utxo.VerifySpend(nil, in.AssetID, in.In, ux.AssetID, ux.Out, tx, i, now); err != nil {
			return nil, transferError(fmt.Errorf("input %d: %w", i, err))
		}
		eff.Consumed = append(eff.Consumed, ux)
	}
	for i := range kind.imported {
		in := &kind.imported[i]
		ux, err := src.atomicUTXO(kind.peer, &in.UTXOID)
		if err != nil {
			return nil, mempool.ImportError(tx.ID(), err, utxo.ErrUTXONotFound)
		}
		if err := utxo.VerifySpend(nil, in.AssetID, in.In, ux.AssetID, ux.Out, tx, len(base.Ins)+i, now); err != nil {
			return nil, transferError(fmt.Errorf("imported input %d: %w", i, err))
		}
		eff.Imported = append(eff.Imported, ux)
	}
	eff.Produced = tx.UTXOs()
	return eff, nil
}

// subnetOf returns the subnet of a chain the node knows (atomic.VerifyPeer).
func (r *rules) subnetOf(id ids.ID) (ids.ID, bool) {
	c, ok := r.chains.Chain(id)
	return c.SubnetID, ok
}
