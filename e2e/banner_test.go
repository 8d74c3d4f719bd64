package e2e_test

import (
	"context"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/wallet"
)

// firstScreen is the banner `cornice run` prints on stdout once it serves (issue #16 §3), read
// back.
type firstScreen struct {
	nodeID     string
	evm        []bannerEVM
	apis       map[string]string // P-Chain, X-Chain, info, index → URL (or "off …")
	keyHex     string
	keyCB58    string
	addrs      map[string]string // C, X, P → address
	devMethods string
	dataDir    string
}

// bannerEVM is one EVM chain of the banner.
type bannerEVM struct {
	name, chainID, symbol, status, rpc, ws, validators, blockchainID, subnetID string
}

var (
	bannerHead = regexp.MustCompile(`^\S+ serves network local \(ID 12345\) as (NodeID-\w+)\n`)
	bannerEVMs = regexp.MustCompile(`(?m)^  (\S.*?) +chain ID (\d+), symbol (\w+)(?:, (created|reused) by --l1)?\n` +
		`    rpc +(\S+)\n    ws +(\S+)\n(?:    validators +(\S+)\n    blockchain ID +(\S+)\n    subnet ID +(\S+)\n)?`)
	bannerAPI  = regexp.MustCompile(`(?m)^  (P-Chain|X-Chain|info|index) +(.+)$`)
	bannerKey  = regexp.MustCompile(`(?m)^  private key +(0x[0-9a-f]{64})\n +(PrivateKey-\w+)\n  C address +(\S+)\n  X address +(\S+)\n  P address +(\S+)\n`)
	bannerTail = regexp.MustCompile(`(?m)^Dev methods +(.+)\nData dir +(.+)\n\z`)
)

// readBanner waits until out holds the whole banner and parses it.
func readBanner(t *testing.T, out *nodetest.Buffer, errOut *nodetest.Buffer) firstScreen {
	t.Helper()
	require.Eventually(t, func() bool { return bannerTail.MatchString(out.String()) },
		l1KillWait, 10*time.Millisecond, "no banner: %s\n%s", out, errOut)
	text := out.String()
	var b firstScreen
	m := bannerHead.FindStringSubmatch(text)
	require.NotNil(t, m, text)
	b.nodeID = m[1]
	for _, m := range bannerEVMs.FindAllStringSubmatch(text, -1) {
		b.evm = append(b.evm, bannerEVM{m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9]})
	}
	b.apis = map[string]string{}
	for _, m := range bannerAPI.FindAllStringSubmatch(text, -1) {
		b.apis[m[1]] = m[2]
	}
	if m := bannerKey.FindStringSubmatch(text); m != nil {
		b.keyHex, b.keyCB58 = m[1], m[2]
		b.addrs = map[string]string{"C": m[3], "X": m[4], "P": m[5]}
	}
	m = bannerTail.FindStringSubmatch(text)
	b.devMethods, b.dataDir = m[1], m[2]
	return b
}

// runBanner starts `cornice run` with args on dataDir (logging errors only) and returns its
// banner; the node stops when the returned function is called (and at the test's end), which
// requires exit code 0 and returns the node's log.
func runBanner(t *testing.T, dataDir string, args ...string) (firstScreen, func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out, errOut := &nodetest.Buffer{}, &nodetest.Buffer{}
	code := startCLI(t, ctx, out, errOut, append([]string{"run", "--data-dir", dataDir, "--http-port=0",
		"--staking-port=0", "--log-level=error"}, args...)...)
	stopped := false
	stop := func() string {
		if !stopped {
			stopped = true
			http.DefaultClient.CloseIdleConnections() // see xNode.stop
			cancel()
			require.Equal(t, 0, <-code, errOut.String())
		}
		return errOut.String()
	}
	t.Cleanup(func() { stop() })
	return readBanner(t, out, errOut), stop
}

// TestBanner: the banner of `cornice run --l1` names URLs that answer as it says: each EVM
// chain's RPC and websocket give the printed chain ID, the funded key's C, X and P addresses
// hold funds, the info API gives the printed node ID, the index answers, and the data dir is the
// one given (issue #16 §3).
func TestBanner(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")
	gfile := filepath.Join(t.TempDir(), "my-l1.json")
	require.NoError(t, os.WriteFile(gfile, l1Genesis(t, 4242), 0o600))
	b, _ := runBanner(t, dataDir, "--l1", gfile)

	require.Len(t, b.evm, 2)
	c, l1 := b.evm[0], b.evm[1]
	require.Equal(t, bannerEVM{name: "C-Chain", chainID: "43112", symbol: "AVAX", rpc: c.rpc, ws: c.ws}, c)
	require.Regexp(t, `^http://127\.0\.0\.1:\d+/ext/bc/C/rpc$`, c.rpc)
	base := strings.TrimSuffix(c.rpc, "/ext/bc/C/rpc")
	require.Equal(t, "ws://"+strings.TrimPrefix(base, "http://")+"/ext/bc/C/ws", c.ws)
	require.Equal(t, "my l1", l1.name)
	require.Equal(t, "4242", l1.chainID)
	require.Equal(t, "L1", l1.symbol)
	require.Equal(t, "created", l1.status)
	require.Equal(t, base+"/ext/bc/"+l1.blockchainID+"/rpc", l1.rpc)
	require.Equal(t, base+"/ext/bc/"+l1.blockchainID+"/validators", l1.validators)
	for _, e := range b.evm {
		for _, url := range []string{e.rpc, e.ws} {
			got, err := chainID(url)
			require.NoError(t, err, url)
			require.Equal(t, e.chainID, got.String(), url)
		}
	}

	// The key is the well-known local key, and its addresses hold funds on C, X and P.
	key, err := wallet.ParseKey(b.keyHex)
	require.NoError(t, err)
	require.Equal(t, wallet.LocalKey, key.String())
	require.Equal(t, wallet.LocalKey, b.keyCB58)
	eth, err := ethclient.DialContext(t.Context(), c.rpc)
	require.NoError(t, err)
	defer eth.Close()
	cBalance, err := eth.BalanceAt(t.Context(), common.HexToAddress(b.addrs["C"]), nil)
	require.NoError(t, err)
	require.Positive(t, cBalance.Cmp(big.NewInt(0)))

	client := jsonrpc.NewClient(base, nil)
	call := func(url, method string, params, result any) {
		t.Helper()
		path, ok := strings.CutPrefix(url, base)
		require.True(t, ok, url)
		require.NoError(t, client.Call(t.Context(), path, method, params, result))
	}
	require.Equal(t, base+"/ext/bc/X", b.apis["X-Chain"])
	require.Equal(t, base+"/ext/bc/P", b.apis["P-Chain"])
	var xBalance struct {
		Balance uint64 `json:"balance,string"`
	}
	call(b.apis["X-Chain"], "avm.getBalance", map[string]string{"address": b.addrs["X"], "assetID": "AVAX"}, &xBalance)
	require.Positive(t, xBalance.Balance)
	var pBalance struct {
		Unlocked uint64 `json:"unlocked,string"`
	}
	call(b.apis["P-Chain"], "platform.getBalance", map[string][]string{"addresses": {b.addrs["P"]}}, &pBalance)
	require.Positive(t, pBalance.Unlocked)

	var nodeID struct {
		NodeID string `json:"nodeID"`
	}
	call(b.apis["info"], "info.getNodeID", nil, &nodeID)
	require.Equal(t, b.nodeID, nodeID.NodeID)
	index, _, ok := strings.Cut(b.apis["index"], " ")
	require.True(t, ok)
	// The index answers for each chain (an empty one with an error of its own, not a 404).
	for _, chain := range []string{"P", "X", "C", l1.blockchainID} {
		path, ok := strings.CutPrefix(strings.Replace(index, "<chain>", chain, 1), base)
		require.True(t, ok, index)
		status, reply, err := client.Post(t.Context(), path, []byte(`{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}`))
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, status, chain)
		require.Contains(t, string(reply), `"jsonrpc":"2.0"`, chain)
	}

	require.Equal(t, "on (auto: the node runs the local network alone)", b.devMethods)
	require.Equal(t, dataDir, b.dataDir)
}
