package proposervm_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/proposervm"
)

type fakeChain struct {
	at      time.Time
	running bool
}

func (c *fakeChain) LastAcceptedTime() (time.Time, bool) { return c.at, c.running }

type fakePChain struct {
	height uint64
	err    error
}

func (p *fakePChain) PChainHeight(context.Context) (uint64, error) { return p.height, p.err }

// post sends one JSON-RPC request to h and returns the reply's body.
func post(t *testing.T, h http.Handler, body string) string {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}

// TestService checks both methods' replies, with the params the reference takes ({}, none, []),
// and their errors.
func TestService(t *testing.T) {
	t.Parallel()
	chain := &fakeChain{at: time.Unix(1_791_000_123, 0), running: true}
	p := &fakePChain{height: 56}
	s, err := proposervm.New(proposervm.Config{Chain: chain, PChain: p, Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	h := s.Handler()
	for _, params := range []string{`,"params":{}`, ``, `,"params":[]`} {
		require.Equal(t, `{"jsonrpc":"2.0","result":{"height":"56"},"id":1}`,
			post(t, h, `{"jsonrpc":"2.0","id":1,"method":"proposervm.getProposedHeight"`+params+`}`), params)
		require.Equal(t, `{"jsonrpc":"2.0","result":{"number":"1","startTime":"1791000123","pChainHeight":"56"},"id":1}`,
			post(t, h, `{"jsonrpc":"2.0","id":1,"method":"proposervm.getCurrentEpoch"`+params+`}`), params)
	}

	p.err = errors.New("the P-Chain is not running")
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"failed to get child p-chain height: the P-Chain is not running","data":null},"id":1}`,
		post(t, h, `{"jsonrpc":"2.0","id":1,"method":"proposervm.getProposedHeight","params":{}}`))
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"couldn't get current epoch: the P-Chain is not running","data":null},"id":1}`,
		post(t, h, `{"jsonrpc":"2.0","id":1,"method":"proposervm.getCurrentEpoch","params":{}}`))
	chain.running = false
	require.Equal(t, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"couldn't get current epoch: couldn't get preferred block","data":null},"id":1}`,
		post(t, h, `{"jsonrpc":"2.0","id":1,"method":"proposervm.getCurrentEpoch","params":{}}`))
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	_, err := proposervm.New(proposervm.Config{})
	require.ErrorIs(t, err, proposervm.ErrInvalidConfig)
	require.ErrorContains(t, err, "Chain is required")
	require.ErrorContains(t, err, "PChain is required")
	require.ErrorContains(t, err, "Log is required")
}

type fakeProposer struct {
	height uint64
	epoch  proposervm.Epoch
}

func (p *fakeProposer) ProposedHeight(context.Context) (uint64, error) { return p.height, nil }
func (p *fakeProposer) CurrentEpoch(context.Context) (proposervm.Epoch, error) {
	return p.epoch, nil
}

// TestServiceWrapped checks that a chain in proposer windows answers with its layer's height and
// epoch, not the lone node's.
func TestServiceWrapped(t *testing.T) {
	t.Parallel()
	pr := &fakeProposer{height: 41, epoch: proposervm.Epoch{Number: 7, StartTime: 1_791_000_000, PChainHeight: 40}}
	s, err := proposervm.New(proposervm.Config{
		Chain:    &fakeChain{at: time.Unix(1_791_000_123, 0), running: true},
		PChain:   &fakePChain{height: 56},
		Proposer: func() (proposervm.Proposer, bool) { return pr, true },
		Log:      slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	require.Equal(t, `{"jsonrpc":"2.0","result":{"height":"41"},"id":1}`,
		post(t, s.Handler(), `{"jsonrpc":"2.0","id":1,"method":"proposervm.getProposedHeight","params":{}}`))
	require.Equal(t, `{"jsonrpc":"2.0","result":{"number":"7","startTime":"1791000000","pChainHeight":"40"},"id":1}`,
		post(t, s.Handler(), `{"jsonrpc":"2.0","id":1,"method":"proposervm.getCurrentEpoch","params":{}}`))
}
