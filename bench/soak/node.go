package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/vmset"
)

// newSoakNode builds a node as `cornice run` builds it (network local, the X-, P- and C-Chains
// and L1s of the Subnet-EVM VM, indexing on) in dataDir, with HTTP and staking ports chosen by
// the OS on 127.0.0.1.
func newSoakNode(dataDir string, log *slog.Logger) (*node.Node, error) {
	c := config.Default()
	c.DataDir = dataDir
	c.HTTPPort = 0
	c.StakingPort = 0
	return node.New(c, log, vmset.For(c))
}

// logCapture is a slog handler for the node: it writes records at or above its level to out,
// and keeps every ERROR record, formatted as text, whatever the level. Handlers derived with
// WithAttrs or WithGroup share the kept records.
type logCapture struct {
	out, kept slog.Handler
	errs      *errorLines
}

// errorLines collects the ERROR records, one text line each. It is safe for concurrent use.
type errorLines struct {
	mu sync.Mutex
	// lines holds the records, each ending in a newline; a TextHandler writes each record
	// with one Write.
	lines []string
}

func (e *errorLines) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lines = append(e.lines, string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

// snapshot returns a copy of the lines kept so far.
func (e *errorLines) snapshot() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.lines...)
}

// newLogCapture returns a handler writing records at level or above to out as text.
func newLogCapture(out io.Writer, level slog.Level) *logCapture {
	errs := &errorLines{}
	return &logCapture{
		out:  slog.NewTextHandler(out, &slog.HandlerOptions{Level: level}),
		kept: slog.NewTextHandler(errs, &slog.HandlerOptions{Level: slog.LevelError}),
		errs: errs,
	}
}

func (h *logCapture) Enabled(ctx context.Context, l slog.Level) bool {
	return h.out.Enabled(ctx, l) || h.kept.Enabled(ctx, l)
}

func (h *logCapture) Handle(ctx context.Context, r slog.Record) error {
	var err error
	if h.kept.Enabled(ctx, r.Level) {
		err = h.kept.Handle(ctx, r.Clone())
	}
	if h.out.Enabled(ctx, r.Level) {
		if oerr := h.out.Handle(ctx, r); err == nil {
			err = oerr
		}
	}
	return err
}

func (h *logCapture) WithAttrs(as []slog.Attr) slog.Handler {
	return &logCapture{out: h.out.WithAttrs(as), kept: h.kept.WithAttrs(as), errs: h.errs}
}

func (h *logCapture) WithGroup(name string) slog.Handler {
	return &logCapture{out: h.out.WithGroup(name), kept: h.kept.WithGroup(name), errs: h.errs}
}
