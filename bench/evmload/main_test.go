package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/clock"
)

func TestParseFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		wantErr error
		want    string // in the error text
	}{
		{name: "transfers", args: []string{"-n", "10", "transfers"}},
		{name: "call", args: []string{"-url", "http://localhost:9650", "call"}},
		{name: "node", args: []string{"-data-dir", "/tmp/x", "node"}},
		{name: "no mode", args: []string{"-n", "10"}, wantErr: errUsage},
		{name: "unknown mode", args: []string{"flood"}, wantErr: errUsage, want: `"flood"`},
		{name: "not loopback", args: []string{"-url", "http://10.0.0.1:9650", "transfers"}, wantErr: loopback.ErrNotLoopback},
		{name: "https", args: []string{"-url", "https://127.0.0.1:9650", "call"}, wantErr: loopback.ErrScheme},
		{name: "zero batch", args: []string{"-batch", "0", "transfers"}, wantErr: errBadBound},
		{name: "node without data dir", args: []string{"node"}, want: "-data-dir"},
		{name: "node port", args: []string{"-data-dir", "d", "-http-port", "70000", "node"}, want: "70000"},
		{name: "node l1", args: []string{"-l1", "-data-dir", "d", "node"}},
		{name: "l1 outside node mode", args: []string{"-l1", "transfers"}, wantErr: errL1Mode},
		{name: "L1 RPC URL", args: []string{"-url", "http://127.0.0.1:9650/ext/bc/2Z/rpc", "transfers"}},
		{name: "mine", args: []string{"-n", "5", "mine"}},
		{name: "snapshot", args: []string{"-blocks", "100", "-rounds", "3", "snapshot"}},
		{name: "zero blocks", args: []string{"-blocks", "0", "snapshot"}, wantErr: errBadBound},
		{name: "zero rounds", args: []string{"-rounds", "0", "snapshot"}, wantErr: errBadBound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseFlags(tt.args, io.Discard)
			if tt.wantErr == nil && tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			require.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	require.Zero(t, percentile(nil, 50))
	var sorted []time.Duration
	for i := 1; i <= 10; i++ {
		sorted = append(sorted, time.Duration(i))
	}
	tests := []struct {
		p    int
		want time.Duration
	}{{1, 1}, {50, 5}, {99, 10}, {100, 10}}
	for _, tt := range tests {
		require.Equal(t, tt.want, percentile(sorted, tt.p), tt.p)
	}
}

func TestDecodeBatch(t *testing.T) {
	t.Parallel()
	reqs := []request{newRequest(7, "a"), newRequest(9, "b")}
	got, err := decodeBatch([]byte(`[{"id":9,"result":"0x2"},{"id":7,"error":{"code":-32000,"message":"nonce too low"}}]`), reqs)
	require.NoError(t, err)
	require.Equal(t, 7, got[0].ID)
	require.Equal(t, "nonce too low", got[0].Error.Message)
	require.JSONEq(t, `"0x2"`, string(got[1].Result))
	_, err = decodeBatch([]byte(`[{"id":9,"result":"0x2"}]`), reqs)
	require.ErrorContains(t, err, "no answer to call 7")
}

func FuzzDecodeBatch(f *testing.F) {
	for _, s := range []string{`[]`, `[{"id":1,"result":"0x1"}]`, `{"id":1}`, `[{"id":1,"error":{"code":1}}]`, `null`} {
		f.Add([]byte(s))
	}
	reqs := []request{newRequest(1, "a")}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeBatch(data, reqs)
		if err == nil {
			require.Len(t, got, 1)
			require.Equal(t, 1, got[0].ID)
		}
	})
}

// TestRun loads a real node, built as the node mode builds it, with each mode of the tool:
// transfers batched and not (every sender's nonce is checked by the tool), eth_call, evm_mine,
// and evm_snapshot and evm_revert on a longer chain.
func TestRun(t *testing.T) {
	t.Parallel()
	n, err := newBenchNode(t.TempDir(), 0, 0, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	url := "http://" + n.HTTPAddr().String()

	for _, tt := range []struct {
		args []string
		want string // in the last row
	}{
		{[]string{"-n", "300", "-senders", "7", "-batch", "50", "-c", "2", "-wave", "150", "transfers"}, "| cornice | 300 | "},
		{[]string{"-n", "100", "-senders", "3", "-c", "3", "-header=false", "transfers"}, "| cornice | 100 | "},
		{[]string{"-n", "200", "-c", "4", "call"}, "| cornice | eth_call | 4 | 200 | 0 |"},
		// The developer methods are on: the node runs the local network alone. The tool checks
		// the heights after every evm_mine, anvil_mine and evm_revert.
		{[]string{"-n", "20", "mine"}, "| cornice | evm_mine | 1 | 20 | 0 |"},
		{[]string{"-blocks", "50", "-rounds", "3", "snapshot"}, "| cornice | evm_revert of 50 blocks | 1 | "},
	} {
		var stdout bytes.Buffer
		require.NoError(t, run(t.Context(), clock.Real{}, append([]string{"-url", url}, tt.args...), &stdout, io.Discard), tt.args)
		rows := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		require.True(t, strings.HasPrefix(rows[len(rows)-1], tt.want), stdout.String())
	}
}
