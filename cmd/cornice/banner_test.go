package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/wallet"
)

// fakeNode serves eth_chainId for the chains of answers (by alias) on a test server; the others
// answer 404.
type fakeNode struct {
	addr   net.Addr
	chains []node.ServedChain
}

func (n fakeNode) NodeID() ids.NodeID         { return ids.NodeID{1} }
func (n fakeNode) HTTPAddr() net.Addr         { return n.addr }
func (n fakeNode) Chains() []node.ServedChain { return n.chains }

func newFakeNode(t *testing.T, chains []node.ServedChain, answers map[string]string) fakeNode {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		alias, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/ext/bc/"), "/rpc")
		id, known := answers[alias]
		body, _ := io.ReadAll(r.Body)
		var req struct{ Method string }
		if !ok || !known || json.Unmarshal(body, &req) != nil || req.Method != "eth_chainId" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"`+id+`"}`)
	}))
	t.Cleanup(srv.Close)
	return fakeNode{addr: srv.Listener.Addr(), chains: chains}
}

// TestBannerText pins the banner of a local node with an L1 made by --l1, and one whose chain
// does not answer.
func TestBannerText(t *testing.T) {
	t.Parallel()
	l1 := ids.ID{7}
	broken := ids.ID{8}
	served := []node.ServedChain{
		{Chain: chains.Chain{ID: ids.Empty, VMID: ids.ID{9}, Name: "P-Chain"}, Alias: "P"},
		{Chain: chains.Chain{ID: ids.ID{2}, VMID: genesis.AVMID, Name: "X-Chain"}, Alias: "X"},
		{Chain: chains.Chain{ID: ids.ID{3}, VMID: genesis.EVMID, Name: "C-Chain"}, Alias: "C"},
		{Chain: chains.Chain{ID: l1, SubnetID: ids.ID{5}, VMID: node.SubnetEVMID, Name: "my l1"}, Alias: l1.String()},
		{Chain: chains.Chain{ID: broken, SubnetID: ids.ID{6}, VMID: node.SubnetEVMID, Name: "broken"}, Alias: broken.String()},
	}
	n := newFakeNode(t, served, map[string]string{"C": "0xa868", l1.String(): "0x1092"})
	cfg := config.Default()
	cfg.DataDir = "/home/me/.cornice"
	b := newBanner(t.Context(), n, cfg, []wallet.L1Result{{BlockchainID: l1, Reused: true}})
	var out strings.Builder
	require.NoError(t, b.write(&out))
	base := "http://" + n.addr.String()
	want := config.Current() + ` serves network local (ID 12345) as {NODE}

EVM chains (a wallet's "add network": RPC URL, chain ID, symbol)
  C-Chain          chain ID 43112, symbol AVAX
    rpc            {BASE}/ext/bc/C/rpc
    ws             {WS}/ext/bc/C/ws
  my l1            chain ID 4242, symbol L1, reused by --l1
    rpc            {BASE}/ext/bc/{L1}/rpc
    ws             {WS}/ext/bc/{L1}/ws
    validators     {BASE}/ext/bc/{L1}/validators
    blockchain ID  {L1}
    subnet ID      {SUBNET}
  broken           chain ID unknown (eth_chainId: HTTP 404: 404 page not found), symbol L1
    rpc            {BASE}/ext/bc/{BROKEN}/rpc
    ws             {WS}/ext/bc/{BROKEN}/ws
    validators     {BASE}/ext/bc/{BROKEN}/validators
    blockchain ID  {BROKEN}
    subnet ID      {SUBNET6}

Other APIs
  P-Chain          {BASE}/ext/bc/P
  X-Chain          {BASE}/ext/bc/X
  info             {BASE}/ext/info
  index            {BASE}/ext/index/<chain>/block (<chain>: P, X, C or a blockchain ID; X also /tx)

Funded key (the well-known local key: public, never use it on a real network)
  private key      0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027
                   PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN
  C address        0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC
  X address        X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u
  P address        P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u

Dev methods        on (auto: the node runs the local network alone)
Data dir           /home/me/.cornice
`
	want = strings.NewReplacer("{NODE}", ids.NodeID{1}.String(), "{BASE}", base, "{WS}", "ws://"+n.addr.String(),
		"{BROKEN}", broken.String(), "{L1}", l1.String(), "{SUBNET6}", ids.ID{6}.String(), "{SUBNET}", ids.ID{5}.String()).Replace(want)
	require.Equal(t, want, out.String())
}

// TestBannerOtherNetwork: on a network without a built-in genesis the banner says that no chain
// runs and that no key is funded; APIs turned off say so.
func TestBannerOtherNetwork(t *testing.T) {
	t.Parallel()
	n := newFakeNode(t, nil, nil)
	cfg := config.Default()
	cfg.NetworkID, cfg.APIInfoEnabled, cfg.IndexEnabled, cfg.DataDir = config.FujiID, false, false, "/d"
	var out strings.Builder
	require.NoError(t, newBanner(t.Context(), n, cfg, nil).write(&out))
	want := config.Current() + ` serves network fuji (ID 5) as ` + ids.NodeID{1}.String() + `

EVM chains (a wallet's "add network": RPC URL, chain ID, symbol)
  none: cornice has a genesis for the local network only (docs/configuration.md)

Other APIs
  info             off (--api-info-enabled)
  index            off (--index-enabled)

Funded key: none (only the local network's genesis funds one)

Dev methods        off (auto: on only for the local network alone)
Data dir           /d
`
	require.Equal(t, want, out.String())
}

// TestBannerDevMethods: the Dev methods line says what config.DevMethodsEnabled decides, and why.
func TestBannerDevMethods(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		edit func(c *config.Config)
		want string
	}{
		{"auto, local alone", func(*config.Config) {}, "on (auto: the node runs the local network alone)"},
		{"auto, with peers", func(c *config.Config) { c.P2P.BootstrapIPs = []string{"127.0.0.1:9651"} }, "off (auto: on only for the local network alone)"},
		{"on", func(c *config.Config) { c.NetworkID, c.DevMethods = 1337, config.SwitchOn }, "on (--dev-methods)"},
		{"off", func(c *config.Config) { c.DevMethods = config.SwitchOff }, "off (--dev-methods=false)"},
	} {
		cfg := config.Default()
		tt.edit(&cfg)
		require.Equal(t, tt.want, devMethods(cfg), tt.name)
	}
}

// TestUserAddr: a node listening on every interface is shown at the loopback address, which a
// client on the same machine reaches; other addresses are shown as bound.
func TestUserAddr(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"0.0.0.0:9650":   "127.0.0.1:9650",
		"[::]:9650":      "127.0.0.1:9650",
		"127.0.0.1:1234": "127.0.0.1:1234",
		"[::1]:5":        "[::1]:5",
		"10.0.0.7:9650":  "10.0.0.7:9650",
	} {
		addr, err := net.ResolveTCPAddr("tcp", in)
		require.NoError(t, err)
		require.Equal(t, want, userAddr(addr), in)
	}
}
