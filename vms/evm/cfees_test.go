package evm_test

import (
	"encoding/json"
	"log/slog"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/acp176"
)

// cChainGenesisTime is the local C-Chain genesis's timestamp, which is also Fortuna's time on
// local networks.
const cChainGenesisTime = 0x5FCB13D0

// startCChain opens the C-Chain of the local genesis in dir on clk with the upgrade schedule
// upgrades (nil: the local network's), driven by the test as l1Node drives an L1.
func startCChain(t *testing.T, dir string, clk *clock.Fake, upgrades *config.Upgrades) *l1Node {
	t.Helper()
	return startCChainWith(t, dir, clk, evm.Config{Upgrades: upgrades}, nil)
}

// startCChainWith is startCChain with the VM config cfg and the chain's config.json file (nil:
// none).
func startCChainWith(t *testing.T, dir string, clk *clock.Fake, cfg evm.Config, file []byte) *l1Node {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	vm, err := evm.New(t.Context(), cfg, chains.Context{
		NetworkID: config.LocalID,
		Chain:     chains.Chain{ID: cChainID, Name: "C-Chain"},
		Genesis:   cChainGenesis(t),
		Config:    file,
		DB:        db.Prefixed(storage.PrefixEVM),
		Log:       log,
		Clock:     clk,
	})
	require.NoError(t, err)
	return serveVM(t, db, vm, clk)
}

// cSend sends a transfer of 1 wei to to from the funded key, with the next pending nonce, a
// 1 wei tip and a 25 gwei fee cap.
func cSend(t *testing.T, n *l1Node, to common.Address) {
	t.Helper()
	nonce, err := n.client.PendingNonceAt(t.Context(), fundedAddr)
	require.NoError(t, err)
	require.NoError(t, n.vm.SendTx(types.MustSignNewTx(fundedKey(t), types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(25_000_000_000),
		Gas: 21_000, To: &to, Value: big.NewInt(1),
	})))
}

// feeState is the ACP-176 state a C-Chain block's Extra carries.
func feeState(t *testing.T, h *types.Header) acp176.State {
	t.Helper()
	require.Len(t, h.Extra, acp176.StateSize)
	s, err := acp176.ParseState(h.Extra)
	require.NoError(t, err)
	return s
}

// TestACP176Burst sends 4,000 transfers pre-signed with a fee cap of 25 gwei at once, as the
// issue's side-by-side run did, and builds blocks as fast as the capacity allows, a second at a
// time: every transfer is accepted, no block passes the capacity, the base fee stays within a
// few wei of ACP-176's 1 wei minimum, and the fee state survives a restart in the middle.
func TestACP176Burst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(time.Unix(cChainGenesisTime+1000, 0))
	n := startCChain(t, dir, clk, nil)
	ctx := t.Context()
	key, to := fundedKey(t), common.HexToAddress("0x00000000000000000000000000000000000000f4")
	signer := types.LatestSignerForChainID(chainID)
	const total = 4000
	txs := make([]*types.Transaction, total)
	for i := range txs {
		txs[i] = types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: uint64(i), GasTipCap: big.NewInt(0), GasFeeCap: big.NewInt(25_000_000_000),
			Gas: 21_000, To: &to, Value: big.NewInt(1),
		})
	}
	for _, tx := range txs {
		require.NoError(t, n.vm.SendTx(tx))
	}

	parent, err := n.client.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	var (
		included   int
		maxBaseFee uint64
		restarted  bool
		start      = clk.Now()
	)
	for included < total {
		blk, err := n.vm.BuildBlock(ctx)
		if err != nil {
			// The capacity is spent: it refills by 2M gas a second.
			require.ErrorIs(t, err, chains.ErrNoWork)
			clk.Advance(time.Second)
			continue
		}
		eth := n.accept(t, blk)
		h := eth.Header()
		// The state before the block is the parent's, advanced to its time.
		before := acp176.State{}
		if parent.Number.Sign() > 0 {
			before = feeState(t, parent)
		}
		before.AdvanceSeconds(h.Time - parent.Time)
		require.Equal(t, before.GasPrice(), h.BaseFee.Uint64(), "block %d base fee", h.Number)
		require.Equal(t, uint64(10_000_000), h.GasLimit, "block %d gas limit", h.Number)
		require.LessOrEqual(t, h.GasUsed, before.Capacity, "block %d gas used", h.Number)
		after := before
		require.NoError(t, after.ConsumeGas(h.GasUsed))
		require.Equal(t, after, feeState(t, h), "block %d fee state", h.Number)
		maxBaseFee = max(maxBaseFee, h.BaseFee.Uint64())
		included += len(eth.Transactions())
		parent = h

		if included >= total/2 && !restarted {
			restarted = true
			// Restart in the middle: the next base fee is the same.
			var want hexutil.Big
			require.NoError(t, n.rpc.Call(&want, "eth_baseFee"))
			n.stop()
			n = startCChain(t, dir, clk, nil)
			var got hexutil.Big
			require.NoError(t, n.rpc.Call(&got, "eth_baseFee"))
			require.Equal(t, want.ToInt(), got.ToInt())
			for _, tx := range txs[included:] {
				require.NoError(t, n.vm.SendTx(tx))
			}
		}
	}
	require.Equal(t, total, included)
	// 84M gas: the first 10M at once, then 2M a second.
	elapsed := clk.Now().Sub(start)
	require.InDelta(t, 37, elapsed.Seconds(), 1)
	// At full use the excess grows by the target, 1M gas a second: after 37 s it is about
	// 47M, and the price e^(47/87) ≈ 1.7 wei.
	require.LessOrEqual(t, maxBaseFee, uint64(2))
	nonce, err := n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(total), nonce)
}

// TestACP176BlocksFromElsewhere: a block from bytes is held to ACP-176 (its base fee, its
// gas against the capacity, the fee state in its Extra), and its builder may move the target
// excess by at most 2^15.
func TestACP176BlocksFromElsewhere(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Unix(cChainGenesisTime+1000, 0))
	n := startCChain(t, t.TempDir(), clk, nil)
	ctx := t.Context()
	cSend(t, n, common.HexToAddress("0xf5"))
	built, err := n.vm.BuildBlockNoFeeCheck(ctx)
	require.NoError(t, err)
	eth := built.Eth()
	state := feeState(t, eth.Header())
	require.Equal(t, acp176.State{Capacity: 10_000_000 - 21_000, Excess: 21_000}, state)

	moved := acp176.State{Capacity: state.Capacity, Excess: state.Excess * 1_000_977 / 1_000_000, TargetExcess: acp176.MaxTargetExcessDiff}
	reseal := func(modify func(h *types.Header)) chains.Block {
		t.Helper()
		h := eth.Header()
		modify(h)
		b, err := rlp.EncodeToBytes(eth.WithSeal(h))
		require.NoError(t, err)
		blk, err := n.vm.ParseBlock(ctx, b)
		require.NoError(t, err)
		return blk
	}
	withState := func(s acp176.State) func(h *types.Header) {
		return func(h *types.Header) { h.Extra = s.Bytes() }
	}
	for _, tc := range []struct {
		name   string
		modify func(h *types.Header)
		want   string
	}{
		{"base fee", func(h *types.Header) { h.BaseFee = big.NewInt(2) }, "invalid base fee: have 2, want 1"},
		{"gas limit", func(h *types.Header) { h.GasLimit = 8_000_000 }, "invalid gas limit: have 8000000, want 10000000"},
		{"gas used past the capacity", func(h *types.Header) { h.GasUsed = 10_000_001 },
			"invalid gas used: insufficient gas capacity: 10000001 gas used, capacity 10000000"},
		{"excess", withState(acp176.State{Capacity: state.Capacity, Excess: state.Excess + 1}),
			"invalid extra: have " + hexOf(acp176.State{Capacity: state.Capacity, Excess: state.Excess + 1}) + ", want " + hexOf(state)},
		{"target excess moved too far", withState(acp176.State{Capacity: state.Capacity, Excess: state.Excess, TargetExcess: acp176.MaxTargetExcessDiff + 1}),
			"invalid extra: have " + hexOf(acp176.State{Capacity: state.Capacity, Excess: state.Excess, TargetExcess: acp176.MaxTargetExcessDiff + 1}) +
				", want " + hexOf(moved)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.EqualError(t, reseal(tc.modify).Verify(ctx), tc.want)
		})
	}

	// A builder that votes for a higher target moves the target excess by up to 2^15; the
	// excess scales with the target (1,000,977 gas a second at 2^15).
	blk := reseal(withState(moved))
	n.accept(t, blk)
	head, err := n.client.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, blk.ID(), ids.ID(head.Hash()))
	// Its children's gas limit follows the new target.
	cSend(t, n, common.HexToAddress("0xf5"))
	require.Equal(t, uint64(10_009_770), n.build(t).GasLimit())
}

// TestACP176GasTarget: with gas-target in the C-Chain's config.json and developer methods off,
// the reference's rule holds exactly: each block this node builds moves the target excess by
// 2^15 toward the smallest one whose target reaches the preference (up, then, after a restart
// with a lower preference, down), the excess scaled with the target and the gas limit of the
// next block following it.
func TestACP176GasTarget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(time.Unix(cChainGenesisTime+1000, 0))
	n := startCChainWith(t, dir, clk, evm.Config{}, []byte(`{"gas-target": 2000000}`))
	to := common.HexToAddress("0xf7")
	step := func(want uint64) *types.Block {
		t.Helper()
		head, err := n.client.HeaderByNumber(t.Context(), nil)
		require.NoError(t, err)
		var before acp176.State
		if head.Number.Sign() > 0 {
			before = feeState(t, head)
		}
		cSend(t, n, to)
		clk.Advance(time.Second)
		b := n.build(t)
		before.AdvanceSeconds(b.Time() - head.Time)
		require.Equal(t, before.MaxCapacity(), b.GasLimit(), "block %d gas limit", b.Number())
		after := before
		require.NoError(t, after.ConsumeGas(b.GasUsed()))
		after.UpdateTargetExcess(acp176.DesiredTargetExcess(2_000_000))
		require.Equal(t, want, feeState(t, b.Header()).TargetExcess, "block %d target excess", b.Number())
		require.Equal(t, after, feeState(t, b.Header()), "block %d fee state", b.Number())
		return b
	}
	for i := range uint64(3) {
		step((i + 1) * acp176.MaxTargetExcessDiff)
	}
	n.stop()

	// A preference below the parent's target: down by 2^15.
	n = startCChainWith(t, dir, clk, evm.Config{}, []byte(`{"gas-target": 1000000}`))
	cSend(t, n, to)
	clk.Advance(time.Second)
	require.Equal(t, uint64(2*acp176.MaxTargetExcessDiff), feeState(t, n.build(t).Header()).TargetExcess)
}

// TestACP176DevTarget: with developer methods on, the C-Chain's first block sets the target
// excess to the one of DevGasTarget in one step, so that the burst TestACP176Burst takes 37 s
// at the reference's target is in by the next second, at the minimum price; gas-target in
// config.json replaces DevGasTarget; and a block from elsewhere may move the target any distance.
func TestACP176DevTarget(t *testing.T) {
	t.Parallel()
	dev := acp176.DesiredTargetExcess(evm.DevGasTarget)
	require.Equal(t, uint64(231_785_805), dev) // acp176's vector high_1b_target
	clk := clock.NewFake(time.Unix(cChainGenesisTime+1000, 0))
	n := startCChainWith(t, t.TempDir(), clk, evm.Config{DevMethods: true}, nil)
	ctx := t.Context()
	key, to := fundedKey(t), common.HexToAddress("0x00000000000000000000000000000000000000f8")
	signer := types.LatestSignerForChainID(chainID)
	const total = 4000
	for i := range total {
		require.NoError(t, n.vm.SendTx(types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: uint64(i), GasTipCap: big.NewInt(0), GasFeeCap: big.NewInt(25_000_000_000),
			Gas: 21_000, To: &to, Value: big.NewInt(1),
		})))
	}
	// The first block: the genesis's capacity (10M gas at the reference's first target), and
	// after it the target of DevGasTarget.
	b1 := n.build(t)
	require.Equal(t, big.NewInt(1), b1.BaseFee())
	require.Equal(t, uint64(10_000_000), b1.GasLimit())
	require.Len(t, b1.Transactions(), 10_000_000/21_000)
	s1 := feeState(t, b1.Header())
	require.Equal(t, dev, s1.TargetExcess)
	require.Equal(t, uint64(evm.DevGasTarget+6), s1.Target())
	// A second later the capacity has 2G gas more: the rest goes in one block.
	clk.Advance(time.Second)
	b2 := n.build(t)
	require.Equal(t, big.NewInt(1), b2.BaseFee())
	require.Equal(t, 10*s1.Target(), b2.GasLimit())
	require.Len(t, b2.Transactions(), total-len(b1.Transactions()))
	require.Equal(t, dev, feeState(t, b2.Header()).TargetExcess)
	nonce, err := n.client.NonceAt(ctx, fundedAddr, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(total), nonce)
	var baseFee hexutil.Big
	require.NoError(t, n.rpc.Call(&baseFee, "eth_baseFee"))
	require.Equal(t, big.NewInt(1), baseFee.ToInt(), "the excess of 84M gas is nothing at this target")

	// A block from elsewhere may set any target excess; the next one this node builds moves it
	// back at once.
	cSend(t, n, to)
	built, err := n.vm.BuildBlockNoFeeCheck(ctx)
	require.NoError(t, err)
	h := built.Eth().Header()
	state := feeState(t, h)
	state.MoveTargetExcess(7, math.MaxUint64)
	h.Extra = state.Bytes()
	raw, err := rlp.EncodeToBytes(built.Eth().WithSeal(h))
	require.NoError(t, err)
	blk, err := n.vm.ParseBlock(ctx, raw)
	require.NoError(t, err)
	require.Equal(t, uint64(7), feeState(t, n.accept(t, blk).Header()).TargetExcess)
	cSend(t, n, to)
	require.Equal(t, dev, feeState(t, n.build(t).Header()).TargetExcess)

	// gas-target replaces DevGasTarget, still in one step.
	n = startCChainWith(t, t.TempDir(), clk, evm.Config{DevMethods: true}, []byte(`{"gas-target": 3000000}`))
	cSend(t, n, to)
	require.Equal(t, uint64(36_863_312), feeState(t, n.build(t).Header()).TargetExcess) // acp176's vector 3m_target
}

// hexOf is s's encoding as the invalid-extra text shows it.
func hexOf(s acp176.State) string { return common.Bytes2Hex(s.Bytes()) }

// TestACP176FromFortuna: before Fortuna the C-Chain's base fee follows the window of its fee
// config (25 gwei, 8M gas, an 80-byte Extra); the first block from Fortuna on starts ACP-176
// from an empty state, and so does the first block after a restart on a chain whose blocks
// were priced by the window past Fortuna (a data directory of a cornice before ACP-176).
func TestACP176FromFortuna(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(time.Unix(cChainGenesisTime+1000, 0))
	upgrades := config.UpgradesFor(config.LocalID)
	upgrades.FortunaTime = time.Unix(cChainGenesisTime+2000, 0).UTC()
	n := startCChain(t, dir, clk, &upgrades)
	to := common.HexToAddress("0xf6")
	window := func() *types.Block {
		cSend(t, n, to)
		return n.build(t)
	}
	b1 := window()
	require.Equal(t, big.NewInt(25_000_000_000), b1.BaseFee())
	require.Equal(t, uint64(8_000_000), b1.GasLimit())
	require.Len(t, b1.Extra(), 80)

	clk.Set(time.Unix(cChainGenesisTime+2000, 0))
	cSend(t, n, to)
	b2 := n.build(t)
	require.Equal(t, big.NewInt(1), b2.BaseFee())
	require.Equal(t, uint64(10_000_000), b2.GasLimit())
	require.Equal(t, acp176.State{Capacity: 10_000_000 - 21_000, Excess: 21_000}, feeState(t, b2.Header()))
	n.stop()

	// A chain whose blocks past Fortuna carry the window: its next block starts from an
	// empty state.
	never := config.UpgradesFor(config.LocalID)
	never.FortunaTime = time.Date(9999, time.December, 1, 0, 0, 0, 0, time.UTC)
	dir = t.TempDir()
	n = startCChain(t, dir, clk, &never)
	require.Len(t, window().Extra(), 80)
	n.stop()
	n = startCChain(t, dir, clk, nil)
	cSend(t, n, to)
	// In the same second the empty state has no capacity yet: the builder is woken a second
	// later, when 2M gas have come in; 5 s fill it.
	n.drainWork()
	_, err := n.vm.BuildBlock(t.Context())
	require.ErrorIs(t, err, chains.ErrNoWork)
	n.requireWoken(t)
	clk.Advance(5 * time.Second)
	b := n.build(t)
	require.Equal(t, big.NewInt(1), b.BaseFee())
	require.Equal(t, acp176.State{Capacity: 10_000_000 - 21_000, Excess: 21_000}, feeState(t, b.Header()))
}

// TestCChainGetChainConfig: eth_getChainConfig on the local C-Chain answers the reference's
// C-Chain keys, its Avalanche upgrade times by name from the network's schedule, sorted, with
// no "upgrades"; it takes no argument.
func TestCChainGetChainConfig(t *testing.T) {
	t.Parallel()
	n := startCChain(t, t.TempDir(), clock.NewFake(time.Unix(cChainGenesisTime+1000, 0)), nil)
	var got json.RawMessage
	require.NoError(t, n.rpc.Call(&got, "eth_getChainConfig"))
	const local = "1607144400"
	require.Equal(t, `{"apricotPhase1BlockTimestamp":`+local+`,"apricotPhase2BlockTimestamp":`+local+
		`,"apricotPhase3BlockTimestamp":`+local+`,"apricotPhase4BlockTimestamp":`+local+
		`,"apricotPhase5BlockTimestamp":`+local+`,"apricotPhase6BlockTimestamp":`+local+
		`,"apricotPhasePost6BlockTimestamp":`+local+`,"apricotPhasePre6BlockTimestamp":`+local+
		`,"banffBlockTimestamp":`+local+`,"berlinBlock":0,"byzantiumBlock":0,"cancunTime":`+local+
		`,"chainId":43112,"constantinopleBlock":0,"cortinaBlockTimestamp":`+local+
		`,"daoForkBlock":0,"daoForkSupport":true,"durangoBlockTimestamp":`+local+
		`,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0"`+
		`,"eip155Block":0,"eip158Block":0,"etnaTimestamp":`+local+`,"fortunaTimestamp":`+local+
		`,"graniteTimestamp":`+local+`,"heliconTimestamp":253399622400,"homesteadBlock":0,"istanbulBlock":0`+
		`,"londonBlock":0,"muirGlacierBlock":0,"petersburgBlock":0,"shanghaiTime":`+local+`}`, string(got))

	_, err := n.raw(t, "eth_getChainConfig", 1)
	require.EqualError(t, err, "too many arguments, want at most 0")

	// Another schedule shows its own times.
	u := config.UpgradesFor(config.LocalID)
	u.FortunaTime = time.Unix(1_800_000_000, 0)
	n = startCChain(t, t.TempDir(), clock.NewFake(time.Unix(cChainGenesisTime+1000, 0)), &u)
	require.NoError(t, n.rpc.Call(&got, "eth_getChainConfig"))
	require.Contains(t, string(got), `"fortunaTimestamp":1800000000,`)
}

// TestCChainHeaderFields: C-Chain block and header JSON carry coreth's fields, with our chain's
// values: no block gas cost (the post-Granite rule), no atomic transactions.
func TestCChainHeaderFields(t *testing.T) {
	t.Parallel()
	n := startCChain(t, t.TempDir(), clock.NewFake(time.Unix(cChainGenesisTime+1000, 0)), nil)
	cSend(t, n, common.HexToAddress("0xf7"))
	n.build(t)
	const emptyExtDataHash = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
	for _, num := range []string{"0x0", "0x1"} {
		var blk, hdr map[string]any
		require.NoError(t, n.rpc.Call(&blk, "eth_getBlockByNumber", num, false))
		require.NoError(t, n.rpc.Call(&hdr, "eth_getHeaderByNumber", num))
		for _, m := range []map[string]any{blk, hdr} {
			require.Equal(t, "0x0", m["blockGasCost"], num)
			require.Equal(t, "0x0", m["extDataGasUsed"], num)
			require.Equal(t, emptyExtDataHash, m["extDataHash"], num)
		}
		require.Equal(t, "0x", blk["blockExtraData"], num)
		require.NotContains(t, hdr, "blockExtraData", num)
	}
}
