package wallet

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/exchange"
	"github.com/cornice-node/cornice/vms/platform/api"
)

// exampleL1Genesis is the example L1 genesis that ships with cornice.
const exampleL1Genesis = "../examples/l1-genesis.json"

func TestSubnetEVMID(t *testing.T) {
	t.Parallel()
	require.Equal(t, "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy", SubnetEVMID.String())
	require.Equal(t, node.SubnetEVMID, SubnetEVMID)
}

func TestL1SubnetOwners(t *testing.T) {
	t.Parallel()
	keyAddr := ids.ShortID{0xaa}
	tests := []struct {
		name    string
		genesis []byte
	}{
		{name: "empty", genesis: nil},
		{name: "json", genesis: []byte(`{"config":{"chainId":1}}`)},
		{name: "one byte more", genesis: []byte(`{"config":{"chainId":1}} `)},
	}
	seen := map[ids.ShortID]string{}
	for _, tt := range tests {
		sum := sha256.Sum256(tt.genesis)
		h := sha256.Sum256(append([]byte("cornice l1 create subnet tag v1\x00"), sum[:]...))
		var want ids.ShortID
		copy(want[:], h[:20])

		got := L1SubnetOwners(keyAddr, tt.genesis)
		require.Equal(t, []ids.ShortID{keyAddr, want}, got, tt.name)
		require.Equal(t, got, L1SubnetOwners(keyAddr, bytes.Clone(tt.genesis)), "%s: deterministic", tt.name)
		require.NotContains(t, seen, got[1], "%s: same tag as %s", tt.name, seen[got[1]])
		seen[got[1]] = tt.name
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// chainAfter is a transport whose eth_chainId answers 404 for the first calls, then a result;
// calls counts the calls.
func chainAfter(failures int32, calls *atomic.Int32) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		n := calls.Add(1)
		if n <= failures {
			return &http.Response{StatusCode: http.StatusNotFound, Body: io.NopCloser(strings.NewReader("404 page not found\n")), Request: r}, nil
		}
		body := `{"jsonrpc":"2.0","id":1,"result":"0x1"}`
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})}
}

func TestWaitChain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		failures  int32
		timeout   time.Duration
		wantCalls int32
		wantErr   error
	}{
		{name: "answers at once", failures: 0, timeout: time.Second, wantCalls: 1},
		{name: "answers after a while", failures: 10, timeout: time.Second, wantCalls: 11},
		{name: "never answers", failures: 1 << 30, timeout: time.Second, wantCalls: int32(time.Second/l1PollInterval) + 1, wantErr: ErrChainNotUp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var calls atomic.Int32
				client, err := NewClient("http://127.0.0.1:1", chainAfter(tt.failures, &calls))
				require.NoError(t, err)
				err = waitChain(t.Context(), clock.Real{}, client, "/ext/bc/abc/rpc", tt.timeout)
				require.ErrorIs(t, err, tt.wantErr)
				require.Equal(t, tt.wantCalls, calls.Load())
				if tt.wantErr != nil {
					require.ErrorContains(t, err, "the L1 chain did not answer in time: http://127.0.0.1:1/ext/bc/abc/rpc: eth_chainId: HTTP 404")
				}
			})
		})
	}
}

// startNode starts a local node on port 0 with the VMs cornice runs and returns a client of it.
func startNode(t *testing.T) *Client {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	fees := config.TxFeesFor(cfg.NetworkID, cfg.TxFee, cfg.CreateAssetTxFee)
	n, err := node.New(cfg, slog.New(slog.DiscardHandler), node.VMs{
		genesis.AVMID:    exchange.Factory{CortinaTime: cfg.Upgrades.CortinaTime, StopVertexID: cfg.Upgrades.CortinaXChainStopVertexID, TxFee: fees.TxFee, CreateAssetTxFee: fees.CreateAssetTxFee},
		genesis.EVMID:    evm.Factory{},
		node.SubnetEVMID: evm.L1Factory{},
	})
	require.NoError(t, err)
	nodetest.Run(t, n)
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	t.Cleanup(hc.CloseIdleConnections)
	client, err := NewClient("http://"+n.HTTPAddr().String(), hc)
	require.NoError(t, err)
	return client
}

// startL1Test begins a test that makes L1s on a real node (skipped with -short, parallel to
// others): it returns the node's client, the local funded key, and the example L1 genesis with
// its EVM chain ID replaced.
func startL1Test(t *testing.T) (*Client, *Key, func(chainID string) []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a node and makes L1s")
	}
	t.Parallel()
	client := startNode(t)
	key, err := ParseKey(LocalKey)
	require.NoError(t, err)
	example, err := os.ReadFile(exampleL1Genesis)
	require.NoError(t, err)
	return client, key, func(chainID string) []byte {
		g := bytes.Replace(example, []byte(`"chainId": 99999`), []byte(`"chainId": `+chainID), 1)
		require.NotEqual(t, example, g)
		return g
	}
}

// TestCreateL1 makes L1s on a real node: a new one, the same one again (reused), one on a subnet
// an interrupted attempt left without its chain, one validated by two nodes, and none for a
// genesis the node would refuse.
func TestCreateL1(t *testing.T) {
	client, key, genesisFor := startL1Test(t)
	ctx := t.Context()
	const wait = time.Minute
	req := L1Request{Genesis: genesisFor("77001"), Name: "first", Balance: DefaultL1Balance, Weight: DefaultL1Weight}
	clk := clock.Real{}

	// A new L1, converted, with the node as its validator, and answering.
	first, err := CreateL1(ctx, client, key, req, wait, clk)
	require.NoError(t, err)
	require.False(t, first.Reused)
	require.NotEqual(t, ids.Empty, first.BlockchainID)
	var subnet api.GetSubnetReply
	require.NoError(t, client.Call(ctx, pPath, "platform.getSubnet", api.GetSubnetArgs{SubnetID: first.SubnetID}, &subnet))
	require.NotEqual(t, ids.Empty, subnet.ConversionID)
	require.Equal(t, first.BlockchainID, subnet.ManagerChainID)
	var chainID string
	require.NoError(t, client.Call(ctx, "/ext/bc/"+first.BlockchainID.String()+"/rpc", "eth_chainId", []any{}, &chainID))
	require.Equal(t, "0x12cc9", chainID) // 77001

	// The same genesis again: the same chain, reused.
	again, err := CreateL1(ctx, client, key, req, wait, clk)
	require.NoError(t, err)
	require.Equal(t, L1Result{BlockchainID: first.BlockchainID, SubnetID: first.SubnetID, Reused: true, ChainID: big.NewInt(77001)}, again)

	// A subnet made for a genesis, whose chain never came: the L1 is made on it.
	p, err := NewP(ctx, client, key, clk)
	require.NoError(t, err)
	orphanGenesis := genesisFor("77002")
	tx, err := p.CreateSubnetOwners(ctx, L1SubnetOwners(key.Address(), orphanGenesis))
	require.NoError(t, err)
	orphan, err := p.IssueAndWait(ctx, tx, wait)
	require.NoError(t, err)
	res, err := CreateL1(ctx, client, key, L1Request{Genesis: orphanGenesis, Name: "orphan", Balance: DefaultL1Balance, Weight: DefaultL1Weight}, wait, clk)
	require.NoError(t, err)
	require.False(t, res.Reused)
	require.Equal(t, orphan, res.SubnetID)
	require.NotEqual(t, first.BlockchainID, res.BlockchainID)

	// Validators named: both nodes' identities go into the conversion, each with the weight.
	other := startNode(t)
	res, err = CreateL1(ctx, client, key, L1Request{Genesis: genesisFor("77004"), Name: "pair", Balance: DefaultL1Balance, Weight: 7,
		Validators: []*Client{client, other}}, wait, clk)
	require.NoError(t, err)
	var validators struct {
		Validators []struct {
			NodeID ids.NodeID `json:"nodeID"`
			Weight string     `json:"weight"`
		} `json:"validators"`
	}
	require.NoError(t, client.Call(ctx, pPath, "platform.getCurrentValidators", map[string]any{"subnetID": res.SubnetID}, &validators))
	var got []ids.NodeID
	for _, v := range validators.Validators {
		require.Equal(t, "7", v.Weight)
		got = append(got, v.NodeID)
	}
	var want []ids.NodeID
	for _, c := range []*Client{client, other} {
		id, _, err := NodeIdentity(ctx, c)
		require.NoError(t, err)
		want = append(want, id)
	}
	require.ElementsMatch(t, want, got)

	// A genesis the node would refuse costs nothing: no tx is issued.
	before, err := p.UTXOs(ctx)
	require.NoError(t, err)
	var bad map[string]any
	require.NoError(t, json.Unmarshal(genesisFor("77003"), &bad))
	bad["gasLimit"] = "0x7a1201"
	badGenesis, err := json.Marshal(bad)
	require.NoError(t, err)
	_, err = CreateL1(ctx, client, key, L1Request{Genesis: badGenesis, Name: "bad", Balance: DefaultL1Balance, Weight: DefaultL1Weight}, wait, clk)
	require.ErrorContains(t, err, "L1 genesis: gas limit in fee config (8000000) does not match gas limit in header (8000001)")
	after, err := p.UTXOs(ctx)
	require.NoError(t, err)
	require.Len(t, after, len(before))
	for i := range before {
		require.Equal(t, before[i].InputID(), after[i].InputID())
	}
}
