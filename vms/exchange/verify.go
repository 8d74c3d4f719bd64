package exchange

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
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
	feeAssetID       ids.ID
	txFee            uint64
	createAssetTxFee uint64
}

// syntacticCheck checks a kind's own fields, which need no state (§6.2), and gives the fee it
// burns in the fee asset (§6.3).
type syntacticCheck struct {
	r   *rules
	fee uint64
}

var _ txs.Visitor = (*syntacticCheck)(nil)

// syntactic checks what needs no state: the tx is for this chain, well formed, sorted, has one
// credential per input, and its inputs cover its outputs plus the fee in every asset (§3.3, §6.2).
func (r *rules) syntactic(tx *txs.Tx) error {
	kind := &syntacticCheck{r: r}
	if err := tx.Unsigned().Visit(kind); err != nil {
		return err
	}
	base := tx.Unsigned().Base()
	switch {
	case base.NetworkID != r.networkID:
		return ErrWrongNetworkID
	case base.BlockchainID != r.chainID:
		return ErrWrongChainID
	case len(base.Memo) > MaxMemoSize:
		return fmt.Errorf("%w: %d bytes, limit %d", ErrMemoTooLarge, len(base.Memo), MaxMemoSize)
	}
	var prev []byte
	for i := range base.Outs {
		out := &base.Outs[i]
		if err := out.Out.Verify(); err != nil {
			return fmt.Errorf("output %d: %w", i, err)
		}
		key := outputSortKey(out)
		if prev != nil && bytes.Compare(prev, key) > 0 {
			return ErrOutputsNotSorted
		}
		prev = key
	}
	for i := range base.Ins {
		in := &base.Ins[i]
		if err := in.In.Verify(); err != nil {
			return fmt.Errorf("input %d: %w", i, err)
		}
		if i > 0 && utxo.Compare(&base.Ins[i-1].UTXOID, &in.UTXOID) >= 0 {
			return ErrInputsNotSortedUnique
		}
	}
	if len(tx.Creds()) != len(base.Ins) {
		return ErrWrongNumberOfCredentials
	}
	return r.checkFlow(base, kind.fee)
}

// checkFlow checks that, for every asset, the inputs consume at least what the outputs produce,
// plus fee of the fee asset (§3.3). Any excess is burned.
func (r *rules) checkFlow(base *txs.BaseTx, fee uint64) error {
	consumed := make(map[ids.ID]uint64, 1)
	produced := make(map[ids.ID]uint64, 1)
	add := func(m map[ids.ID]uint64, asset ids.ID, v uint64) error {
		sum := m[asset] + v
		if sum < v {
			return ErrOverflow
		}
		m[asset] = sum
		return nil
	}
	for i := range base.Ins {
		if err := add(consumed, base.Ins[i].AssetID, base.Ins[i].In.Amount); err != nil {
			return err
		}
	}
	for i := range base.Outs {
		if err := add(produced, base.Outs[i].AssetID, base.Outs[i].Out.Amount); err != nil {
			return err
		}
	}
	if fee > 0 {
		if err := add(produced, r.feeAssetID, fee); err != nil {
			return err
		}
	}
	for asset, out := range produced {
		if in := consumed[asset]; in < out {
			return insufficientFundsError(asset, in, out)
		}
	}
	return nil
}

// outputSortKey returns the asset ID followed by the output's encoding (§3.3).
func outputSortKey(out *txs.TransferableOutput) []byte {
	p := codec.NewPacker(make([]byte, 0, 96))
	out.Marshal(p)
	b, _ := p.Bytes()
	return b
}

// utxoSource finds the UTXOs a tx spends: unknown or spent ones give an error wrapping
// ErrUTXONotFound or ErrDoubleSpend.
type utxoSource interface {
	utxo(ref *utxo.UTXOID) (*txs.UTXO, error)
}

// effects are what an accepted tx changes: the UTXOs it consumes and those it produces.
type effects = utxo.Effects[txs.UTXO, *txs.UTXO]

// semantic checks tx against the UTXOs of src at chain time now (unix seconds): every input's
// UTXO exists, has the input's asset and amount, is unlocked, and the input's credential holds
// the owners' signatures (§3.3). It assumes tx passed syntactic. It returns the tx's effects.
//
// Signers are recovered through tx.SignerAddress, which remembers them on tx: the builder
// verifying a pending tx again does not recover its signatures a second time.
func (r *rules) semantic(tx *txs.Tx, src utxoSource, now uint64) (*effects, error) {
	base := tx.Unsigned().Base()
	eff := &effects{Tx: tx.ID(), Consumed: make([]*txs.UTXO, 0, len(base.Ins))}
	for i := range base.Ins {
		in := &base.Ins[i]
		ux, err := src.utxo(&in.UTXOID)
		if err != nil {
			return nil, transferError(err)
		}
		if err := utxo.VerifySpend(in.AssetID, in.In, ux.AssetID, ux.Out, tx, i, now); err != nil {
			return nil, transferError(fmt.Errorf("input %d: %w", i, err))
		}
		eff.Consumed = append(eff.Consumed, ux)
	}
	eff.Produced = tx.UTXOs()
	return eff, nil
}
