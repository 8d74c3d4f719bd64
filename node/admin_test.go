package node_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// admin.aliasChain adds an alias that info resolves and whose /ext/bc/<alias> routes serve the
// chain; both survive a restart (issue #3 §1).
func TestAdminAliasChain(t *testing.T) {
	t.Parallel()
	tn := newTestNet()
	cfg := nodeConfig(t.TempDir())
	cfg.APIAdminEnabled = true

	n := start(t, cfg, tn.chains(false)...)
	require.Equal(t, okReply(`{}`), call(t, n.url+"/ext/admin", "admin.aliasChain", `{"chain":"X","alias":"exchange"}`))
	require.Equal(t, errReply("alias already mapped to an ID: exchange"),
		call(t, n.url+"/ext/admin", "admin.aliasChain", `{"chain":"C","alias":"exchange"}`))
	require.Equal(t, okReply(`{"aliases":["X","avm","`+testXID.String()+`","exchange"]}`),
		call(t, n.url+"/ext/admin", "admin.getChainAliases", `{"chain":"X"}`))
	putAll(t, n.url+"/ext/bc/exchange/rpc", "k1")
	require.NoError(t, n.stop())

	n = start(t, cfg, tn.chains(false)...)
	require.Equal(t, okReply(`{"blockchainID":"`+testXID.String()+`"}`),
		call(t, n.url+"/ext/info", "info.getBlockchainID", `{"alias":"exchange"}`))
	var got struct{ Value string }
	require.NoError(t, callRPC(n.url+"/ext/bc/exchange/rpc", "kv.get", `{"key":"k1"}`, &got))
	require.Equal(t, "k1=v", got.Value)

	// Without the admin API, /ext/admin does not exist.
	cfg.APIAdminEnabled = false
	require.NoError(t, n.stop())
	n = start(t, cfg, tn.chains(false)...)
	resp, _ := post(t, n.url+"/ext/admin", `{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases","params":{"chain":"X"}}`)
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}
