package wallet

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// XBuilder builds signed X-Chain txs from UTXOs, without I/O. Its zero value is not usable: set
// every field but Time, from the node ([NewX] does) or from known values.
type XBuilder struct {
	// NetworkID and ChainID are the network's and the X-Chain's IDs, written into every tx.
	NetworkID uint32
	ChainID   ids.ID
	// AVAXAssetID is the fee asset.
	AVAXAssetID ids.ID
	// TxFee is the fee of a BaseTx, CreateAssetTxFee that of a CreateAssetTx, in nAVAX (§6.3).
	TxFee            uint64
	CreateAssetTxFee uint64
	// Time is the chain time in unix seconds: UTXOs locked past it are not spent. Zero spends
	// only UTXOs without a locktime.
	Time uint64
}

// spendable is a UTXO a key can spend alone: a TransferOutput of threshold 1 that lists the key.
type spendable struct {
	ux     *xtxs.UTXO
	amount uint64
	// sigIndex is the key's index among the output's owners.
	sigIndex uint32
}

// Transfer is one output of a BaseTx: Amount of AssetID to To alone.
type Transfer struct {
	To      ids.ShortID
	AssetID ids.ID
	Amount  uint64
}

// Send returns a BaseTx that sends amount of assetID to `to`, signed by key, spending utxos the
// key owns. The fee is paid in AVAX and the change goes back to the key's address.
func (b *XBuilder) Send(key *Key, utxos []*xtxs.UTXO, to ids.ShortID, assetID ids.ID, amount uint64) (*xtxs.Tx, error) {
	return b.SendMany(key, utxos, Transfer{To: to, AssetID: assetID, Amount: amount})
}

// SendMany is Send with several outputs, of one asset or more, in one tx.
func (b *XBuilder) SendMany(key *Key, utxos []*xtxs.UTXO, transfers ...Transfer) (*xtxs.Tx, error) {
	outs := make([]xtxs.TransferableOutput, 0, len(transfers)+2)
	need := make(map[ids.ID]uint64, 2)
	for _, tr := range transfers {
		if tr.Amount == 0 {
			return nil, ErrZeroAmount
		}
		sum := need[tr.AssetID] + tr.Amount
		if sum < tr.Amount {
			return nil, fmt.Errorf("%w: the amounts exceed 2^64-1", ErrInsufficientFunds)
		}
		need[tr.AssetID] = sum
		outs = append(outs, xtxs.TransferTo(tr.AssetID, tr.Amount, tr.To))
	}
	base, keys, err := b.fund(key, utxos, outs, need, b.TxFee)
	if err != nil {
		return nil, err
	}
	return SignTx(base, keys...)
}

// CreateAsset returns a CreateAssetTx for a fixed supply of a new asset, all of it owned by
// key's address, signed by key; the fee is paid from utxos. The asset's ID will be the tx's ID
// (§2.3).
func (b *XBuilder) CreateAsset(key *Key, utxos []*xtxs.UTXO, name, symbol string, denomination uint8, supply uint64) (*xtxs.Tx, error) {
	if supply == 0 {
		return nil, ErrZeroAmount
	}
	base, keys, err := b.fund(key, utxos, nil, nil, b.CreateAssetTxFee)
	if err != nil {
		return nil, err
	}
	tx := &xtxs.CreateAssetTx{
		BaseTx:       *base,
		Name:         name,
		Symbol:       symbol,
		Denomination: denomination,
		States: []xtxs.InitialState{{
			FxIndex: 0,
			Outs: []xtxs.Output{&secp256k1fx.TransferOutput{
				Amount:       supply,
				OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}},
			}},
		}},
	}
	return SignTx(tx, keys...)
}

// fund returns a BaseTx with outs, plus inputs covering need and fee (in AVAX) and change to
// key, with the key that signs each input (all key).
func (b *XBuilder) fund(key *Key, utxos []*xtxs.UTXO, outs []xtxs.TransferableOutput, need map[ids.ID]uint64, fee uint64) (*xtxs.BaseTx, []*Key, error) {
	total := make(map[ids.ID]uint64, len(need)+1)
	for asset, v := range need {
		total[asset] = v
	}
	if fee > 0 {
		sum := total[b.AVAXAssetID] + fee
		if sum < fee {
			return nil, nil, fmt.Errorf("%w: the amount plus the fee exceed 2^64-1", ErrInsufficientFunds)
		}
		total[b.AVAXAssetID] = sum
	}
	avail := b.spendable(key, utxos)
	// Assets in ID order, so that the same UTXOs give the same tx.
	assets := make([]ids.ID, 0, len(total))
	for asset := range total {
		assets = append(assets, asset)
	}
	slices.SortFunc(assets, ids.ID.Compare)
	var ins []xtxs.TransferableInput
	for _, asset := range assets {
		want := total[asset]
		var got uint64
		for _, s := range avail {
			if got >= want {
				break
			}
			if s.ux.AssetID != asset {
				continue
			}
			if got+s.amount < got {
				break // enough: the rest would overflow the change
			}
			got += s.amount
			ins = append(ins, s.input())
		}
		if got < want {
			return nil, nil, insufficientFundsError(asset, got, want)
		}
		if got > want {
			outs = append(outs, xtxs.TransferTo(asset, got-want, key.Address()))
		}
	}
	sortInputs(ins)
	if err := sortOutputs(outs); err != nil {
		return nil, nil, err
	}
	keys := make([]*Key, len(ins))
	for i := range keys {
		keys[i] = key
	}
	return &xtxs.BaseTx{
		NetworkID:    b.NetworkID,
		BlockchainID: b.ChainID,
		Outs:         outs,
		Ins:          ins,
		Memo:         []byte{},
	}, keys, nil
}

// spendable returns the UTXOs key can spend alone now, largest first (fewest inputs), then in
// UTXO order.
func (b *XBuilder) spendable(key *Key, utxos []*xtxs.UTXO) []spendable {
	var out []spendable
	for _, ux := range utxos {
		to, ok := ux.Out.(*secp256k1fx.TransferOutput)
		if !ok || to.Threshold != 1 || to.Locktime > b.Time {
			continue
		}
		i := slices.Index(to.Addrs, key.Address())
		if i < 0 {
			continue
		}
		out = append(out, spendable{ux: ux, amount: to.Amount, sigIndex: uint32(i)})
	}
	slices.SortFunc(out, func(a, b spendable) int {
		if c := cmp.Compare(b.amount, a.amount); c != 0 {
			return c
		}
		return compareUTXOIDs(&a.ux.UTXOID, &b.ux.UTXOID)
	})
	return out
}

// input returns the input that spends s.
func (s spendable) input() xtxs.TransferableInput {
	return xtxs.TransferableInput{UTXOID: s.ux.UTXOID, AssetID: s.ux.AssetID, In: utxo.Spend(s.amount, s.sigIndex)}
}

// sortInputs sorts inputs by UTXO: tx ID bytes, then output index (§3.3).
func sortInputs(ins []xtxs.TransferableInput) {
	slices.SortFunc(ins, func(a, b xtxs.TransferableInput) int {
		return compareUTXOIDs(&a.UTXOID, &b.UTXOID)
	})
}

func compareUTXOIDs(a, b *utxo.UTXOID) int {
	if c := a.TxID.Compare(b.TxID); c != 0 {
		return c
	}
	return cmp.Compare(a.OutputIndex, b.OutputIndex)
}

// sortOutputs sorts outputs by asset ID, then by the codec bytes of the output (type ID, amount,
// locktime, threshold, addresses), which is the order of their whole encoding (§3.3).
func sortOutputs(outs []xtxs.TransferableOutput) error {
	keys := make([][]byte, len(outs))
	idx := make([]int, len(outs))
	for i := range outs {
		p := codec.NewPacker(make([]byte, 0, 96))
		outs[i].Marshal(p)
		k, err := p.Bytes()
		if err != nil {
			return fmt.Errorf("encode output %d: %w", i, err)
		}
		keys[i], idx[i] = k, i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return bytes.Compare(keys[a], keys[b]) })
	sorted := make([]xtxs.TransferableOutput, len(outs))
	for i, j := range idx {
		sorted[i] = outs[j]
	}
	copy(outs, sorted)
	return nil
}
