package exchange

import (
	"bytes"
	"fmt"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// A CreateAssetTx creates an asset, whose ID is the tx's, with its initial states (§2.3, §6.2),
// and pays the asset creation fee.

func (c *syntacticCheck) CreateAssetTx(tx *txs.CreateAssetTx) error {
	c.fee = c.r.createAssetTxFee
	return verifyCreateAsset(tx)
}

func (*atomicOps) CreateAssetTx(*txs.CreateAssetTx) error { return nil }

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
				return utxo.ErrOutputsNotSorted
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
