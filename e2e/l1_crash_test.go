package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
)

// Crash safety of L1 chains, end to end (DESIGN.md: a crash leaves the whole block or none of
// it). A node process as `cornice run` builds it, with the Subnet-EVM VM, is re-executed from the
// test binary (TestL1KillChild) and killed with SIGKILL at random moments, then restarted on the
// same data dir:
//   - TestL1Kill kills it while an L1 accepts transfers, mints and fee-config changes, and checks
//     after each restart that the L1's head, index, balances, nonces and fee config are those of
//     its accepted blocks, every receipt a client saw before the kill included;
//   - TestL1KillCreate kills it while `cornice l1 create` makes an L1, and checks that the chain
//     comes up once from the P-Chain's state and that `l1 create` and `run --l1` then reuse it.
// Both log their seed; l1KillSeedEnv replays a run's kill times.

const (
	// l1KillSeedEnv replays a run of TestL1Kill or TestL1KillCreate: each logs its seed.
	l1KillSeedEnv = "CORNICE_L1KILL_SEED"
	// l1KillWait bounds every wait of these tests on one node process.
	l1KillWait = 60 * time.Second
)

// TestL1KillChild is not a test on its own: it is the node process of TestL1Kill and
// TestL1KillCreate, which start it with nodetest. It runs a node with the VMs of `cornice run`
// and serves until the test stops or kills it.
func TestL1KillChild(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = nodetest.Dir(t)
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	n, err := node.New(cfg, nodetest.Logger(), vmset.For(cfg))
	require.NoError(t, err)
	nodetest.Serve(t, n)
}

// l1KillChild is one node process and the parent's clients of it.
type l1KillChild struct {
	*nodetest.Child
	base   string
	client *wallet.Client
	// hc is the parent's HTTP client for this process, with a transport of its own.
	hc *http.Client
}

// startL1KillChild starts a node process over dir and waits for it to serve.
func startL1KillChild(t *testing.T, dir string) *l1KillChild {
	t.Helper()
	c := &l1KillChild{
		Child: nodetest.Start(t, nodetest.Config{Test: "TestL1KillChild", Dir: dir, StartWait: l1KillWait}),
		hc:    &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
	}
	c.base = c.URL()
	var err error
	c.client, err = wallet.NewClient(c.base, c.hc)
	require.NoError(t, err)
	return c
}

// kill ends the process with SIGKILL and drops the connections to it.
func (c *l1KillChild) kill() {
	c.Kill()
	c.hc.CloseIdleConnections()
}

// stop asks the process to stop gracefully and waits for it.
func (c *l1KillChild) stop(t *testing.T) {
	t.Helper()
	c.hc.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections() // see xNode.stop
	c.Stop(t)
}

func (c *l1KillChild) call(t *testing.T, path, method string, params, result any) {
	t.Helper()
	require.NoError(t, c.client.Call(t.Context(), path, method, params, result), "%s %s", path, method)
}

// l1KillSeed returns the seed of the run, from l1KillSeedEnv if it is set, and logs it.
func l1KillSeed(t *testing.T) *rand.Rand {
	t.Helper()
	seed := uint64(clock.Real{}.Now().UnixNano())
	if s := os.Getenv(l1KillSeedEnv); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
	}
	t.Logf("seed %d (replay the kill times with %s=%d)", seed, l1KillSeedEnv, seed)
	return rand.New(rand.NewPCG(seed, seed>>32))
}

// startKillTest begins a test that kills a node process kills times (skipped with -short,
// parallel to others): it returns the random source of the kill times (l1KillSeed), a data dir
// for the node, and the local funded key.
func startKillTest(t *testing.T, kills int) (*rand.Rand, string, *wallet.Key) {
	t.Helper()
	if testing.Short() {
		t.Skipf("kills and restarts a node process %d times", kills)
	}
	t.Parallel()
	return l1KillSeed(t), t.TempDir(), localKey(t)
}

// pause waits d on the real clock; false if ctx ended first.
func pause(ctx context.Context, d time.Duration) bool {
	timer := clock.Real{}.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// What TestL1Kill sends: the fixture keys "enabled", "manager" and "none" each send transfers to
// a recipient of their own; "admin" alternates mintNativeCoin to l1KillMinted and setFeeConfig.
var (
	l1KillSenders    = []string{"enabled", "manager", "none"}
	l1KillRecipients = map[string]common.Address{
		"enabled": common.HexToAddress("0x00000000000000000000000000000000000c0de1"),
		"manager": common.HexToAddress("0x00000000000000000000000000000000000c0de2"),
		"none":    common.HexToAddress("0x00000000000000000000000000000000000c0de3"),
	}
	l1KillMinted = common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	// l1KillFunds is what each fixture key holds at genesis: 1000 coins.
	l1KillFunds = new(big.Int).Mul(big.NewInt(1000), l1Coin)
)

const (
	// l1KillChainID is the L1's EVM chain ID: the fixture genesis with its own chain ID.
	l1KillChainID = 77741
	// l1KillPipeline is how many transactions a sender sends before it waits for the last one's
	// receipt.
	l1KillPipeline = 8
	// l1KillFeeCap is the fee cap of every transaction: far above any base fee the load reaches.
	l1KillFeeCap = 2_000_000_000_000
	// l1KillTargetGas is the L1's targetGas: the fixture's 15M gas per 10 s is reached in a few
	// milliseconds of this test's load, after which the base fee climbs by up to 1/36 a block,
	// out of any fee cap in a second.
	l1KillTargetGas = 100_000_000_000
)

// l1KillTx is the nonce-th transaction a driver sends from name.
func l1KillTx(t testing.TB, chainID *big.Int, name string, nonce uint64) *types.Transaction {
	var (
		to    common.Address
		data  []byte
		value = new(big.Int)
		gas   uint64
	)
	switch {
	case name != "admin":
		to, value, gas = l1KillRecipients[name], new(big.Int).SetUint64(nonce+1), 21_000
	case nonce%2 == 0:
		to, gas = l1params.NativeMinterAddress, 200_000
		data = pack(t, precompile.NativeMinterABI(), "mintNativeCoin", l1KillMinted, new(big.Int).SetUint64(1000+nonce))
	default:
		// Only targetGas and blockGasCostStep change, so the chain's fees stay as they were.
		u := func(n uint64) *big.Int { return new(big.Int).SetUint64(n) }
		to, gas = l1params.FeeManagerAddress, 400_000
		data = pack(t, precompile.FeeManagerABI(), "setFeeConfig", u(8_000_000), u(2), u(l1MinBaseFee),
			u(l1KillTargetGas+nonce), u(36), u(0), u(1_000_000), u(200_000+nonce))
	}
	tx, err := types.SignNewTx(l1Key(t, name), types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID:   chainID,
		Nonce:     nonce,
		GasTipCap: big.NewInt(l1GasTip),
		GasFeeCap: big.NewInt(l1KillFeeCap),
		Gas:       gas,
		To:        &to,
		Value:     value,
		Data:      data,
	})
	require.NoError(t, err)
	return tx
}

// l1KillDriver sends the transactions of TestL1Kill to one node process until it is killed.
type l1KillDriver struct {
	t       *testing.T
	chainID *big.Int

	mu sync.Mutex
	// confirmed holds every transaction whose receipt (or a later nonce's receipt) a client saw:
	// it must survive any crash.
	confirmed map[common.Hash]bool
	// errs are the errors the node answered with: none is expected.
	errs []error
}

// drive starts one goroutine per sender on the L1 at rpcURL; they stop when ctx is done or the
// node stops answering.
func (d *l1KillDriver) drive(ctx context.Context, wg *sync.WaitGroup, hc *http.Client, rpcURL string) {
	for _, name := range append([]string{"admin"}, l1KillSenders...) {
		wg.Go(func() { d.send(ctx, hc, rpcURL, name) })
	}
}

func (d *l1KillDriver) send(ctx context.Context, hc *http.Client, rpcURL, name string) {
	rc, err := rpc.DialOptions(ctx, rpcURL, rpc.WithHTTPClient(hc))
	if err != nil {
		d.fail(ctx, err)
		return
	}
	defer rc.Close()
	eth := ethclient.NewClient(rc)
	from := l1Addr(d.t, name)
	nonce, err := eth.NonceAt(ctx, from, nil)
	if err != nil {
		d.fail(ctx, err)
		return
	}
	for ctx.Err() == nil {
		var batch []common.Hash
		for range l1KillPipeline {
			tx := l1KillTx(d.t, d.chainID, name, nonce)
			if err := eth.SendTransaction(ctx, tx); err != nil {
				d.fail(ctx, fmt.Errorf("send %s's nonce %d: %w", name, nonce, err))
				return
			}
			batch = append(batch, tx.Hash())
			nonce++
		}
		for {
			_, err := eth.TransactionReceipt(ctx, batch[len(batch)-1])
			if err == nil {
				break
			}
			if !errors.Is(err, ethereum.NotFound) {
				d.fail(ctx, err)
				return
			}
			if !pause(ctx, 2*time.Millisecond) {
				return
			}
		}
		// The sender's transactions are accepted in nonce order: the last one's receipt
		// vouches for the whole batch.
		d.mu.Lock()
		for _, h := range batch {
			d.confirmed[h] = true
		}
		d.mu.Unlock()
	}
}

// fail records err if the node answered it: a killed node's errors (refused or reset
// connections) are expected.
func (d *l1KillDriver) fail(ctx context.Context, err error) {
	if _, ok := errors.AsType[rpc.Error](err); !ok || ctx.Err() != nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.errs = append(d.errs, err)
}

// l1KillState is what TestL1Kill has seen of the L1 after each restart: its accepted blocks in
// index order (height 1 on), their receipts, and what they add up to.
type l1KillState struct {
	blockchainID ids.ID
	chainID      *big.Int
	// chainConfig is the body of eth_getChainConfig after the L1 was created.
	chainConfig string
	blocks      []*types.Block
	// entries are the index's containers, as read after the previous restart.
	entries []index.Container
	// tot is what blocks add up to.
	tot *l1KillTotals
}

// l1KillTotals is what the accepted blocks add up to.
type l1KillTotals struct {
	nonces   map[common.Address]uint64
	spent    map[common.Address]*big.Int
	received map[common.Address]*big.Int
	minted   *big.Int
	// feeBlock is the last block with a setFeeConfig, 0 if none; feeInput its arguments.
	feeBlock uint64
	feeInput []byte
	txs      map[common.Hash]bool
	mints    int
	feeSets  int
}

// l1KillFeeConfig is eth_feeConfig's result.
type l1KillFeeConfig struct {
	FeeConfig struct {
		GasLimit                 uint64 `json:"gasLimit"`
		TargetBlockRate          uint64 `json:"targetBlockRate"`
		MinBaseFee               uint64 `json:"minBaseFee"`
		TargetGas                uint64 `json:"targetGas"`
		BaseFeeChangeDenominator uint64 `json:"baseFeeChangeDenominator"`
		MinBlockGasCost          uint64 `json:"minBlockGasCost"`
		MaxBlockGasCost          uint64 `json:"maxBlockGasCost"`
		BlockGasCostStep         uint64 `json:"blockGasCostStep"`
	} `json:"feeConfig"`
	LastChangedAt uint64 `json:"lastChangedAt"`
}

// readIndex returns every container of the index at path, checking that they run without a gap
// up to getLastAccepted's; none when the index is empty.
func (c *l1KillChild) readIndex(t *testing.T, path string) []index.Container {
	t.Helper()
	var last index.Container
	err := c.client.Call(t.Context(), path, "index.getLastAccepted", index.GetLastAcceptedArgs{Encoding: ids.HexNC}, &last)
	if err != nil && strings.Contains(err.Error(), "no containers have been accepted") {
		return nil
	}
	require.NoError(t, err, path)
	count, err := strconv.ParseUint(last.Index, 10, 64)
	require.NoError(t, err)
	count++
	var out []index.Container
	for start := uint64(0); start < count; {
		var reply index.GetContainerRangeReply
		c.call(t, path, "index.getContainerRange", map[string]any{
			"startIndex": strconv.FormatUint(start, 10), "numToFetch": index.MaxFetch, "encoding": "hexnc",
		}, &reply)
		require.NotEmpty(t, reply.Containers)
		out = append(out, reply.Containers...)
		start += uint64(len(reply.Containers))
	}
	require.Len(t, out, int(count))
	require.Equal(t, last, out[len(out)-1], "getLastAccepted is the last of the range")
	return out
}

// check reads the L1 on the node process c after a restart. The chain answers at once, with the
// same chain config; its index is dense and holds every block accepted before, unchanged, plus
// the new ones, each chaining to the one before, the last being the head; every transaction of a
// block has its receipt; balances, nonces and the fee config are what the accepted blocks add
// up to; and every transaction whose receipt a client saw is in a block.
func (st *l1KillState) check(t *testing.T, c *l1KillChild, confirmed map[common.Hash]bool) {
	t.Helper()
	ctx := t.Context()
	rpcURL := c.base + "/ext/bc/" + st.blockchainID.String() + "/rpc"
	rc, err := rpc.DialOptions(ctx, rpcURL, rpc.WithHTTPClient(c.hc))
	require.NoError(t, err)
	defer rc.Close()
	eth := ethclient.NewClient(rc)

	// The chain is made from the P-Chain's state before the node serves.
	id, err := eth.ChainID(ctx)
	require.NoError(t, err, "the L1 answers as soon as the node serves")
	require.Equal(t, st.chainID, id)
	var cfg json.RawMessage
	require.NoError(t, rc.CallContext(ctx, &cfg, "eth_getChainConfig"))
	require.JSONEq(t, st.chainConfig, string(cfg), "the chain config is unchanged")

	// The index: dense, old entries unchanged, new blocks chaining on.
	entries := c.readIndex(t, "/ext/index/"+st.blockchainID.String()+"/block")
	signer := types.LatestSignerForChainID(st.chainID)
	require.GreaterOrEqual(t, len(entries), len(st.entries), "index entries lost")
	for i, e := range entries {
		require.Equal(t, strconv.Itoa(i), e.Index)
		if i < len(st.entries) {
			if st.entries[i] != e {
				require.FailNow(t, "index entry changed across the crash", "index %d: was %+v, is %+v", i, st.entries[i], e)
			}
			continue
		}
		b, err := hexutil.Decode(e.Bytes)
		require.NoError(t, err)
		blk := new(types.Block)
		require.NoError(t, rlp.DecodeBytes(b, blk))
		require.Equal(t, ids.ID(blk.Hash()).String(), e.ID, "index %d: the ID is the block hash", i)
		require.Equal(t, uint64(i+1), blk.NumberU64(), "index %d holds height %d", i, i+1)
		var parent common.Hash
		if i == 0 {
			var genesis struct {
				Hash common.Hash `json:"hash"`
			}
			require.NoError(t, rc.CallContext(ctx, &genesis, "eth_getBlockByNumber", "0x0", false))
			parent = genesis.Hash
		} else {
			parent = st.blocks[i-1].Hash()
		}
		require.Equal(t, parent, blk.ParentHash(), "block %d's parent", blk.NumberU64())
		receipts, err := eth.BlockReceipts(ctx, rpc.BlockNumberOrHashWithHash(blk.Hash(), false))
		require.NoError(t, err, "receipts of block %d", blk.NumberU64())
		require.Len(t, receipts, len(blk.Transactions()), "receipts of block %d", blk.NumberU64())
		for j, r := range receipts {
			require.Equal(t, blk.Transactions()[j].Hash(), r.TxHash)
			require.Equal(t, blk.Hash(), r.BlockHash)
			require.Equal(t, types.ReceiptStatusSuccessful, r.Status, "tx %s of block %d", r.TxHash, blk.NumberU64())
		}
		st.tot.add(t, signer, blk, receipts)
		st.blocks = append(st.blocks, blk)
	}
	st.entries = entries

	// The head is the index's last block.
	var head struct {
		Hash   common.Hash    `json:"hash"`
		Number hexutil.Uint64 `json:"number"`
	}
	require.NoError(t, rc.CallContext(ctx, &head, "eth_getBlockByNumber", "latest", false))
	require.Equal(t, uint64(len(st.blocks)), uint64(head.Number), "the head is the index's last block")
	if len(st.blocks) > 0 {
		require.Equal(t, st.blocks[len(st.blocks)-1].Hash(), head.Hash, "the head is the index's last block")
	}

	// What the accepted blocks add up to.
	tot := st.tot
	for name := range l1KillRecipients {
		from := l1Addr(t, name)
		nonce, err := eth.NonceAt(ctx, from, nil)
		require.NoError(t, err)
		require.Equal(t, tot.nonces[from], nonce, "%s's nonce", name)
		require.Equal(t, tot.received[l1KillRecipients[name]].String(), balanceOf(t, eth, l1KillRecipients[name]).String(), "%s's recipient", name)
	}
	for _, name := range append([]string{"admin"}, l1KillSenders...) {
		from := l1Addr(t, name)
		want := new(big.Int).Sub(l1KillFunds, tot.spent[from])
		require.Equal(t, want.String(), balanceOf(t, eth, from).String(), "%s's balance: its funds less its value and fees", name)
	}
	require.Equal(t, tot.minted.String(), balanceOf(t, eth, l1KillMinted).String(), "minted")

	// eth_feeConfig: the last accepted setFeeConfig, in the block lastChangedAt names.
	var fc l1KillFeeConfig
	require.NoError(t, rc.CallContext(ctx, &fc, "eth_feeConfig"))
	require.Equal(t, tot.feeBlock, fc.LastChangedAt, "lastChangedAt is the block of the last accepted setFeeConfig")
	want := []uint64{8_000_000, 2, l1MinBaseFee, l1KillTargetGas, 36, 0, 1_000_000, 200_000}
	if tot.feeInput != nil {
		args, err := precompile.FeeManagerABI().Methods["setFeeConfig"].Inputs.Unpack(tot.feeInput)
		require.NoError(t, err)
		for i, a := range args {
			want[i] = a.(*big.Int).Uint64()
		}
	}
	f := fc.FeeConfig
	require.Equal(t, want, []uint64{f.GasLimit, f.TargetBlockRate, f.MinBaseFee, f.TargetGas,
		f.BaseFeeChangeDenominator, f.MinBlockGasCost, f.MaxBlockGasCost, f.BlockGasCostStep})
	fm := l1params.FeeManagerAddress
	out, err := eth.CallContract(ctx, ethereum.CallMsg{To: &fm, Data: pack(t, precompile.FeeManagerABI(), "getFeeConfigLastChangedAt")}, nil)
	require.NoError(t, err)
	require.Equal(t, word(tot.feeBlock), out)

	// Nothing a client saw is lost.
	lost := 0
	for h := range confirmed {
		if !tot.txs[h] {
			lost++
		}
	}
	require.Zero(t, lost, "transactions whose receipts a client saw before the kill are not in the chain")
}

// newL1KillTotals returns the totals of no block.
func newL1KillTotals(t *testing.T) *l1KillTotals {
	tot := &l1KillTotals{
		nonces:   make(map[common.Address]uint64),
		spent:    make(map[common.Address]*big.Int),
		received: make(map[common.Address]*big.Int),
		minted:   new(big.Int),
		txs:      make(map[common.Hash]bool),
	}
	for _, name := range append([]string{"admin"}, l1KillSenders...) {
		tot.spent[l1Addr(t, name)] = new(big.Int)
	}
	for _, to := range l1KillRecipients {
		tot.received[to] = new(big.Int)
	}
	return tot
}

// add adds the accepted block blk, whose transactions have the given receipts.
func (tot *l1KillTotals) add(t *testing.T, signer types.Signer, blk *types.Block, receipts []*types.Receipt) {
	t.Helper()
	for i, tx := range blk.Transactions() {
		from, err := types.Sender(signer, tx)
		require.NoError(t, err)
		r := receipts[i]
		require.Equal(t, tot.nonces[from], tx.Nonce(), "nonces follow one another")
		tot.nonces[from]++
		tot.txs[tx.Hash()] = true
		fee := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
		tot.spent[from].Add(tot.spent[from], fee.Add(fee, tx.Value()))
		switch to := *tx.To(); to {
		case l1params.NativeMinterAddress:
			args, err := precompile.NativeMinterABI().Methods["mintNativeCoin"].Inputs.Unpack(tx.Data()[4:])
			require.NoError(t, err)
			require.Equal(t, l1KillMinted, args[0])
			tot.minted.Add(tot.minted, args[1].(*big.Int))
			tot.mints++
		case l1params.FeeManagerAddress:
			tot.feeBlock, tot.feeInput = blk.NumberU64(), tx.Data()[4:]
			tot.feeSets++
		default:
			tot.received[to].Add(tot.received[to], tx.Value())
		}
	}
}

// TestL1Kill kills a node process with SIGKILL at random moments while its L1 accepts
// transfers, mints and fee-config changes, and restarts it on the same data dir: after every
// restart, the L1 holds every block accepted before and nothing of a block half-written.
func TestL1Kill(t *testing.T) {
	const kills = 15
	rng, dir, key := startKillTest(t, kills)

	child := startL1KillChild(t, dir)
	genesis := bytes.Replace(l1FixtureGenesis(t, l1KillChainID), []byte(`"targetGas": 15000000`),
		[]byte(`"targetGas": `+strconv.Itoa(l1KillTargetGas)), 1)
	require.Contains(t, string(genesis), strconv.Itoa(l1KillTargetGas))
	res, err := wallet.CreateL1(t.Context(), child.client, key, wallet.L1Request{Genesis: genesis, Name: "kill", Balance: wallet.DefaultL1Balance, Weight: wallet.DefaultL1Weight}, l1KillWait, clock.Real{})
	require.NoError(t, err)
	st := &l1KillState{
		blockchainID: res.BlockchainID,
		chainID:      big.NewInt(l1KillChainID),
		tot:          newL1KillTotals(t),
	}
	var cfg json.RawMessage
	rc, err := rpc.DialOptions(t.Context(), child.base+"/ext/bc/"+res.BlockchainID.String()+"/rpc", rpc.WithHTTPClient(child.hc))
	require.NoError(t, err)
	require.NoError(t, rc.CallContext(t.Context(), &cfg, "eth_getChainConfig"))
	rc.Close()
	st.chainConfig = string(cfg)

	d := &l1KillDriver{t: t, chainID: st.chainID, confirmed: make(map[common.Hash]bool)}
	clk := clock.Real{}
	begin := clk.Now()
	for run := 0; ; run++ {
		if run > 0 {
			child = startL1KillChild(t, dir)
		}
		st.check(t, child, d.confirmed)
		child.RequireNoErrorLogs(t)
		if run == kills {
			child.stop(t)
			break
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		d.drive(ctx, &wg, child.hc, child.base+"/ext/bc/"+st.blockchainID.String()+"/rpc")
		delay := time.Duration(rng.IntN(600)+20) * time.Millisecond
		pause(t.Context(), delay)
		child.kill()
		cancel()
		wg.Wait()
		require.Empty(t, d.errs, "the node refused a transaction")
		t.Logf("run %d: killed after %s at height ≥ %d", run, delay, len(st.blocks))
	}
	tot := st.tot
	t.Logf("%d kills in %s: height %d, %d transactions (%d mints, %d fee changes, the last at block %d), %d seen by a client",
		kills, clk.Now().Sub(begin), len(st.blocks), len(tot.txs), tot.mints, tot.feeSets, tot.feeBlock, len(d.confirmed))
	require.NotZero(t, tot.mints, "no mint was accepted")
	require.NotZero(t, tot.feeSets, "no fee change was accepted")
	for _, name := range l1KillSenders {
		require.NotZero(t, tot.nonces[l1Addr(t, name)], "%s sent nothing", name)
	}
}

// l1KillChains returns the Subnet-EVM chains on the P-Chain whose genesis is genesis, and the
// number of subnets.
func l1KillChains(t *testing.T, c *l1KillChild, genesis []byte) (chains []api.APIBlockchain, subnets int) {
	t.Helper()
	var list api.GetBlockchainsReply
	c.call(t, "/ext/bc/P", "platform.getBlockchains", nil, &list)
	for _, bc := range list.Blockchains {
		if bc.VMID != node.SubnetEVMID {
			continue
		}
		var reply chainapi.GetTxReply
		c.call(t, "/ext/bc/P", "platform.getTx", chainapi.GetTxArgs{TxID: bc.ID, Encoding: ids.Hex}, &reply)
		var s string
		require.NoError(t, json.Unmarshal(reply.Tx, &s))
		b, err := ids.Hex.Decode(s)
		require.NoError(t, err)
		tx, err := txs.ParseTx(b)
		require.NoError(t, err)
		if cc, ok := tx.Unsigned().(*txs.CreateChainTx); ok && string(cc.GenesisData) == string(genesis) {
			chains = append(chains, bc)
		}
	}
	var sr api.GetSubnetsReply
	c.call(t, "/ext/bc/P", "platform.getSubnets", api.GetSubnetsArgs{}, &sr)
	return chains, len(sr.Subnets)
}

// l1KillOrphans returns the number of subnets other than the Primary Network with no chain.
func l1KillOrphans(t *testing.T, c *l1KillChild) int {
	t.Helper()
	var list api.GetBlockchainsReply
	c.call(t, "/ext/bc/P", "platform.getBlockchains", nil, &list)
	withChain := make(map[ids.ID]bool)
	for _, bc := range list.Blockchains {
		withChain[bc.SubnetID] = true
	}
	var sr api.GetSubnetsReply
	c.call(t, "/ext/bc/P", "platform.getSubnets", api.GetSubnetsArgs{}, &sr)
	n := 0
	for _, s := range sr.Subnets {
		if s.ID != ids.Empty && !withChain[s.ID] {
			n++
		}
	}
	return n
}

// l1KillDump logs every chain and subnet of the P-Chain, with its conversion, for a failure.
func l1KillDump(t *testing.T, c *l1KillChild) {
	t.Helper()
	var list api.GetBlockchainsReply
	c.call(t, "/ext/bc/P", "platform.getBlockchains", nil, &list)
	for _, bc := range list.Blockchains {
		t.Logf("chain %s subnet %s name %s", bc.ID, bc.SubnetID, bc.Name)
	}
	var sr api.GetSubnetsReply
	c.call(t, "/ext/bc/P", "platform.getSubnets", api.GetSubnetsArgs{}, &sr)
	for _, s := range sr.Subnets {
		if s.ID == ids.Empty {
			continue
		}
		var subnet api.GetSubnetReply
		c.call(t, "/ext/bc/P", "platform.getSubnet", api.GetSubnetArgs{SubnetID: s.ID}, &subnet)
		t.Logf("subnet %s conversion %s", s.ID, subnet.ConversionID)
	}
}

// l1KillL1 is an L1 TestL1KillCreate made.
type l1KillL1 struct {
	genesis      []byte
	file         string
	chainID      int64
	blockchainID string
}

// l1KillCreate runs `cornice l1 create` against c and returns its output; cancelling ctx stops it.
func l1KillCreate(t *testing.T, ctx context.Context, c *l1KillChild, file string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = <-startCLI(t, ctx, &out, &errOut, "l1", "create", "--genesis", file, "--node-uri", c.base, "--wait", l1KillWait.String())
	return code, out.String(), errOut.String()
}

// The points at which TestL1KillCreate kills the node, besides random ones during `l1 create`:
// after each of its three transactions is accepted, and just after the conversion is issued.
const (
	killAfterSubnet = iota
	killAfterChain
	killAfterConvertIssued
	killAfterConvert
	killPoints
)

// createUntil does what `cornice l1 create` does with the local key, up to the kill point.
func createUntil(t *testing.T, c *l1KillChild, genesis []byte, point int) {
	t.Helper()
	ctx := t.Context()
	key := localKey(t)
	p, err := wallet.NewP(ctx, c.client, key, clock.Real{})
	require.NoError(t, err)
	tx, err := p.CreateSubnetOwners(ctx, wallet.L1SubnetOwners(key.Address(), genesis))
	require.NoError(t, err)
	subnetID, err := p.IssueAndWait(ctx, tx, l1KillWait)
	require.NoError(t, err)
	if point == killAfterSubnet {
		return
	}
	tx, err = p.CreateChain(ctx, subnetID, "kill", node.SubnetEVMID, genesis)
	require.NoError(t, err)
	chainID, err := p.IssueAndWait(ctx, tx, l1KillWait)
	require.NoError(t, err)
	if point == killAfterChain {
		return
	}
	var self info.GetNodeIDReply
	c.call(t, "/ext/info", "info.getNodeID", nil, &self)
	v := wallet.L1Validator{NodeID: self.NodeID, Weight: wallet.DefaultL1Weight, Balance: wallet.DefaultL1Balance}
	v.Signer.PublicKey, v.Signer.Signature = self.NodePOP.PublicKey, self.NodePOP.ProofOfPossession
	tx, err = p.ConvertSubnet(ctx, subnetID, chainID, []byte{}, []wallet.L1Validator{v})
	require.NoError(t, err)
	if point == killAfterConvertIssued {
		_, err := p.Issue(ctx, tx)
		require.NoError(t, err)
		return
	}
	_, err = p.IssueAndWait(ctx, tx, l1KillWait)
	require.NoError(t, err)
}

// TestL1KillCreate kills a node process while an L1 is being made, at random moments during
// `cornice l1 create` and right after each of its steps, and restarts it: the chain comes up from
// the P-Chain's state once (before the node serves, if the subnet is converted), `l1 create`
// with the same genesis then finishes the job on the same chain, every L1 made before comes back
// on every restart, and `cornice run --l1` with every genesis reuses every chain.
func TestL1KillCreate(t *testing.T) {
	rng, dir, _ := startKillTest(t, 10)
	child := startL1KillChild(t, dir)
	_, subnets := l1KillChains(t, child, nil)

	// A first L1 made without a kill tells how long `l1 create` takes here.
	clk := clock.Real{}
	var made []l1KillL1
	newL1 := func() l1KillL1 {
		l := l1KillL1{chainID: int64(5100 + len(made))}
		l.genesis = l1Genesis(t, int(l.chainID))
		l.file = filepath.Join(t.TempDir(), "kill.json")
		require.NoError(t, os.WriteFile(l.file, l.genesis, 0o600))
		return l
	}
	first := newL1()
	begin := clk.Now()
	code, stdout, stderr := l1KillCreate(t, t.Context(), child, first.file)
	took := clk.Now().Sub(begin)
	require.Equal(t, 0, code, stderr)
	m := l1Out.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	first.blockchainID = m[1]
	made = append(made, first)
	subnets++
	t.Logf("l1 create takes %s", took)

	const rounds = 16
	for round := range rounds {
		l := newL1()
		point := -1 // random
		if round%2 == 1 {
			point = (round / 2) % killPoints
			createUntil(t, child, l.genesis, point)
			if point >= killAfterConvertIssued {
				// The conversion's block may be accepted, and the chain being made, right now.
				pause(t.Context(), time.Duration(rng.IntN(10_000))*time.Microsecond)
			}
			child.kill()
		} else {
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan int, 1)
			go func() {
				code, _, _ := l1KillCreate(t, ctx, child, l.file)
				done <- code
			}()
			delay := time.Duration(rng.Int64N(int64(took) * 3 / 2))
			pause(t.Context(), delay)
			child.kill()
			cancel()
			<-done
			t.Logf("round %d: killed %s into l1 create", round, delay)
		}

		child = startL1KillChild(t, dir)
		found, n := l1KillChains(t, child, l.genesis)
		require.LessOrEqual(t, len(found), 1, "round %d (kill point %d): one chain per genesis", round, point)
		existed, converted := len(found) == 1, false
		if existed {
			var subnet api.GetSubnetReply
			child.call(t, "/ext/bc/P", "platform.getSubnet", api.GetSubnetArgs{SubnetID: found[0].SubnetID}, &subnet)
			got, err := chainID(child.base + "/ext/bc/" + found[0].ID.String() + "/rpc")
			converted = subnet.ConversionID != ids.Empty
			if converted {
				require.NoError(t, err, "round %d (kill point %d): a converted L1 runs as soon as the node serves", round, point)
				require.Equal(t, l.chainID, got.Int64())
			} else {
				require.Error(t, err, "round %d (kill point %d): a chain of a subnet neither tracked nor validated does not run", round, point)
			}
		}
		t.Logf("round %d (kill point %d): after the restart, chain %t, converted %t", round, point, existed, converted)
		// A tx the wallet saw committed is on the P-Chain after the crash (TestL1KillPChainCommitted).
		if point == killAfterChain {
			require.True(t, existed, "round %d (kill point %d): the CreateChainTx seen Committed is lost by the kill", round, point)
		}
		if point == killAfterConvert {
			require.True(t, converted, "round %d (kill point %d): the ConvertSubnetToL1Tx seen Committed is lost by the kill", round, point)
		}

		// `l1 create` again finishes the job, on the same chain.
		code, stdout, stderr := l1KillCreate(t, t.Context(), child, l.file)
		require.Equal(t, 0, code, "round %d (kill point %d): %s", round, point, stderr)
		m := l1Out.FindStringSubmatch(stdout)
		require.NotNil(t, m, stdout)
		if existed {
			require.Equal(t, "reused", m[6])
			require.Equal(t, found[0].ID.String(), m[1])
		} else {
			require.Equal(t, "created", m[6])
		}
		l.blockchainID = m[1]
		again, after := l1KillChains(t, child, l.genesis)
		require.Len(t, again, 1, "round %d (kill point %d): one chain per genesis", round, point)
		// Whatever the kill interrupted, even between CreateSubnetTx and CreateChainTx, the L1 has
		// one subnet: `l1 create` finds the one made before the kill by its tag
		// (TestL1KillCreateOrphanSubnet).
		if added := after - subnets; added != 1 {
			l1KillDump(t, child)
			require.Equal(t, 1, added, "round %d (kill point %d): one new subnet (%d before the kill, %d after it, %d now)",
				round, point, subnets, n, after)
		}
		require.Zero(t, l1KillOrphans(t, child), "round %d (kill point %d): subnets without a chain", round, point)
		subnets = after
		require.Equal(t, big.NewInt(1_000_000_000), l1Transfer(t, m[3]), "round %d: the L1 takes a transaction", round)
		made = append(made, l)

		// Every L1 made so far came back with the restart.
		for _, old := range made {
			got, err := chainID(child.base + "/ext/bc/" + old.blockchainID + "/rpc")
			require.NoError(t, err, "round %d: L1 %s", round, old.blockchainID)
			require.Equal(t, old.chainID, got.Int64())
		}
		child.RequireNoErrorLogs(t)
	}
	child.stop(t)

	// `cornice run --l1` with every genesis reuses every chain.
	var args []string
	for _, l := range made {
		args = append(args, "--l1", l.file)
	}
	b, stop := runBanner(t, dir, args...)
	// The banner lists the L1s in the order the node started them, from the P-Chain's state.
	var want, got []string
	for _, l := range made {
		want = append(want, l.blockchainID)
	}
	require.Len(t, b.evm, 1+len(made), "the C-Chain and every L1")
	for _, e := range b.evm[1:] {
		require.Equal(t, "reused", e.status, e.name)
		got = append(got, e.blockchainID)
	}
	require.ElementsMatch(t, want, got)
	require.Empty(t, stop(), "the node logged an error")
	t.Logf("%d L1s", len(made))
}

// TestL1KillPChainCommitted issues P-Chain txs and kills the node the moment
// platform.getTxStatus says Committed, many times: each must be committed after the restart.
// Pebble makes a batch visible to readers before its WAL record is written and synced (its
// commitPipeline publishes the sequence number, then waits for the sync), so an API that reads
// the database directly, as the P-Chain's getTxStatus and getTx do, could report a block's txs
// before the block was durable; package storage now keeps every read waiting until the commit
// in progress has returned ("durable before visible" in its doc).
func TestL1KillPChainCommitted(t *testing.T) {
	const tries = 100
	_, dir, key := startKillTest(t, 2*tries)
	lost := 0
	for i := range tries {
		child := startL1KillChild(t, dir)
		p, err := wallet.NewP(t.Context(), child.client, key, clock.Real{})
		require.NoError(t, err)
		tx, err := p.CreateSubnet(t.Context(), "")
		require.NoError(t, err)
		id, err := p.Issue(t.Context(), tx)
		require.NoError(t, err)
		require.NoError(t, p.WaitAccepted(t.Context(), id, l1KillWait))
		child.kill()

		child = startL1KillChild(t, dir)
		status, err := wallet.NewP(t.Context(), child.client, key, clock.Real{})
		require.NoError(t, err)
		got, err := status.Status(t.Context(), id)
		require.NoError(t, err)
		var after chainapi.GetHeightReply
		child.call(t, "/ext/bc/P", "platform.getHeight", nil, &after)
		if got != "Committed" {
			lost++
			t.Logf("try %d: tx %s was Committed before the kill, is %s after it, at P height %d", i, id, got, after.Height)
		}
		child.kill()
	}
	require.Zero(t, lost, "of %d txs seen committed, %d were lost by a kill", tries, lost)
}

// TestL1KillCreateOrphanSubnet kills the node right after `l1 create`'s CreateSubnetTx is
// accepted, restarts it and runs `l1 create` again with the same genesis: wallet.CreateL1 finds
// the subnet by its owners, the key and the genesis's tag (wallet.L1SubnetOwners), and the L1's
// chain is made on it, so no subnet is left without a chain.
func TestL1KillCreateOrphanSubnet(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a node process")
	}
	t.Parallel()
	dir := t.TempDir()
	child := startL1KillChild(t, dir)
	_, before := l1KillChains(t, child, nil)
	genesis := l1Genesis(t, 5099)
	file := filepath.Join(t.TempDir(), "orphan.json")
	require.NoError(t, os.WriteFile(file, genesis, 0o600))
	createUntil(t, child, genesis, killAfterSubnet)
	child.kill()

	child = startL1KillChild(t, dir)
	// The CreateSubnetTx seen Committed survives the kill: its subnet has no chain yet.
	var subnets api.GetSubnetsReply
	child.call(t, "/ext/bc/P", "platform.getSubnets", api.GetSubnetsArgs{}, &subnets)
	require.Len(t, subnets.Subnets, before+1)
	require.Equal(t, 1, l1KillOrphans(t, child))
	var chains api.GetBlockchainsReply
	child.call(t, "/ext/bc/P", "platform.getBlockchains", nil, &chains)
	var orphan ids.ID
	for _, s := range subnets.Subnets {
		if s.ID != ids.Empty && !slices.ContainsFunc(chains.Blockchains, func(bc api.APIBlockchain) bool { return bc.SubnetID == s.ID }) {
			orphan = s.ID
		}
	}
	code, stdout, stderr := l1KillCreate(t, t.Context(), child, file)
	require.Equal(t, 0, code, stderr)
	m := l1Out.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, "created", m[6], "the chain is new")
	require.Equal(t, orphan.String(), m[2], "on the subnet made before the kill")
	_, after := l1KillChains(t, child, genesis)
	require.Equal(t, 0, l1KillOrphans(t, child), "a subnet is left without a chain")
	require.Equal(t, before+1, after, "one subnet for one L1")
	child.stop(t)
}
