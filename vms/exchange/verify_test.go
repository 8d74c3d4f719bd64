package exchange

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// ewoq is the local network's funded address (§2.5).
var ewoq = ids.ShortID{0x3c, 0xb7, 0xd3, 0x84, 0x2e, 0x8c, 0xee, 0x6a, 0x0e, 0xbd, 0x09, 0xf1, 0xfe, 0x88, 0x4f, 0x68, 0x61, 0xe1, 0xb2, 0x9c}

// TestSyntactic covers the syntactic rules the end-to-end tests do not reach.
func TestSyntactic(t *testing.T) {
	t.Parallel()
	chain, asset := ids.ID{1}, ids.ID{2}
	owners := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}
	outp := func(amount uint64) txs.TransferableOutput {
		return txs.TransferableOutput{AssetID: asset, Out: &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: owners}}
	}
	inp := func(idx uint32, amount uint64) txs.TransferableInput {
		return txs.TransferableInput{UTXOID: utxo.UTXOID{TxID: ids.ID{9}, OutputIndex: idx}, AssetID: asset,
			In: &secp256k1fx.TransferInput{Amount: amount, Input: secp256k1fx.Input{SigIndices: []uint32{0}}}}
	}
	base := func(outs []txs.TransferableOutput, ins ...txs.TransferableInput) txs.BaseTx {
		return txs.BaseTx{NetworkID: 5, BlockchainID: chain, Outs: outs, Ins: ins}
	}
	r := &rules{networkID: 5, chainID: chain, feeAssetID: asset, txFee: 10, createAssetTxFee: 20}
	asset1 := func(mod func(*txs.CreateAssetTx)) txs.UnsignedTx {
		tx := &txs.CreateAssetTx{BaseTx: base(nil, inp(0, 20)), Name: "My Coin", Symbol: "MC", Denomination: 9,
			States: []txs.InitialState{{Outs: []txs.Output{&secp256k1fx.TransferOutput{Amount: 5, OutputOwners: owners}}}}}
		mod(tx)
		return tx
	}
	b := base([]txs.TransferableOutput{outp(1)}, inp(0, 11))
	tests := []struct {
		name    string
		tx      txs.UnsignedTx
		creds   int
		wantErr error
	}{
		{"ok", &b, 1, nil},
		{"wrong network", &txs.BaseTx{NetworkID: 6, BlockchainID: chain}, 0, utxo.ErrWrongNetworkID},
		{"wrong chain", &txs.BaseTx{NetworkID: 5}, 0, utxo.ErrWrongChainID},
		{"memo too large", &txs.BaseTx{NetworkID: 5, BlockchainID: chain, Memo: make([]byte, 257)}, 0, ErrMemoTooLarge},
		{"fee not covered", func() txs.UnsignedTx { x := base([]txs.TransferableOutput{outp(2)}, inp(0, 11)); return &x }(), 1, utxo.ErrInsufficientFunds},
		{"outputs unsorted", func() txs.UnsignedTx { x := base([]txs.TransferableOutput{outp(2), outp(1)}, inp(0, 13)); return &x }(), 1, utxo.ErrOutputsNotSorted},
		{"inputs unsorted", func() txs.UnsignedTx { x := base(nil, inp(1, 11), inp(0, 11)); return &x }(), 2, utxo.ErrInputsNotSortedUnique},
		{"inputs duplicate", func() txs.UnsignedTx { x := base(nil, inp(0, 11), inp(0, 11)); return &x }(), 2, utxo.ErrInputsNotSortedUnique},
		{"zero output", func() txs.UnsignedTx { x := base([]txs.TransferableOutput{outp(0)}, inp(0, 11)); return &x }(), 1, secp256k1fx.ErrNoValueOutput},
		{"credentials missing", &b, 0, utxo.ErrWrongNumberOfCredentials},
		{"overflow", func() txs.UnsignedTx { x := base(nil, inp(0, 1<<63), inp(1, 1<<63)); return &x }(), 2, utxo.ErrOverflow},
		{"operation tx", &txs.OperationTx{BaseTx: b}, 1, txs.ErrUnsupportedTx},
		{"asset ok", asset1(func(*txs.CreateAssetTx) {}), 1, nil},
		{"asset fee", asset1(func(tx *txs.CreateAssetTx) { tx.Ins[0].In.Amount = 19 }), 1, utxo.ErrInsufficientFunds},
		{"asset name", asset1(func(tx *txs.CreateAssetTx) { tx.Name = " x" }), 1, ErrNameInvalid},
		{"asset name chars", asset1(func(tx *txs.CreateAssetTx) { tx.Name = "x!" }), 1, ErrNameInvalid},
		{"asset symbol", asset1(func(tx *txs.CreateAssetTx) { tx.Symbol = "ABCDE" }), 1, ErrSymbolInvalid},
		{"asset symbol case", asset1(func(tx *txs.CreateAssetTx) { tx.Symbol = "ab" }), 1, ErrSymbolInvalid},
		{"asset denomination", asset1(func(tx *txs.CreateAssetTx) { tx.Denomination = 33 }), 1, ErrDenominationTooLarge},
		{"asset no state", asset1(func(tx *txs.CreateAssetTx) { tx.States = nil }), 1, ErrNoInitialStates},
		{"asset unknown fx", asset1(func(tx *txs.CreateAssetTx) { tx.States[0].FxIndex = 1 }), 1, ErrUnknownFx},
		{"asset states unsorted", asset1(func(tx *txs.CreateAssetTx) { tx.States = append(tx.States, tx.States[0]) }), 1, ErrStatesNotSortedUnique},
		{"import ok", &txs.ImportTx{BaseTx: base([]txs.TransferableOutput{outp(1)}), Import: txs.Import{ImportedIns: []txs.TransferableInput{inp(0, 11)}}}, 1, nil},
		{"import nothing", &txs.ImportTx{BaseTx: b}, 1, ErrNoImportInputs},
		{"import fee not covered", &txs.ImportTx{BaseTx: base([]txs.TransferableOutput{outp(2)}), Import: txs.Import{ImportedIns: []txs.TransferableInput{inp(0, 11)}}}, 1, utxo.ErrInsufficientFunds},
		{"import credentials", &txs.ImportTx{BaseTx: b, Import: txs.Import{ImportedIns: []txs.TransferableInput{inp(1, 11)}}}, 1, utxo.ErrWrongNumberOfCredentials},
		{"imported unsorted", &txs.ImportTx{BaseTx: base(nil), Import: txs.Import{ImportedIns: []txs.TransferableInput{inp(1, 11), inp(0, 11)}}}, 2, utxo.ErrInputsNotSortedUnique},
		{"export ok", &txs.ExportTx{BaseTx: base(nil, inp(0, 11)), Export: txs.Export{ExportedOuts: []txs.TransferableOutput{outp(1)}}}, 1, nil},
		{"export nothing", &txs.ExportTx{BaseTx: b}, 1, utxo.ErrNoExportOutputs},
		{"export more than the inputs", &txs.ExportTx{BaseTx: b, Export: txs.Export{ExportedOuts: []txs.TransferableOutput{outp(1)}}}, 1, utxo.ErrInsufficientFunds},
		{"exported unsorted", &txs.ExportTx{BaseTx: base(nil, inp(0, 20)), Export: txs.Export{ExportedOuts: []txs.TransferableOutput{outp(2), outp(1)}}}, 1, utxo.ErrOutputsNotSorted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tx, err := txs.NewTx(tt.tx, make([]secp256k1fx.Credential, tt.creds))
			require.NoError(t, err)
			_, err = r.syntactic(tx)
			require.ErrorIs(t, err, tt.wantErr)
		})
	}
	// The kind not executed is named as it always was.
	u := &txs.OperationTx{BaseTx: b}
	tx, err := txs.NewTx(u, make([]secp256k1fx.Credential, 1))
	require.NoError(t, err)
	_, err = r.syntactic(tx)
	require.EqualError(t, err, "unsupported tx type: "+strings.Replace(fmt.Sprintf("%T", u), "txs.", "exchange.", 1))
}

// memSource is a utxoSource over a map.
type memSource map[ids.ID]*txs.UTXO

func (m memSource) utxo(ref *utxo.UTXOID) (*txs.UTXO, error) {
	id := ref.InputID()
	if ux, ok := m[id]; ok {
		return ux, nil
	}
	return nil, utxoNotFoundError(id)
}

// atomicUTXO implements utxoSource: the map holds no atomic UTXO.
func (memSource) atomicUTXO(_ ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error) {
	return nil, fmt.Errorf("%w: %s", atomic.ErrNotFound, ref.InputID())
}

// primaryChains is a chains.ChainLookup that knows every chain, in the Primary Network.
type primaryChains struct{}

func (primaryChains) Lookup(string) (ids.ID, error) { return ids.Empty, nil }
func (primaryChains) Chain(id ids.ID) (chains.Chain, bool) {
	return chains.Chain{ID: id}, true
}

// FuzzVerifyTx verifies arbitrary txs against the genesis UTXOs: the checks never panic, a tx
// that passes spends only UTXOs that exist, and verifying it again (with its signers remembered)
// or a fresh copy parsed from its bytes gives the same outcome.
func FuzzVerifyTx(f *testing.F) {
	type vectorFile struct {
		LocalNetwork struct {
			XChainID         string `json:"xChainID"`
			XGenesisBytesHex string `json:"xGenesisBytesHex"`
		} `json:"localNetwork"`
		Vectors vectortest.Vectors `json:"vectors"`
	}
	v := vectortest.Load[vectorFile](f)
	for _, vec := range v.Vectors.Select("X", "signedBytesHex") {
		f.Add(vectortest.Unhex(f, vectortest.Str(f, vec, "signedBytesHex")))
	}
	g, err := txs.ParseGenesis(vectortest.Unhex(f, v.LocalNetwork.XGenesisBytesHex))
	if err != nil {
		f.Fatal(err)
	}
	avax, err := g.Txs[0].Tx()
	if err != nil {
		f.Fatal(err)
	}
	src := memSource{}
	for _, ux := range avax.UTXOs() {
		src[ux.InputID()] = &ux
	}
	r := &rules{networkID: 12345, chainID: vectortest.CB58(f, v.LocalNetwork.XChainID), feeAssetID: avax.ID(), txFee: 1_000_000, createAssetTxFee: 1_000_000, chains: primaryChains{}}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := txs.ParseTx(b)
		if err != nil {
			return
		}
		kind, err := r.syntactic(tx)
		if err != nil {
			return
		}
		eff, err := r.semantic(tx, kind, src, 1767225600)
		again, errAgain := r.semantic(tx, kind, src, 1767225600)
		fresh, err2 := txs.ParseTx(b)
		require.NoError(t, err2)
		_, errFresh := r.semantic(fresh, kind, src, 1767225600)
		require.Equal(t, fmt.Sprint(err), fmt.Sprint(errAgain))
		require.Equal(t, fmt.Sprint(err), fmt.Sprint(errFresh))
		if err != nil {
			return
		}
		require.Equal(t, eff, again)
		for _, ux := range eff.Consumed {
			require.Contains(t, src, ux.InputID())
		}
	})
}
