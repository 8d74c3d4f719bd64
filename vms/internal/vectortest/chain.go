package vectortest

import (
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Chain is a chain manager running one chain of the local network over a database in a
// directory, its API served by an httptest server and called through the embedded Client.
type Chain struct {
	*Client
	DB      *storage.DB
	Manager *chains.Manager
	Server  *httptest.Server
	Index   *Recorder
	tb      testing.TB
}

// StartChain opens the database in dir, starts a chain manager for network networkID, creates
// the chain spec returns (it may alias chains in the registry first) and serves its API, its
// methods in namespace. The test's cleanup stops it. (It takes networkID rather than importing
// package genesis, which imports the VMs that import this package.)
func StartChain(tb testing.TB, dir string, clk clock.Clock, networkID uint32, namespace string, spec func(*chains.Registry) chains.Spec) *Chain {
	tb.Helper()
	log := slog.New(slog.NewTextHandler(tb.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(dir, log)
	require.NoError(tb, err)
	reg, err := chains.NewRegistry(db.Prefixed(storage.PrefixChains), log)
	require.NoError(tb, err)
	r := &Routes{}
	rec := &Recorder{}
	m, err := chains.NewManager(chains.ManagerConfig{NetworkID: networkID}, chains.ManagerDeps{
		DB: db, Registry: reg, Routes: r, Indexer: rec, Engines: solo.Factory{}, Clock: clk, Log: log,
	})
	require.NoError(tb, err)
	require.NoError(tb, m.Create(tb.Context(), spec(reg)))
	srv := httptest.NewServer(r.Handler(""))
	c := &Chain{
		Client: &Client{TB: tb, URL: srv.URL, Namespace: namespace},
		DB:     db, Manager: m, Server: srv, Index: rec, tb: tb,
	}
	tb.Cleanup(c.Stop)
	return c
}

// Stop closes the server, the manager and the database; later calls do nothing.
func (c *Chain) Stop() {
	if c.Manager == nil {
		return
	}
	c.Server.Close()
	require.NoError(c.tb, c.Manager.Close())
	require.NoError(c.tb, c.DB.Close())
	c.Manager = nil
}

// LastAccepted returns the ID of the last accepted block of the running chain chainID.
func (c *Chain) LastAccepted(chainID ids.ID) ids.ID {
	c.tb.Helper()
	vm, ok := c.Manager.VM(chainID)
	require.True(c.tb, ok, "chain %s is not running", chainID)
	last, err := vm.LastAccepted(c.tb.Context())
	require.NoError(c.tb, err)
	return last
}

// IssueBytes issues signed tx bytes (hex) and returns the txID the node replies.
func (c *Client) IssueBytes(b []byte) ids.ID {
	c.TB.Helper()
	hexTx, err := ids.Hex.Encode(b)
	require.NoError(c.TB, err)
	var reply struct {
		TxID ids.ID `json:"txID"`
	}
	c.Result("issueTx", MustJSON(c.TB, map[string]string{"tx": hexTx, "encoding": "hex"}), &reply)
	return reply.TxID
}

// IssueTxError issues a signed tx, which the node refuses, and returns the message of the error
// reply.
func (c *Client) IssueTxError(tx interface{ Bytes() []byte }) string {
	c.TB.Helper()
	return c.IssueError(tx.Bytes())
}

// IssueError issues signed tx bytes and returns the message of the error reply.
func (c *Client) IssueError(b []byte) string {
	c.TB.Helper()
	hexTx, err := ids.Hex.Encode(b)
	require.NoError(c.TB, err)
	return c.CallError("issueTx", MustJSON(c.TB, map[string]string{"tx": hexTx}))
}

// WaitStatus waits, for up to 20 s, until getTxStatus reports status for txID.
func (c *Client) WaitStatus(txID ids.ID, status string) {
	c.TB.Helper()
	require.Eventually(c.TB, func() bool {
		var st struct {
			Status string `json:"status"`
		}
		c.Result("getTxStatus", `{"txID":"`+txID.String()+`"}`, &st)
		return st.Status == status
	}, 20*time.Second, 2*time.Millisecond, "tx %s", txID)
}

// Height returns getHeight's height, as the node sends it.
func (c *Client) Height() string {
	c.TB.Helper()
	var h struct {
		Height string `json:"height"`
	}
	c.Result("getHeight", `{}`, &h)
	return h.Height
}

// UTXOBytes returns the bytes of the UTXOs addr owns (getUTXOs, hexnc).
func (c *Client) UTXOBytes(addr string) [][]byte {
	c.TB.Helper()
	var reply struct {
		UTXOs []string `json:"utxos"`
	}
	c.Result("getUTXOs", `{"addresses":["`+addr+`"],"encoding":"hexnc"}`, &reply)
	out := make([][]byte, 0, len(reply.UTXOs))
	for _, s := range reply.UTXOs {
		b, err := ids.HexNC.Decode(s)
		require.NoError(c.TB, err)
		out = append(out, b)
	}
	return out
}

// ParseAll parses each of bs with parse, failing the test on any error.
func ParseAll[T any](tb testing.TB, bs [][]byte, parse func([]byte) (T, error)) []T {
	tb.Helper()
	out := make([]T, 0, len(bs))
	for _, b := range bs {
		v, err := parse(b)
		require.NoError(tb, err)
		out = append(out, v)
	}
	return out
}
