package exchange

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/exchange/txs"
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
	feeAssetID       ids.ID
	txFee            uint64
	createAssetTxFee uint64
}

// fee returns the fee tx burns, in the fee asset (§6.3).
func (r *rules) fee(unsigned txs.UnsignedTx) uint64 {
	if _, ok := unsigned.(*txs.CreateAssetTx); ok {
		return r.createAssetTxFee
	}
	return r.txFee
}

// syntactic checks what needs no state: the tx is for this chain, well formed, sorted, has one
// credential per input, and its inputs cover its outputs plus the fee in every asset (§3.3, §6.2).
func (r *rules) syntactic(tx *txs.Tx) error {
	var base *txs.BaseTx
	switch unsigned := tx.Unsigned().(type) {
	case *txs.BaseTx:
		base = unsigned
	case *txs.CreateAssetTx:
		if err := verifyCreateAsset(unsigned); err != nil {
			return err
		}
		base = &unsigned.BaseTx
	default:
		return fmt.Errorf("%w: %T", txs.ErrUnsupportedTx, unsigned)
	}
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
		if i > 0 && compareUTXOIDs(&base.Ins[i-1].UTXOID, &in.UTXOID) >= 0 {
			return ErrInputsNotSortedUnique
		}
	}
	if len(tx.Creds()) != len(base.Ins) {
		return ErrWrongNumberOfCredentials
	}
	return r.checkFlow(base, r.fee(tx.Unsigned()))
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

// verifyCreateAsset checks a CreateAssetTx's own fields (§6.2).
func verifyCreateAsset(tx *txs.CreateAssetTx) error {
	if !validName(tx.Name) {
		return fmt.Errorf("%w: %q", ErrNameInvalid, tx.Name)
	}
	if !validSymbol(tx.Symbol) {
		return fmt.Errorf("%w: %q", ErrSymbolInvalid, tx.Symbol)
	}
	if tx.Denomination > maxDenomination {
		return fmt.Errorf("%w: %d, limit %d", ErrDenominationTooLarge, tx.Denomination, maxDenomination)
	}
	if len(tx.States) == 0 {
		return ErrNoInitialStates
	}
	for i := range tx.States {
		st := &tx.States[i]
		if i > 0 && tx.States[i-1].FxIndex >= st.FxIndex {
			return ErrStatesNotSortedUnique
		}
		// Only secp256k1fx (index 0) is linked; the other fxs' outputs do not even decode.
		if st.FxIndex != 0 {
			return fmt.Errorf("%w: index %d", ErrUnknownFx, st.FxIndex)
		}
		var prev []byte
		for j, out := range st.Outs {
			var err error
			switch out := out.(type) {
			case *secp256k1fx.TransferOutput:
				err = out.Verify()
			case *secp256k1fx.MintOutput:
				err = out.OutputOwners.Verify()
			}
			if err != nil {
				return fmt.Errorf("initial state %d output %d: %w", i, j, err)
			}
			key := encodeOutput(out)
			if prev != nil && bytes.Compare(prev, key) > 0 {
				return ErrOutputsNotSorted
			}
			prev = key
		}
	}
	return nil
}

// validName reports whether s is 1–128 ASCII letters, digits and spaces, without a leading or
// trailing space.
func validName(s string) bool {
	if len(s) == 0 || len(s) > maxNameLen || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ') {
			return false
		}
	}
	return true
}

// validSymbol reports whether s is 1–4 upper-case ASCII letters.
func validSymbol(s string) bool {
	if len(s) == 0 || len(s) > maxSymbolLen {
		return false
	}
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// encodeOutput returns an output's type ID and body: the key outputs are sorted by.
func encodeOutput(out txs.Output) []byte {
	p := codec.NewPacker(make([]byte, 0, 64))
	txs.WriteOutput(p, out)
	b, _ := p.Bytes() // verified outputs always encode
	return b
}

// outputSortKey returns the asset ID followed by the output's encoding (§3.3).
func outputSortKey(out *txs.TransferableOutput) []byte {
	p := codec.NewPacker(make([]byte, 0, 96))
	out.Marshal(p)
	b, _ := p.Bytes()
	return b
}

// compareUTXOIDs orders UTXO references by tx ID bytes, then output index (§3.3).
func compareUTXOIDs(a, b *txs.UTXOID) int {
	if c := a.TxID.Compare(b.TxID); c != 0 {
		return c
	}
	switch {
	case a.OutputIndex < b.OutputIndex:
		return -1
	case a.OutputIndex > b.OutputIndex:
		return 1
	}
	return 0
}

// utxoSource finds the UTXOs a tx spends: unknown or spent ones give an error wrapping
// ErrUTXONotFound or ErrDoubleSpend.
type utxoSource interface {
	utxo(id ids.ID) (*txs.UTXO, error)
}

// effects are what an accepted tx changes: the UTXOs it consumes and those it produces.
type effects struct {
	txID     ids.ID
	consumed []*txs.UTXO
	produced []txs.UTXO
}

// semantic checks tx against the UTXOs of src at chain time now (unix seconds): every input's
// UTXO exists, has the input's asset and amount, is unlocked, and the input's credential holds
// the owners' signatures (§3.3). It assumes tx passed syntactic. It returns the tx's effects.
//
// Signers are recovered through tx.SignerAddress, which remembers them on tx: the builder
// verifying a pending tx again does not recover its signatures a second time.
func (r *rules) semantic(tx *txs.Tx, src utxoSource, now uint64) (*effects, error) {
	base := tx.Unsigned().Base()
	eff := &effects{txID: tx.ID(), consumed: make([]*txs.UTXO, 0, len(base.Ins))}
	for i := range base.Ins {
		in := &base.Ins[i]
		ux, err := src.utxo(in.InputID())
		if err != nil {
			return nil, transferError(err)
		}
		if err := verifySpend(in, ux, tx, i, now); err != nil {
			return nil, transferError(fmt.Errorf("input %d: %w", i, err))
		}
		eff.consumed = append(eff.consumed, ux)
	}
	eff.produced = tx.UTXOs()
	return eff, nil
}

// verifySpend checks that in may spend ux with tx's credential cred (§3.3).
func verifySpend(in *txs.TransferableInput, ux *txs.UTXO, tx *txs.Tx, cred int, now uint64) error {
	if in.AssetID != ux.AssetID {
		return ErrAssetIDMismatch
	}
	out, ok := ux.Out.(*secp256k1fx.TransferOutput)
	if !ok {
		return ErrWrongUTXOType
	}
	switch idx := in.In.SigIndices; {
	case out.Locktime > now:
		return fmt.Errorf("%w: until %d", ErrTimelocked, out.Locktime)
	case len(idx) < int(out.Threshold):
		return ErrTooFewSigners
	case len(idx) > int(out.Threshold):
		return ErrTooManySigners
	case len(idx) != len(tx.Creds()[cred].Sigs):
		return ErrSignersMismatch
	}
	for j, k := range in.In.SigIndices {
		if int(k) >= len(out.Addrs) {
			return ErrIndexOutOfBounds
		}
		addr, err := tx.SignerAddress(cred, j)
		if err != nil {
			return err
		}
		if addr != out.Addrs[k] {
			return ErrWrongSig
		}
	}
	if in.In.Amount != out.Amount {
		return ErrMismatchedAmounts
	}
	return nil
}
