package evm

import (
	"context"
	"log/slog"
	"strings"

	gethlog "github.com/ethereum/go-ethereum/log"
)

// GethLogLevel is the lowest level of go-ethereum's own messages that
// GethLogger passes on: go-ethereum logs every RPC call and trie flush at
// Debug and Trace, which would drown the node's log.
const GethLogLevel = slog.LevelWarn

// GethLogger returns a go-ethereum logger that writes go-ethereum's own
// messages (its rpc server's, its trie database's, ...) of GethLogLevel and
// above to log's handler, tagged lib=geth, also at that handler's own
// minimum level.
//
// go-ethereum logs through one process-wide logger, which discards
// everything until gethlog.SetDefault replaces it; only cmd/cornice may
// call that (STYLE.md rule 18). The logger is a type of its own, so that
// SetDefault leaves slog's default logger and the standard log package
// alone (it makes them go-ethereum's when given go-ethereum's own type).
// go-ethereum's Crit level (slog.LevelError+4) still ends the process, as
// go-ethereum does after logging it.
func GethLogger(log *slog.Logger) gethlog.Logger {
	h := minLevelHandler{inner: log.Handler(), min: GethLogLevel}
	return gethLogger{gethlog.NewLogger(h.WithAttrs([]slog.Attr{slog.String("lib", "geth")}))}
}

// gethLogger is go-ethereum's logger under a type of its own (see
// GethLogger).
type gethLogger struct{ gethlog.Logger }

// minLevelHandler passes on the records of level min and above.
type minLevelHandler struct {
	inner slog.Handler
	min   slog.Level
}

var _ slog.Handler = minLevelHandler{}

func (h minLevelHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.inner.Enabled(ctx, l)
}

func (h minLevelHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < h.min || isServedCall(r) {
		return nil
	}
	return h.inner.Handle(ctx, r)
}

// isServedCall reports go-ethereum's rpc server telling, at Warn, that it answered a call with an
// error ("Served eth_call … err=execution reverted"): the error went to the client, a revert or
// an unknown method is no trouble of the node's, and a dev node would log a line per failing
// call.
func isServedCall(r slog.Record) bool { return strings.HasPrefix(r.Message, "Served ") }

func (h minLevelHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevelHandler{inner: h.inner.WithAttrs(attrs), min: h.min}
}

func (h minLevelHandler) WithGroup(name string) slog.Handler {
	return minLevelHandler{inner: h.inner.WithGroup(name), min: h.min}
}
