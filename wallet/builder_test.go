package wallet_test

import (
	"bytes"
	"testing"

	cutxo "github.com/cornice-node/cornice/vms/components/utxo"

	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

const fee = 1_000_000

var (
	avax  = ids.ID{0xaa}
	token = ids.ID{0x01}
)

func testBuilder() wallet.XBuilder {
	return wallet.XBuilder{
		NetworkID: 12345, ChainID: ids.ID{0xcc}, AVAXAssetID: avax,
		TxFee: fee, CreateAssetTxFee: 2 * fee, Time: 1000,
	}
}

func mustKey(t testing.TB, s string) *wallet.Key {
	t.Helper()
	k, err := wallet.ParseKey(s)
	require.NoError(t, err)
	return k
}

// utxo returns a UTXO of amount of asset, owned by owners (threshold 1 unless set), locked until
// locktime.
func utxo(txByte byte, index uint32, asset ids.ID, amount uint64, locktime uint64, threshold uint32, owners ...ids.ShortID) *xtxs.UTXO {
	return &xtxs.UTXO{
		UTXOID:  cutxo.UTXOID{TxID: ids.ID{txByte}, OutputIndex: index},
		AssetID: asset,
		Out: &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: secp256k1fx.OutputOwners{
			Locktime: locktime, Threshold: threshold, Addrs: owners,
		}},
	}
}

// flow sums a tx's inputs and outputs per asset.
func flow(base *xtxs.BaseTx) (in, out map[ids.ID]uint64) {
	in, out = map[ids.ID]uint64{}, map[ids.ID]uint64{}
	for _, i := range base.Ins {
		in[i.AssetID] += i.In.Amount
	}
	for _, o := range base.Outs {
		out[o.AssetID] += o.Out.Amount
	}
	return in, out
}

// checkTx checks what the chain's syntactic rules check (§3.3): sorted inputs and outputs, one
// credential per input, signatures that recover to the owners.
func checkTx(t *testing.T, tx *xtxs.Tx, utxos []*xtxs.UTXO) {
	t.Helper()
	parsed, err := xtxs.ParseTx(tx.Bytes())
	require.NoError(t, err)
	require.Equal(t, tx.ID(), parsed.ID())
	base := tx.Unsigned().Base()
	require.Len(t, tx.Creds(), len(base.Ins))
	var prev []byte
	for i := range base.Outs {
		p := codec.NewPacker(nil)
		base.Outs[i].Marshal(p)
		b, err := p.Bytes()
		require.NoError(t, err)
		require.LessOrEqual(t, bytes.Compare(prev, b), 0, "outputs not sorted")
		prev = b
	}
	byID := map[cutxo.UTXOID]*xtxs.UTXO{}
	for _, ux := range utxos {
		byID[ux.UTXOID] = ux
	}
	for i, in := range base.Ins {
		if i > 0 {
			a, b := base.Ins[i-1], in
			require.True(t, a.TxID.Compare(b.TxID) < 0 || a.TxID == b.TxID && a.OutputIndex < b.OutputIndex, "inputs not sorted")
		}
		ux := byID[in.UTXOID]
		require.NotNil(t, ux)
		out := ux.Out.(*secp256k1fx.TransferOutput)
		require.Equal(t, ux.AssetID, in.AssetID)
		require.Equal(t, out.Amount, in.In.Amount)
		require.Len(t, in.In.SigIndices, 1)
		addr, err := secp256k1fx.RecoverAddress(tx.UnsignedHash(), tx.Creds()[i].Sigs[0])
		require.NoError(t, err)
		require.Equal(t, out.Addrs[in.In.SigIndices[0]], addr)
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	k := mustKey(t, ewoqHex)
	me := k.Address()
	other := mustKey(t, vmrqHex).Address()
	utxos := []*xtxs.UTXO{
		utxo(5, 0, avax, 3*fee, 0, 1, me),
		utxo(2, 1, avax, 10*fee, 0, 1, me),
		utxo(2, 0, avax, 4*fee, 0, 1, me),
		utxo(3, 0, token, 100, 0, 1, me),
		utxo(4, 0, token, 50, 0, 1, me, other),      // shared with another key: sig index 0
		utxo(6, 0, avax, 1000*fee, 2000, 1, me),     // locked past Time
		utxo(7, 0, avax, 1000*fee, 0, 2, me, other), // needs two signers
		utxo(8, 0, avax, 1000*fee, 0, 1, other),     // not ours
	}
	tests := []struct {
		name    string
		asset   ids.ID
		amount  uint64
		wantIn  map[ids.ID]uint64
		wantOut map[ids.ID]uint64
		wantErr error
	}{
		{name: "AVAX from the largest UTXO, change back", asset: avax, amount: 5 * fee,
			wantIn: map[ids.ID]uint64{avax: 10 * fee}, wantOut: map[ids.ID]uint64{avax: 9 * fee}},
		{name: "AVAX exactly one UTXO with the fee", asset: avax, amount: 9 * fee,
			wantIn: map[ids.ID]uint64{avax: 10 * fee}, wantOut: map[ids.ID]uint64{avax: 9 * fee}},
		{name: "AVAX over several UTXOs", asset: avax, amount: 12 * fee,
			wantIn: map[ids.ID]uint64{avax: 14 * fee}, wantOut: map[ids.ID]uint64{avax: 13 * fee}},
		{name: "all spendable AVAX", asset: avax, amount: 16 * fee,
			wantIn: map[ids.ID]uint64{avax: 17 * fee}, wantOut: map[ids.ID]uint64{avax: 16 * fee}},
		{name: "asset, fee in AVAX", asset: token, amount: 120,
			wantIn:  map[ids.ID]uint64{avax: 10 * fee, token: 150},
			wantOut: map[ids.ID]uint64{avax: 9 * fee, token: 150}},
		{name: "too much AVAX", asset: avax, amount: 16*fee + 1, wantErr: wallet.ErrInsufficientFunds},
		{name: "too much of the asset", asset: token, amount: 151, wantErr: wallet.ErrInsufficientFunds},
		{name: "an asset the key does not hold", asset: ids.ID{0x77}, amount: 1, wantErr: wallet.ErrInsufficientFunds},
		{name: "zero", asset: avax, amount: 0, wantErr: wallet.ErrZeroAmount},
		{name: "amount plus fee overflow", asset: avax, amount: ^uint64(0), wantErr: wallet.ErrInsufficientFunds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := testBuilder()
			tx, err := b.Send(k, utxos, other, tt.asset, tt.amount)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			checkTx(t, tx, utxos)
			base, ok := tx.Unsigned().(*xtxs.BaseTx)
			require.True(t, ok)
			require.Equal(t, uint32(12345), base.NetworkID)
			require.Equal(t, ids.ID{0xcc}, base.BlockchainID)
			in, out := flow(base)
			require.Equal(t, tt.wantIn, in)
			require.Equal(t, tt.wantOut, out)
			var sent uint64
			for _, o := range base.Outs {
				if o.Out.Addrs[0] == other {
					require.Equal(t, tt.asset, o.AssetID)
					sent += o.Out.Amount
				} else {
					require.Equal(t, []ids.ShortID{me}, o.Out.Addrs)
				}
			}
			require.Equal(t, tt.amount, sent)
		})
	}
}

// TestSendDeterministic checks that the same UTXOs, in any order, give the same tx.
func TestSendDeterministic(t *testing.T) {
	t.Parallel()
	k := mustKey(t, ewoqHex)
	a := []*xtxs.UTXO{utxo(1, 0, avax, 5*fee, 0, 1, k.Address()), utxo(2, 0, avax, 5*fee, 0, 1, k.Address())}
	b := []*xtxs.UTXO{a[1], a[0]}
	bld := testBuilder()
	tx1, err := bld.Send(k, a, ids.ShortID{1}, avax, 7*fee)
	require.NoError(t, err)
	tx2, err := bld.Send(k, b, ids.ShortID{1}, avax, 7*fee)
	require.NoError(t, err)
	require.Equal(t, tx1.Bytes(), tx2.Bytes())
}

func TestSendMany(t *testing.T) {
	t.Parallel()
	k := mustKey(t, ewoqHex)
	utxos := []*xtxs.UTXO{utxo(1, 0, avax, 50*fee, 0, 1, k.Address()), utxo(3, 0, token, 100, 0, 1, k.Address())}
	b := testBuilder()
	tx, err := b.SendMany(k, utxos,
		wallet.Transfer{To: ids.ShortID{9}, AssetID: avax, Amount: 7 * fee},
		wallet.Transfer{To: ids.ShortID{8}, AssetID: avax, Amount: 7 * fee},
		wallet.Transfer{To: ids.ShortID{8}, AssetID: token, Amount: 60},
	)
	require.NoError(t, err)
	checkTx(t, tx, utxos)
	in, out := flow(tx.Unsigned().Base())
	require.Equal(t, map[ids.ID]uint64{avax: 50 * fee, token: 100}, in)
	require.Equal(t, map[ids.ID]uint64{avax: 49 * fee, token: 100}, out)
	require.Len(t, tx.Unsigned().Base().Outs, 5) // three transfers, two changes

	_, err = b.SendMany(k, utxos, wallet.Transfer{To: ids.ShortID{9}, AssetID: token, Amount: ^uint64(0)},
		wallet.Transfer{To: ids.ShortID{9}, AssetID: token, Amount: 1})
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds)
	_, err = b.SendMany(k, utxos, wallet.Transfer{To: ids.ShortID{9}, AssetID: token})
	require.ErrorIs(t, err, wallet.ErrZeroAmount)
}

func TestCreateAsset(t *testing.T) {
	t.Parallel()
	k := mustKey(t, ewoqHex)
	utxos := []*xtxs.UTXO{utxo(1, 0, avax, 5*fee, 0, 1, k.Address())}
	b := testBuilder()
	tx, err := b.CreateAsset(k, utxos, "Test Token", "TT", 2, 1_000_000)
	require.NoError(t, err)
	checkTx(t, tx, utxos)
	ca, ok := tx.Unsigned().(*xtxs.CreateAssetTx)
	require.True(t, ok)
	require.Equal(t, "Test Token", ca.Name)
	require.Equal(t, "TT", ca.Symbol)
	require.Equal(t, uint8(2), ca.Denomination)
	in, out := flow(&ca.BaseTx)
	require.Equal(t, map[ids.ID]uint64{avax: 5 * fee}, in)
	require.Equal(t, map[ids.ID]uint64{avax: 3 * fee}, out) // the create-asset fee is 2×
	// The supply is the tx's UTXO after the change: owned by the key, of the new asset.
	produced := tx.UTXOs()
	require.Len(t, produced, 2)
	require.Equal(t, tx.ID(), produced[1].AssetID)
	require.Equal(t, uint64(1_000_000), produced[1].Out.(*secp256k1fx.TransferOutput).Amount)

	_, err = b.CreateAsset(k, utxos, "X", "X", 0, 0)
	require.ErrorIs(t, err, wallet.ErrZeroAmount)
	_, err = b.CreateAsset(k, utxos[:0], "X", "X", 0, 1)
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds)
}

// TestSignTx checks one credential per key, the same signature for the same key.
func TestSignTx(t *testing.T) {
	t.Parallel()
	k1, k2 := mustKey(t, ewoqHex), mustKey(t, vmrqHex)
	base := &xtxs.BaseTx{NetworkID: 12345, Memo: []byte{}}
	tx, err := wallet.SignTx(base, k1, k2, k1)
	require.NoError(t, err)
	require.Len(t, tx.Creds(), 3)
	require.Equal(t, tx.Creds()[0], tx.Creds()[2])
	require.NotEqual(t, tx.Creds()[0], tx.Creds()[1])
	for i, k := range []*wallet.Key{k1, k2, k1} {
		addr, err := secp256k1fx.RecoverAddress(tx.UnsignedHash(), tx.Creds()[i].Sigs[0])
		require.NoError(t, err)
		require.Equal(t, k.Address(), addr)
	}
}
