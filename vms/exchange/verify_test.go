package exchange

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestSignatureVector signs the X BaseTx vector's unsigned bytes with the ewoq key: RFC 6979
// gives the vector's signature, and it recovers to the ewoq address (§3.2, §8.5).
func TestSignatureVector(t *testing.T) {
	t.Parallel()
	vec := loadVectors(t).vector(t, "x_base_tx_transfer_avax")
	tx, err := ParseTx(unhex(t, str(t, vec, "signedBytesHex")))
	require.NoError(t, err)
	k, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	h := tx.UnsignedHash()
	raw, err := crypto.Sign(h[:], k)
	require.NoError(t, err)
	sig := secp256k1fx.Signature(raw)
	require.Equal(t, tx.Creds()[0].Sigs[0], sig)
	require.Equal(t, unhex(t, str(t, vec, "signatureHex")), raw)

	addr, err := secp256k1fx.RecoverAddress(h, sig)
	require.NoError(t, err)
	require.Equal(t, ewoq, addr)
	require.Equal(t, ewoq, secp256k1fx.PublicKeyAddress(crypto.CompressPubkey(&k.PublicKey)))

	// The same signature with S replaced by n-S (and the flag flipped) is the mutated form.
	mutated := sig
	s := new(big.Int).SetBytes(sig[32:64])
	new(big.Int).Sub(crypto.S256().Params().N, s).FillBytes(mutated[32:64])
	mutated[64] ^= 1
	_, err = secp256k1fx.RecoverAddress(h, mutated)
	require.ErrorIs(t, err, ErrMutatedSig)
	flag := sig
	flag[64] = 4
	_, err = secp256k1fx.RecoverAddress(h, flag)
	require.ErrorIs(t, err, ErrMutatedSig)
	// Another message recovers to another key.
	h[0] ^= 1
	other, err := secp256k1fx.RecoverAddress(h, sig)
	if err == nil {
		require.NotEqual(t, ewoq, other)
	}
}

// TestSyntactic covers the syntactic rules the end-to-end tests do not reach.
func TestSyntactic(t *testing.T) {
	t.Parallel()
	chain, asset := ids.ID{1}, ids.ID{2}
	owners := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}
	outp := func(amount uint64) TransferableOutput {
		return TransferableOutput{AssetID: asset, Out: &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: owners}}
	}
	inp := func(idx uint32, amount uint64) TransferableInput {
		return TransferableInput{UTXOID: UTXOID{TxID: ids.ID{9}, OutputIndex: idx}, AssetID: asset,
			In: &secp256k1fx.TransferInput{Amount: amount, Input: secp256k1fx.Input{SigIndices: []uint32{0}}}}
	}
	base := func(outs []TransferableOutput, ins ...TransferableInput) BaseTx {
		return BaseTx{NetworkID: 5, BlockchainID: chain, Outs: outs, Ins: ins}
	}
	r := &rules{networkID: 5, chainID: chain, feeAssetID: asset, txFee: 10, createAssetTxFee: 20}
	asset1 := func(mod func(*CreateAssetTx)) UnsignedTx {
		tx := &CreateAssetTx{BaseTx: base(nil, inp(0, 20)), Name: "My Coin", Symbol: "MC", Denomination: 9,
			States: []InitialState{{Outs: []Output{&secp256k1fx.TransferOutput{Amount: 5, OutputOwners: owners}}}}}
		mod(tx)
		return tx
	}
	b := base([]TransferableOutput{outp(1)}, inp(0, 11))
	tests := []struct {
		name    string
		tx      UnsignedTx
		creds   int
		wantErr error
	}{
		{"ok", &b, 1, nil},
		{"wrong network", &BaseTx{NetworkID: 6, BlockchainID: chain}, 0, ErrWrongNetworkID},
		{"wrong chain", &BaseTx{NetworkID: 5}, 0, ErrWrongChainID},
		{"memo too large", &BaseTx{NetworkID: 5, BlockchainID: chain, Memo: make([]byte, 257)}, 0, ErrMemoTooLarge},
		{"fee not covered", func() UnsignedTx { x := base([]TransferableOutput{outp(2)}, inp(0, 11)); return &x }(), 1, ErrInsufficientFunds},
		{"outputs unsorted", func() UnsignedTx { x := base([]TransferableOutput{outp(2), outp(1)}, inp(0, 13)); return &x }(), 1, ErrOutputsNotSorted},
		{"inputs unsorted", func() UnsignedTx { x := base(nil, inp(1, 11), inp(0, 11)); return &x }(), 2, ErrInputsNotSortedUnique},
		{"inputs duplicate", func() UnsignedTx { x := base(nil, inp(0, 11), inp(0, 11)); return &x }(), 2, ErrInputsNotSortedUnique},
		{"zero output", func() UnsignedTx { x := base([]TransferableOutput{outp(0)}, inp(0, 11)); return &x }(), 1, secp256k1fx.ErrNoValueOutput},
		{"credentials missing", &b, 0, ErrWrongNumberOfCredentials},
		{"overflow", func() UnsignedTx { x := base(nil, inp(0, 1<<63), inp(1, 1<<63)); return &x }(), 2, ErrOverflow},
		{"operation tx", &OperationTx{BaseTx: b}, 1, ErrUnsupportedTx},
		{"asset ok", asset1(func(*CreateAssetTx) {}), 1, nil},
		{"asset fee", asset1(func(tx *CreateAssetTx) { tx.Ins[0].In.Amount = 19 }), 1, ErrInsufficientFunds},
		{"asset name", asset1(func(tx *CreateAssetTx) { tx.Name = " x" }), 1, ErrNameInvalid},
		{"asset name chars", asset1(func(tx *CreateAssetTx) { tx.Name = "x!" }), 1, ErrNameInvalid},
		{"asset symbol", asset1(func(tx *CreateAssetTx) { tx.Symbol = "ABCDE" }), 1, ErrSymbolInvalid},
		{"asset symbol case", asset1(func(tx *CreateAssetTx) { tx.Symbol = "ab" }), 1, ErrSymbolInvalid},
		{"asset denomination", asset1(func(tx *CreateAssetTx) { tx.Denomination = 33 }), 1, ErrDenominationTooLarge},
		{"asset no state", asset1(func(tx *CreateAssetTx) { tx.States = nil }), 1, ErrNoInitialStates},
		{"asset unknown fx", asset1(func(tx *CreateAssetTx) { tx.States[0].FxIndex = 1 }), 1, ErrUnknownFx},
		{"asset states unsorted", asset1(func(tx *CreateAssetTx) { tx.States = append(tx.States, tx.States[0]) }), 1, ErrStatesNotSortedUnique},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tx, err := NewTx(tt.tx, make([]secp256k1fx.Credential, tt.creds))
			require.NoError(t, err)
			require.ErrorIs(t, r.syntactic(tx), tt.wantErr)
		})
	}
}

// memSource is a utxoSource over a map.
type memSource map[ids.ID]*UTXO

func (m memSource) utxo(id ids.ID) (*UTXO, error) {
	if ux, ok := m[id]; ok {
		return ux, nil
	}
	return nil, utxoNotFoundError(id)
}

// FuzzVerifyTx verifies arbitrary txs against the genesis UTXOs: the checks never panic, a tx
// that passes spends only UTXOs that exist, and verifying it again (with its signers remembered)
// or a fresh copy parsed from its bytes gives the same outcome.
func FuzzVerifyTx(f *testing.F) {
	v := loadVectors(f)
	for _, vec := range v.xTxVectors() {
		f.Add(unhex(f, str(f, vec, "signedBytesHex")))
	}
	g, err := ParseGenesis(unhex(f, v.LocalNetwork.XGenesisBytesHex))
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
	r := &rules{networkID: 12345, chainID: cb58(f, v.LocalNetwork.XChainID), feeAssetID: avax.ID(), txFee: 1_000_000, createAssetTxFee: 1_000_000}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := ParseTx(b)
		if err != nil {
			return
		}
		if r.syntactic(tx) != nil {
			return
		}
		eff, err := r.semantic(tx, src, 1767225600)
		again, errAgain := r.semantic(tx, src, 1767225600)
		fresh, err2 := ParseTx(b)
		require.NoError(t, err2)
		_, errFresh := r.semantic(fresh, src, 1767225600)
		require.Equal(t, fmt.Sprint(err), fmt.Sprint(errAgain))
		require.Equal(t, fmt.Sprint(err), fmt.Sprint(errFresh))
		if err != nil {
			return
		}
		require.Equal(t, eff, again)
		for _, ux := range eff.consumed {
			require.Contains(t, src, ux.InputID())
		}
	})
}
