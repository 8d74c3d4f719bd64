package wallet_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	cutxo "github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

func testPBuilder() wallet.PBuilder {
	return wallet.PBuilder{
		NetworkID: 12345, AVAXAssetID: avax, Weights: txs.LocalFeeConfig.Weights,
		GasPrice: 3, Time: 1000,
	}
}

func pUTXO(txByte byte, amount, locktime uint64, owners ...ids.ShortID) *txs.UTXO {
	return &txs.UTXO{
		UTXOID: cutxo.UTXOID{TxID: ids.ID{txByte}}, AssetID: avax,
		Out: &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: secp256k1fx.OutputOwners{
			Locktime: locktime, Threshold: 1, Addrs: owners,
		}},
	}
}

// pFlow sums a P-Chain tx's inputs and outputs.
func pFlow(tx *txs.Tx) (in, out uint64) {
	base := tx.Unsigned().Base()
	for _, i := range base.Ins {
		in += i.In.(*secp256k1fx.TransferInput).Amount
	}
	for _, o := range base.Outs {
		out += o.Out.(*secp256k1fx.TransferOutput).Amount
	}
	return in, out
}

func TestPBuilder(t *testing.T) {
	t.Parallel()
	key := mustKey(t, wallet.LocalKey)
	other := ids.ShortID{7}
	subnet := ids.ID{5}
	vm := ids.FromName("subnetevm")
	auth := wallet.PAuth{SigIndices: []uint32{0}, Keys: []*wallet.Key{key}}
	tests := []struct {
		name    string
		utxos   []*txs.UTXO
		build   func(b *wallet.PBuilder, utxos []*txs.UTXO) (*txs.Tx, error)
		sent    uint64
		burned  uint64
		ins     int
		creds   int
		wantErr error
	}{
		{
			name:  "send with change",
			utxos: []*txs.UTXO{pUTXO(1, 1_000_000, 0, key.Address()), pUTXO(2, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.Send(key, u, other, 10)
			},
			sent: 10, ins: 1, creds: 1,
		},
		{
			name: "send spends two small UTXOs, skipping locked and foreign ones",
			utxos: []*txs.UTXO{
				pUTXO(1, 14_000, 0, key.Address()), pUTXO(2, 14_000, 0, key.Address()),
				pUTXO(3, 1<<40, 2000, key.Address()), pUTXO(4, 1<<40, 0, other),
			},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.Send(key, u, other, 10)
			},
			sent: 10, ins: 2, creds: 2,
		},
		{
			name:  "create subnet",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.CreateSubnet(key, u, other)
			},
			ins: 1, creds: 1,
		},
		{
			name:  "create subnet with owners, sorted and deduplicated",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				owners := []ids.ShortID{other, key.Address(), other, {1}}
				tx, err := b.CreateSubnetOwners(key, u, owners)
				if err == nil {
					owner := tx.Unsigned().(*txs.CreateSubnetTx).Owner
					require.Equal(t, uint32(1), owner.Threshold)
					want := []ids.ShortID{{1}, key.Address(), other}
					slices.SortFunc(want, ids.ShortID.Compare)
					require.Equal(t, want, owner.Addrs)
					require.NoError(t, owner.Verify())
					require.Equal(t, []ids.ShortID{other, key.Address(), other, {1}}, owners, "the caller's slice is left alone")
				}
				return tx, err
			},
			ins: 1, creds: 1,
		},
		{
			name:  "create subnet without owners",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.CreateSubnetOwners(key, u, nil)
			},
			wantErr: wallet.ErrNoOwner,
		},
		{
			name:  "create chain",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.CreateChain(key, u, subnet, "c", vm, []byte("{}"), auth)
			},
			ins: 1, creds: 2,
		},
		{
			name:  "convert subnet sorts the validators and pays their balances",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				vals := []txs.ConvertSubnetToL1Validator{
					{NodeID: bytes.Repeat([]byte{2}, ids.NodeIDLen), Weight: 1, Balance: 300},
					{NodeID: bytes.Repeat([]byte{1}, ids.NodeIDLen), Weight: 2, Balance: 400},
				}
				tx, err := b.ConvertSubnet(key, u, subnet, ids.ID{1}, []byte{1}, vals, auth)
				if err == nil {
					conv := tx.Unsigned().(*txs.ConvertSubnetToL1Tx)
					require.Equal(t, uint64(2), conv.Validators[0].Weight)
					require.Equal(t, bytes.Repeat([]byte{2}, ids.NodeIDLen), vals[0].NodeID, "the caller's slice is left alone")
				}
				return tx, err
			},
			burned: 700, ins: 1, creds: 2,
		},
		{
			name:  "increase balance",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.IncreaseBalance(key, u, ids.ID{9}, 1234)
			},
			burned: 1234, ins: 1, creds: 1,
		},
		{
			name:  "increase nothing",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.IncreaseBalance(key, u, ids.ID{9}, 0)
			},
			wantErr: wallet.ErrZeroAmount,
		},
		{
			name:  "disable validator",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.DisableValidator(key, u, ids.ID{9}, auth)
			},
			ins: 1, creds: 2,
		},
		{
			name:  "insufficient",
			utxos: []*txs.UTXO{pUTXO(1, 100, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.Send(key, u, other, 10)
			},
			wantErr: wallet.ErrInsufficientFunds,
		},
		{
			name:  "zero",
			utxos: []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())},
			build: func(b *wallet.PBuilder, u []*txs.UTXO) (*txs.Tx, error) {
				return b.Send(key, u, other, 0)
			},
			wantErr: wallet.ErrZeroAmount,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := testPBuilder()
			tx, err := tt.build(&b, tt.utxos)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr != nil {
				return
			}
			in, out := pFlow(tx)
			fee := b.Fee(tx)
			require.NotZero(t, fee)
			require.Equal(t, tt.burned, in-out-fee, "the fee and the balances are paid exactly")
			require.Len(t, tx.Unsigned().Base().Ins, tt.ins)
			require.Len(t, tx.Creds(), tt.creds)
			parsed, err := txs.ParseTx(tx.Bytes())
			require.NoError(t, err)
			require.Equal(t, tx.ID(), parsed.ID())
			var toOther uint64
			for _, o := range tx.Unsigned().Base().Outs {
				if to := o.Out.(*secp256k1fx.TransferOutput); to.Addrs[0] == other {
					toOther += to.Amount
				}
			}
			require.Equal(t, tt.sent, toOther)
		})
	}
}

// The builder charges the VM's own complexity (txs.Complexity) at the builder's price.
func TestPFee(t *testing.T) {
	t.Parallel()
	key := mustKey(t, wallet.LocalKey)
	b := testPBuilder()
	tx, err := b.CreateChain(key, []*txs.UTXO{pUTXO(1, 50_000_000, 0, key.Address())}, ids.ID{5}, "c",
		ids.FromName("avm"), nil, wallet.PAuth{SigIndices: []uint32{0}, Keys: []*wallet.Key{key}})
	require.NoError(t, err)
	c := txs.Complexity(tx)
	// One input, one change output, the chain's reads and write, two signatures.
	require.Equal(t, txs.Dimensions{uint64(tx.Size()), 1 + 3, 1 + 1 + 1, 2 * 200}, c)
	require.Equal(t, 3*txs.LocalFeeConfig.Weights.Gas(c), b.Fee(tx))
}
