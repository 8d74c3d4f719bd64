package evm

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGethLogger checks that go-ethereum's messages below GethLogLevel, and
// its rpc server's reports of calls answered with an error, are dropped,
// and the others reach the node's handler tagged lib=geth, with
// go-ethereum's context attributes.
func TestGethLogger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		nodeLevel slog.Level
		want      []string
	}{
		{name: "node at debug", nodeLevel: slog.LevelDebug, want: []string{"level=WARN msg=warn lib=geth k=1", "level=ERROR msg=error lib=geth sub=x k=2"}},
		{name: "node at error", nodeLevel: slog.LevelError, want: []string{"level=ERROR msg=error lib=geth sub=x k=2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			node := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
				Level: tt.nodeLevel,
				ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey {
						return slog.Attr{}
					}
					return a
				},
			}))
			l := GethLogger(node)
			l.Trace("trace", "k", 0)
			l.Debug("debug", "k", 0)
			l.Info("info", "k", 0)
			l.Warn("warn", "k", 1)
			l.Warn("Served eth_call", "err", "execution reverted") // answered to the client
			l.New("sub", "x").Error("error", "k", 2)
			require.False(t, l.Enabled(t.Context(), slog.LevelInfo))
			require.Equal(t, tt.want, strings.Split(strings.TrimSpace(buf.String()), "\n"))
		})
	}
}
