package evm_test

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// TestBlockGasCost checks the formula of l1-evm.md §3.7 on the worked
// examples of §3.6 (parent cost 400,000, the default fee config) and at
// its edges.
func TestBlockGasCost(t *testing.T) {
	t.Parallel()
	def := l1params.DefaultFeeConfig()
	floor := def.Copy()
	floor.MinBlockGasCost = big.NewInt(100_000)
	huge := def.Copy()
	huge.BlockGasCostStep = new(big.Int).Lsh(big.NewInt(1), 100)
	huge.MaxBlockGasCost = big.NewInt(math.MaxInt64)
	ptr := func(v uint64) *uint64 { return &v }
	tests := []struct {
		name    string
		f       l1params.FeeConfig
		parent  *uint64
		elapsed uint64
		want    uint64
	}{
		{"Δ 2 (on target)", def, ptr(400_000), 2, 400_000},
		{"Δ 0", def, ptr(400_000), 0, 800_000},
		{"Δ 1", def, ptr(400_000), 1, 600_000},
		{"Δ 5", def, ptr(400_000), 5, 0},
		{"Δ 25", def, ptr(400_000), 25, 0},
		{"Δ 31", def, ptr(400_000), 31, 0},
		{"no parent cost: the minimum", floor, nil, 0, 100_000},
		{"clamped to the maximum", def, ptr(900_000), 0, 1_000_000},
		{"clamped to the minimum", floor, ptr(150_000), 3, 100_000},
		{"zero parent, fast block", def, ptr(0), 0, 400_000},
		{"step overflow saturates to the maximum", huge, ptr(1), 1, math.MaxInt64},
		{"step underflow saturates to the minimum", huge, ptr(math.MaxUint64), 3, 0},
		{"huge gap", def, ptr(400_000), math.MaxUint64, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, evm.BlockGasCost(&tt.f, tt.parent, tt.elapsed))
		})
	}
}

// preGraniteUpgrade moves the test L1's Granite to 100 s after its
// genesis, so that its first blocks pay a block gas cost.
var preGraniteUpgrade = []byte(`{"networkUpgradeOverrides":{"graniteTimestamp":1700000100}}`)

// blockGasCost returns blockGasCost of eth_getBlockByNumber and
// eth_getHeaderByNumber at height n, which must agree.
func (n *l1Node) blockGasCost(t *testing.T, height uint64) string {
	t.Helper()
	var blk, hdr map[string]any
	num := "0x" + big.NewInt(int64(height)).Text(16)
	require.NoError(t, n.rpc.Call(&blk, "eth_getBlockByNumber", num, false))
	require.NoError(t, n.rpc.Call(&hdr, "eth_getHeaderByNumber", num))
	require.Equal(t, blk["blockGasCost"], hdr["blockGasCost"])
	s, _ := blk["blockGasCost"].(string)
	return s
}

// drainWork empties the VM's work channel.
func (n *l1Node) drainWork() {
	select {
	case <-n.vm.WorkReady():
	default:
	}
}

// requireWoken waits until the VM signals work to its builder.
func (n *l1Node) requireWoken(t *testing.T) {
	t.Helper()
	require.Eventually(t, func() bool {
		select {
		case <-n.vm.WorkReady():
			return true
		default:
			return false
		}
	}, 10*time.Second, 20*time.Millisecond)
}

// accept verifies and accepts blk as the pipeline does.
func (n *l1Node) accept(t *testing.T, blk chains.Block) *types.Block {
	t.Helper()
	chainstest.VerifyAccept(t, n.vm, n.db, blk)
	return blk.(*evm.Block).Eth()
}

// TestL1BlockGasCostBeforeGranite follows l1-evm.md §3.7 on an L1 whose
// Granite is in the future: a fast block needs high tips, a low tip waits
// until the cost has come down (the builder is woken then), blocks from
// bytes are held to the block fee check, the cost shows in the block JSON
// and survives a restart, and after Granite it is 0 again.
func TestL1BlockGasCostBeforeGranite(t *testing.T) {
	t.Parallel()
	n, restart := newRestartableL1(t, preGraniteUpgrade)
	clk, ctx := n.clk, t.Context()
	admin, enabled := l1Key(t, "admin"), l1Key(t, "enabled")
	to := common.HexToAddress("0x00000000000000000000000000000000000000f3")
	gwei := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(params1Gwei)) }
	nonce := func(name string) uint64 {
		nc, err := n.client.PendingNonceAt(ctx, l1Addr(t, name))
		require.NoError(t, err)
		return nc
	}

	// The genesis (Etna active) has cost 0, so 10 s later the cost is 0.
	require.Equal(t, "0x0", n.blockGasCost(t, 0))
	n.mustSend(t, admin, &to, 21_000, nil)
	b1 := n.build(t)
	require.Equal(t, big.NewInt(25*params1Gwei), b1.BaseFee())
	require.Equal(t, "0x0", n.blockGasCost(t, 1))

	// In the same second the cost is 0 + 2·200,000: a 500 gwei tip pays
	// 500·21,000/25 = 420,000 gas of block fee.
	_, err := n.sendNonce(t, admin, nonce("admin"), gwei(500), &to, nil, 21_000, nil)
	require.NoError(t, err)
	built, err := n.vm.BuildBlock(ctx)
	require.NoError(t, err)
	// A built block that claims another cost is refused.
	evm.SetGasCost(built.(*evm.Block), 1)
	require.EqualError(t, built.Verify(ctx), "invalid block gas cost: have 1, want 400000")
	evm.SetGasCost(built.(*evm.Block), 400_000)
	n.accept(t, built)
	require.Equal(t, "0x61a80", n.blockGasCost(t, 2))
	n.stop()

	// After a restart the cost of block 2 is still known, and its child
	// in the same second costs 800,000.
	n, err = restart(preGraniteUpgrade)
	require.NoError(t, err)
	require.Equal(t, "0x61a80", n.blockGasCost(t, 2))
	low, err := n.sendNonce(t, enabled, nonce("enabled"), gwei(1), &to, nil, 21_000, nil)
	require.NoError(t, err)
	_, err = n.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)

	// The same block from elsewhere, built without the check, is refused.
	bad, err := n.vm.BuildBlockNoFeeCheck(ctx)
	require.NoError(t, err)
	parsed, err := n.vm.ParseBlock(ctx, bad.Bytes())
	require.NoError(t, err)
	require.EqualError(t, parsed.Verify(ctx), "insufficient gas to cover the block cost: expected 800000 but got 840")

	// 3 s later the cost is 200,000, still above the 840 gas the 1 gwei
	// tip pays; at 4 s it is 0, and the builder is woken for it.
	clk.Advance(3 * time.Second)
	n.drainWork()
	_, err = n.vm.BuildBlock(ctx)
	require.ErrorIs(t, err, chains.ErrNoWork)
	clk.Advance(time.Second)
	n.requireWoken(t)
	b3 := n.build(t)
	require.Equal(t, uint64(l1GenesisTime+14), b3.Time())
	require.Equal(t, low.Hash(), b3.Transactions()[0].Hash())
	require.Equal(t, types.ReceiptStatusSuccessful, n.receipt(t, low).Status)
	require.Equal(t, "0x0", n.blockGasCost(t, 3))

	// From Granite on the cost is 0: low tips go in back to back.
	clk.Set(time.Unix(1_700_000_100, 0))
	for range 2 {
		n.mustSend(t, enabled, &to, 21_000, nil)
		blk := n.build(t)
		require.Equal(t, "0x0", n.blockGasCost(t, blk.NumberU64()))
	}
}
