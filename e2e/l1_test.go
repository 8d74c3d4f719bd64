package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/api/l1validators"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/wallet"
)

// l1Genesis returns the example genesis with chain ID chainID, so that tests make distinct L1s.
func l1Genesis(t testing.TB, chainID int) []byte {
	t.Helper()
	b, err := os.ReadFile(exampleGenesis)
	require.NoError(t, err)
	return bytes.Replace(b, []byte(`"chainId": 99999`), []byte(`"chainId": `+itoa(chainID)), 1)
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// l1Transfer sends 1 gwei from the local key to a fixed address on the EVM chain at rpcURL and
// waits until it is mined; it returns the recipient's balance afterwards.
func l1Transfer(t testing.TB, rpcURL string) *big.Int {
	t.Helper()
	ctx := context.Background()
	client, err := ethclient.DialContext(ctx, rpcURL)
	require.NoError(t, err)
	defer client.Close()
	chainID, err := client.ChainID(ctx)
	require.NoError(t, err)
	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := client.PendingNonceAt(ctx, from)
	require.NoError(t, err)
	head, err := client.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	tip, err := client.SuggestGasTipCap(ctx)
	require.NoError(t, err)
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID:   chainID,
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       21000,
		To:        &to,
		Value:     big.NewInt(1_000_000_000),
	})
	require.NoError(t, err)
	require.NoError(t, client.SendTransaction(ctx, tx))
	var receipt *types.Receipt
	require.Eventually(t, func() bool {
		receipt, err = client.TransactionReceipt(ctx, tx.Hash())
		return err == nil
	}, acceptWait, 10*time.Millisecond)
	require.Equal(t, types.ReceiptStatusSuccessful, receipt.Status)
	balance, err := client.BalanceAt(ctx, to, nil)
	require.NoError(t, err)
	return balance
}

// chainID asks the chain at rpcURL for its eth_chainId; an error when it does not answer.
func chainID(rpcURL string) (*big.Int, error) {
	client, err := ethclient.DialContext(context.Background(), rpcURL)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	return client.ChainID(context.Background())
}

// rpcURL is the eth RPC URL of chain id on xn.
func (xn *xNode) rpcURL(id ids.ID) string { return xn.base + "/ext/bc/" + id.String() + "/rpc" }

// waitUp waits until chain id answers eth_chainId with want.
func (xn *xNode) waitUp(id ids.ID, want int64) {
	xn.t.Helper()
	require.Eventually(xn.t, func() bool {
		got, err := chainID(xn.rpcURL(id))
		return err == nil && got.Int64() == want
	}, acceptWait, 10*time.Millisecond, "chain %s did not start", id)
}

// uptime calls info.uptime for subnetID; the error is the JSON-RPC error, if any.
func (xn *xNode) uptime(subnetID ids.ID) (info.UptimeReply, error) {
	var reply info.UptimeReply
	err := xn.client.Call(context.Background(), "/ext/info", "info.uptime", info.UptimeArgs{SubnetID: subnetID}, &reply)
	return reply, err
}

// chainValidators returns validators.getCurrentValidators of chain id.
func (xn *xNode) chainValidators(id ids.ID) []l1validators.CurrentValidator {
	xn.t.Helper()
	var reply l1validators.GetCurrentValidatorsReply
	xn.call("/ext/bc/"+id.String()+"/validators", "validators.getCurrentValidators", nil, &reply)
	return reply.Validators
}

// TestL1Chains checks how chains of other subnets come to life (issue #6 §1): a Subnet-EVM chain
// on a tracked subnet starts and takes transactions; one on an untracked subnet does not, until
// the subnet becomes an L1 this node validates; both then run side by side with their own state,
// the validator set follows the P-Chain, and a restart brings both back with their state.
func TestL1Chains(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ewoq := localKey(t)

	// Two subnets, made before the node is told to track one of them.
	xn := startXNode(t, dir)
	p := xn.pWallet(ewoq)
	tx, err := p.CreateSubnet(t.Context(), "")
	require.NoError(t, err)
	tracked := pIssue(t, p, tx)
	tx, err = p.CreateSubnet(t.Context(), "")
	require.NoError(t, err)
	untracked := pIssue(t, p, tx)
	xn.stop()

	track := func(c *config.Config) { c.TrackSubnets = []ids.ID{tracked} }
	xn = startXNodeWith(t, dir, track)
	p = xn.pWallet(ewoq)
	tx, err = p.CreateChain(t.Context(), untracked, "untracked", node.SubnetEVMID, l1Genesis(t, 1002))
	require.NoError(t, err)
	chainB := pIssue(t, p, tx)
	tx, err = p.CreateChain(t.Context(), tracked, "tracked", node.SubnetEVMID, l1Genesis(t, 1001))
	require.NoError(t, err)
	chainA := pIssue(t, p, tx)

	xn.waitUp(chainA, 1001)
	require.Equal(t, big.NewInt(1_000_000_000), l1Transfer(t, xn.rpcURL(chainA)))
	// The chains are created in P-Chain order by one worker: A is up, so B was passed over.
	_, err = chainID(xn.rpcURL(chainB))
	require.Error(t, err)
	_, err = xn.uptime(untracked)
	require.ErrorContains(t, err, "node is not a validator")

	// Converting B's subnet into an L1 validated by this node starts its chain.
	var self info.GetNodeIDReply
	xn.call("/ext/info", "info.getNodeID", nil, &self)
	v := wallet.L1Validator{NodeID: self.NodeID, Weight: 7, Balance: wallet.DefaultL1Balance}
	v.Signer.PublicKey, v.Signer.Signature = self.NodePOP.PublicKey, self.NodePOP.ProofOfPossession
	tx, err = p.ConvertSubnet(t.Context(), untracked, chainB, nil, []wallet.L1Validator{v})
	require.NoError(t, err)
	pIssue(t, p, tx)
	xn.waitUp(chainB, 1002)
	require.Equal(t, big.NewInt(1_000_000_000), l1Transfer(t, xn.rpcURL(chainB)))
	require.Equal(t, big.NewInt(2_000_000_000), l1Transfer(t, xn.rpcURL(chainA)), "each chain has its own state")

	// The validator set follows the P-Chain: this node validates B with weight 7, alone.
	require.Eventually(t, func() bool {
		up, err := xn.uptime(untracked)
		return err == nil && up.RewardingStakePercentage == 100
	}, acceptWait, 10*time.Millisecond)
	primary, err := xn.uptime(ids.Empty)
	require.NoError(t, err)
	require.EqualValues(t, 100, primary.WeightedAveragePercentage)
	_, err = xn.uptime(tracked)
	require.ErrorContains(t, err, "node is not a validator", "a tracked subnet has no validators")
	require.Empty(t, xn.chainValidators(chainA))
	// An L1 chain has the proposervm API too: a block built now would carry the P-Chain's height.
	require.Equal(t, strconv.FormatUint(xn.lcHeight(), 10), xn.proposerVM(chainA.String()).height)
	// platform.getBlockchainStatus: A runs on a tracked subnet, B on one this node validates.
	for id, want := range map[ids.ID]string{chainA: "Syncing", chainB: "Validating"} {
		var status api.GetBlockchainStatusReply
		xn.call("/ext/bc/P", "platform.getBlockchainStatus", api.GetBlockchainStatusArgs{BlockchainID: id.String()}, &status)
		require.Equal(t, want, status.Status, id)
	}
	require.Eventually(t, func() bool {
		vs := xn.chainValidators(chainB)
		return len(vs) == 1 && vs[0].NodeID == self.NodeID && vs[0].Weight == 7 && vs[0].IsConnected
	}, acceptWait, 10*time.Millisecond)

	// A restart brings both chains back, with their state.
	xn.stop()
	xn = startXNodeWith(t, dir, track)
	for _, c := range []struct {
		id   ids.ID
		evm  int64
		want int64
	}{{chainA, 1001, 3_000_000_000}, {chainB, 1002, 2_000_000_000}} {
		got, err := chainID(xn.rpcURL(c.id))
		require.NoError(t, err, "started before the node serves")
		require.Equal(t, c.evm, got.Int64())
		require.Equal(t, big.NewInt(c.want), l1Transfer(t, xn.rpcURL(c.id)))
	}
	_, err = xn.uptime(untracked)
	require.NoError(t, err)
	require.Len(t, xn.chainValidators(chainB), 1)

	// Without --track-subnets, the tracked subnet's chain stays down; B (validated) runs.
	xn.stop()
	xn = startXNode(t, dir)
	_, err = chainID(xn.rpcURL(chainA))
	require.Error(t, err)
	xn.waitUp(chainB, 1002)
}

// l1Out matches the output of `cornice l1 create`.
var l1Out = regexp.MustCompile(`blockchainID: (\w+)\nsubnetID: (\w+)\nrpc: (\S+)\nws: (\S+)\nvalidators: (\S+)\nstatus: (created|reused)\nchainID: (\d+)\nsymbol: (\w+)\n`)

// TestL1Create runs `cornice l1 create` with the example genesis against a fresh node and uses the
// L1 with ethclient. It logs the time from a fresh data dir to the first accepted
// eth_sendRawTransaction (docs/benchmarks.md).
func TestL1Create(t *testing.T) {
	t.Parallel()
	clk := clock.Real{}
	begin := clk.Now()
	xn := startXNode(t, t.TempDir())
	started := clk.Now()

	code, stdout, stderr := runCLI(t, "l1", "create", "--genesis", exampleGenesis, "--node-uri", xn.base)
	require.Equal(t, 0, code, stderr)
	created := clk.Now()
	m := l1Out.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, m[0], stdout)
	require.Equal(t, []string{"99999", "L1"}, m[7:9], "what a wallet's add network asks for")
	chain := "/ext/bc/" + m[1]
	require.Equal(t, xn.base+chain+"/rpc", m[3])
	require.Equal(t, "ws://"+strings.TrimPrefix(xn.base, "http://")+chain+"/ws", m[4])
	require.Equal(t, xn.base+chain+"/validators", m[5])
	require.Equal(t, "created", m[6])

	client, err := ethclient.DialContext(t.Context(), m[3])
	require.NoError(t, err)
	defer client.Close()
	id, err := client.ChainID(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(99999), id.Int64())
	require.Equal(t, big.NewInt(1_000_000_000), l1Transfer(t, m[3]))
	done := clk.Now()
	ws, err := ethclient.DialContext(t.Context(), m[4])
	require.NoError(t, err)
	id, err = ws.ChainID(t.Context())
	ws.Close()
	require.NoError(t, err)
	require.Equal(t, int64(99999), id.Int64(), "the websocket URL serves the chain")
	t.Logf("fresh data dir to first accepted L1 transaction: %s (node start %s, l1 create %s, first tx %s)",
		done.Sub(begin), started.Sub(begin), created.Sub(started), done.Sub(created))

	// The subnet is an L1 whose validator is the node, managed by the new chain.
	subnetID, err := ids.FromString(m[2])
	require.NoError(t, err)
	vals := xn.l1Validators(subnetID)
	require.Len(t, vals, 1)
	var self info.GetNodeIDReply
	xn.call("/ext/info", "info.getNodeID", nil, &self)
	require.Equal(t, self.NodeID, vals[0].NodeID)
	require.Equal(t, uint64(wallet.DefaultL1Weight), uint64(vals[0].Weight))

	// The validators API of the chain lists the node, connected, with its validation ID.
	var vr l1validators.GetCurrentValidatorsReply
	xn.call(chain+"/validators", "validators.getCurrentValidators", l1validators.GetCurrentValidatorsArgs{}, &vr)
	require.Len(t, vr.Validators, 1)
	got := vr.Validators[0]
	require.Equal(t, subnetID.Append(0), got.ValidationID)
	require.Equal(t, self.NodeID, got.NodeID)
	require.Equal(t, uint64(wallet.DefaultL1Weight), got.Weight)
	require.True(t, got.IsActive)
	require.True(t, got.IsL1Validator)
	require.True(t, got.IsConnected)
	require.Equal(t, uint64(vals[0].StartTime), got.StartTimestamp)
	xn.call(chain+"/validators", "validators.getCurrentValidators",
		l1validators.GetCurrentValidatorsArgs{NodeIDs: []ids.NodeID{{1}}}, &vr)
	require.Empty(t, vr.Validators)

	// The same genesis again reuses the chain.
	code, stdout, stderr = runCLI(t, "l1", "create", "--genesis", exampleGenesis, "--node-uri", xn.base, "--name", "other")
	require.Equal(t, 0, code, stderr)
	m2 := l1Out.FindStringSubmatch(stdout)
	require.NotNil(t, m2, stdout)
	require.Equal(t, m[1], m2[1])
	require.Equal(t, "reused", m2[6])
}

// TestRunL1 runs `cornice run --l1` twice on one data dir: the first run creates the L1, the
// second finds it, and the banner says so with the same blockchain ID (issue #6 §1).
func TestRunL1(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	gfile := filepath.Join(t.TempDir(), "my-l1.json")
	require.NoError(t, os.WriteFile(gfile, l1Genesis(t, 4242), 0o600))

	run := func() bannerEVM {
		b, stop := runBanner(t, dataDir, "--l1", gfile)
		defer stop()
		require.Len(t, b.evm, 2)
		got, err := chainID(b.evm[1].rpc)
		require.NoError(t, err)
		require.Equal(t, int64(4242), got.Int64())
		return b.evm[1]
	}
	first := run()
	require.Equal(t, "created", first.status)
	second := run()
	require.Equal(t, "reused", second.status)
	require.Equal(t, first.blockchainID, second.blockchainID)
	require.Equal(t, first.subnetID, second.subnetID)
}

// TestL1ChainConfigAndFailure checks that a subnet chain gets its upgrade.json and config.json
// from the chain-config directory, and that a chain whose VM fails to start is reported by the
// health API while the node and the other chains keep running (issue #6 §1, l1-evm.md §4.5).
func TestL1ChainConfigAndFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgDir := filepath.Join(t.TempDir(), "chains")
	ewoq := localKey(t)

	xn := startXNode(t, dir)
	p := xn.pWallet(ewoq)
	tx, err := p.CreateSubnet(t.Context(), "")
	require.NoError(t, err)
	subnetID := pIssue(t, p, tx)
	xn.stop()

	var mu sync.Mutex
	seen := map[ids.ID]chains.Context{}
	errBoom := errors.New("boom")
	withRecorder := func(cfg config.Config) node.VMs {
		all := vmset.For(cfg)
		evmFactory := all[node.SubnetEVMID]
		all[node.SubnetEVMID] = chains.FactoryFunc(func(ctx context.Context, c chains.Context) (chains.VM, error) {
			mu.Lock()
			seen[c.Chain.ID] = c
			mu.Unlock()
			if c.Chain.Name == "broken" {
				return nil, errBoom
			}
			return evmFactory.New(ctx, c)
		})
		return all
	}
	xn = startXNodeVMs(t, dir, func(c *config.Config) {
		c.TrackSubnets = []ids.ID{subnetID}
		c.ChainConfigDir = cfgDir
	}, withRecorder)
	p = xn.pWallet(ewoq)

	// The chain IDs are the tx IDs, known before they are issued: the good chain's directory
	// holds both files; the broken one's only config.json.
	broken, err := p.CreateChain(t.Context(), subnetID, "broken", node.SubnetEVMID, l1Genesis(t, 3001))
	require.NoError(t, err)
	brokenDir := filepath.Join(cfgDir, broken.ID().String())
	require.NoError(t, os.MkdirAll(brokenDir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(brokenDir, "config.json"), []byte(`{}`), 0o600))
	pIssue(t, p, broken)

	good, err := p.CreateChain(t.Context(), subnetID, "good", node.SubnetEVMID, l1Genesis(t, 3002))
	require.NoError(t, err)
	goodDir := filepath.Join(cfgDir, good.ID().String())
	require.NoError(t, os.MkdirAll(goodDir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(goodDir, "upgrade.json"), []byte(`{"precompileUpgrades":[]}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(goodDir, "config.json"), []byte(`{"a":1}`), 0o600))
	pIssue(t, p, good)
	xn.waitUp(good.ID(), 3002)
	require.Equal(t, big.NewInt(1_000_000_000), l1Transfer(t, xn.rpcURL(good.ID())))

	mu.Lock()
	require.Equal(t, []byte(`{"precompileUpgrades":[]}`), seen[good.ID()].Upgrade)
	require.Equal(t, []byte(`{"a":1}`), seen[good.ID()].Config)
	require.Nil(t, seen[broken.ID()].Upgrade)
	require.Equal(t, []byte(`{}`), seen[broken.ID()].Config)
	mu.Unlock()

	var health struct {
		Checks map[string]struct {
			Error *string `json:"error"`
		} `json:"checks"`
		Healthy bool `json:"healthy"`
	}
	xn.call("/ext/health", "health.health", nil, &health)
	require.False(t, health.Healthy)
	check, ok := health.Checks["chain-"+broken.ID().String()]
	require.True(t, ok, "%v", health.Checks)
	require.NotNil(t, check.Error)
	require.Equal(t, "chain "+broken.ID().String()+" failed to start: create chain "+broken.ID().String()+": make VM of chain "+broken.ID().String()+": boom", *check.Error)
	goodCheck, ok := health.Checks["chain-"+good.ID().String()]
	require.True(t, ok)
	require.Nil(t, goodCheck.Error)
}

// TestExampleGenesis checks the facts examples/README.md states about the example genesis.
func TestExampleGenesis(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(exampleGenesis)
	require.NoError(t, err)
	var g struct {
		Config struct {
			ChainID   int64 `json:"chainId"`
			FeeConfig struct {
				GasLimit uint64 `json:"gasLimit"`
			} `json:"feeConfig"`
			Minter    struct{ AdminAddresses []common.Address } `json:"contractNativeMinterConfig"`
			TxAllow   struct{ AdminAddresses []common.Address } `json:"txAllowListConfig"`
			FeeManage struct{ AdminAddresses []common.Address } `json:"feeManagerConfig"`
			Warp      map[string]any                            `json:"warpConfig"`
		} `json:"config"`
		Alloc      map[string]struct{ Balance string } `json:"alloc"`
		GasLimit   string                              `json:"gasLimit"`
		Difficulty string                              `json:"difficulty"`
		Timestamp  string                              `json:"timestamp"`
	}
	require.NoError(t, json.Unmarshal(b, &g))
	ewoq := common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	require.Equal(t, int64(99999), g.Config.ChainID)
	gasLimit, ok := new(big.Int).SetString(strings.TrimPrefix(g.GasLimit, "0x"), 16)
	require.True(t, ok)
	require.Equal(t, g.Config.FeeConfig.GasLimit, gasLimit.Uint64())
	for _, admins := range [][]common.Address{g.Config.Minter.AdminAddresses, g.Config.TxAllow.AdminAddresses, g.Config.FeeManage.AdminAddresses} {
		require.Equal(t, []common.Address{ewoq}, admins)
	}
	require.Contains(t, g.Alloc, strings.TrimPrefix(ewoq.Hex(), "0x"))
	require.Equal(t, "0x0", g.Difficulty)
	// The local network's upgrades through Granite (so Shanghai and Cancun) are active at the
	// genesis, so that PUSH0 contracts deploy on a fresh L1 (TestExampleL1DeploysPUSH0).
	require.Equal(t, "0x5FCB13D0", g.Timestamp)
	// Warp from the genesis (Durango on the local network), with the reference's default quorum,
	// as avalanche-cli's generated genesis has it (TestExampleL1DeploysPUSH0 sends a message).
	require.Equal(t, map[string]any{"blockTimestamp": float64(1607144400), "quorumNumerator": float64(67),
		"requirePrimaryNetworkSigners": false}, g.Config.Warp)
}

// TestL1CreateBadGenesis refuses a genesis the node could not run before any tx is paid for: the
// P-Chain stays where it was.
func TestL1CreateBadGenesis(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	example, err := os.ReadFile(exampleGenesis)
	require.NoError(t, err)
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, bytes.Replace(example, []byte(`"gasLimit": "0x7A1200"`), []byte(`"gasLimit": "0x7A1201"`), 1), 0o600))
	var before api.GetHeightReply
	xn.call("/ext/bc/P", "platform.getHeight", nil, &before)

	code, stdout, stderr := runCLI(t, "l1", "create", "--node-uri", xn.base, "--genesis", bad)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "cornice: L1 genesis "+bad+": gas limit in fee config (8000000) does not match gas limit in header (8000001)\n", stderr)
	var after api.GetHeightReply
	xn.call("/ext/bc/P", "platform.getHeight", nil, &after)
	require.Equal(t, before, after)
}
