package evm

import (
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// newL1TestVM is newTestVM with the L1 test genesis (testdata/l1-genesis.json)
// on a fake clock 10 s after its genesis.
func newL1TestVM(t *testing.T) *testVM {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(t.TempDir(), log)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	genesis, err := os.ReadFile(filepath.Join("testdata", "l1-genesis.json"))
	require.NoError(t, err)
	vm, err := NewL1(t.Context(), Config{}, chains.Context{
		NetworkID: 12345,
		Chain:     chains.Chain{ID: ids.ID{'L', '1'}, Name: "l1"},
		Genesis:   genesis,
		DB:        db.Prefixed(storage.PrefixEVM),
		Log:       log,
		Clock:     clock.NewFake(time.Unix(1_700_000_010, 0)),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = vm.Close() })
	return &testVM{VM: vm, store: db}
}

// TestL1VerifyRules checks that a block from elsewhere must follow the L1's
// rules (l1-evm.md §3.5, §3.9, §5.3): the fee config's gas limit, the
// required coinbase, and only senders the transaction allow list lets in.
func TestL1VerifyRules(t *testing.T) {
	t.Parallel()
	vm := newL1TestVM(t)
	admin, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	outsider, err := crypto.ToECDSA(crypto.Keccak256([]byte("cornice-l1-test-outsider")))
	require.NoError(t, err)
	signer := types.LatestSignerForChainID(vm.ChainID())
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tx := func(key *ecdsa.PrivateKey) *types.Transaction {
		return types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: vm.ChainID(), GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(100_000_000_000), Gas: 21_000, To: &to, Value: big.NewInt(1),
		})
	}
	outsiderAddr := crypto.PubkeyToAddress(outsider.PublicKey)
	tests := []struct {
		name   string
		tx     *types.Transaction
		modify func(h *types.Header)
		want   string
	}{
		{"gas limit", tx(admin), func(h *types.Header) { h.GasLimit = 7_999_999 },
			"invalid gas limit: expected to be 8000000 in Subnet-EVM, but found 7999999"},
		{"coinbase", tx(admin), func(h *types.Header) { h.Coinbase = to },
			"invalid coinbase: " + to.Hex() + " does not match required coinbase address " + BlackholeAddr.Hex()},
		{"sender not allowed", tx(outsider), func(*types.Header) {},
			"cannot issue transaction from non-allow listed address: " + outsiderAddr.Hex()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := vm.currentHead()
			r, err := vm.childRulesOf(head)
			require.NoError(t, err)
			h, _, err := vm.nextHeader(head.Header(), r, vm.now())
			require.NoError(t, err)
			tt.modify(h)
			blk := types.NewBlock(h, &types.Body{Transactions: types.Transactions{tt.tx}, Withdrawals: []*types.Withdrawal{}}, nil, trie.NewStackTrie(nil))
			b, err := vm.ParseBlock(t.Context(), (&Block{vm: vm.VM, eth: blk}).Bytes())
			require.NoError(t, err)
			require.ErrorContains(t, b.Verify(t.Context()), tt.want)
		})
	}
}
