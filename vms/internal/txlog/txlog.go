// Package txlog logs the transactions a chain's API takes in, one info line each (its ID, its
// sender where it has one, and whether the chain took it), without letting a load test pay for a
// line per transaction: past a number of lines a second it counts the transactions it does not
// log and says how many in one line, when the next second's first transaction comes.
package txlog

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/cornice-node/cornice/clock"
)

// DefaultPerSecond is how many transactions a Logger logs one by one each second.
const DefaultPerSecond = 20

// Logger logs issued transactions; the zero value is not usable: make one with New. Its
// methods are safe for concurrent use.
type Logger struct {
	log       *slog.Logger
	clock     clock.Clock
	perSecond int

	mu sync.Mutex
	// window is when the current second began; logged counts its lines, and skipped and
	// refused count the transactions (and of them the refused ones) it did not log.
	window           time.Time
	logged           int
	skipped, refused int
}

// New returns a Logger writing to log at info, at most perSecond transactions a second one by
// one (DefaultPerSecond if it is not positive), its seconds read on clk.
func New(log *slog.Logger, clk clock.Clock, perSecond int) *Logger {
	if perSecond <= 0 {
		perSecond = DefaultPerSecond
	}
	return &Logger{log: log, clock: clk, perSecond: perSecond}
}

// Issued logs that the transaction id was issued through the API, and its outcome: taken (err
// nil) or refused with err. from, which may be nil, gives its sender; it is called only for a
// transaction that is logged, so that an expensive sender costs nothing under load.
func (l *Logger) Issued(id string, from func() string, err error) {
	if !l.log.Enabled(context.Background(), slog.LevelInfo) {
		return
	}
	now := l.clock.Now()
	l.mu.Lock()
	var skipped, refused int
	if now.Sub(l.window) >= time.Second {
		skipped, refused = l.skipped, l.refused
		l.window, l.logged, l.skipped, l.refused = now, 0, 0, 0
	}
	log := l.logged < l.perSecond
	if log {
		l.logged++
	} else {
		l.skipped++
		if err != nil {
			l.refused++
		}
	}
	l.mu.Unlock()

	if skipped > 0 {
		l.log.Info("more transactions issued than are logged one by one", "count", skipped, "refused", refused, "perSecond", l.perSecond)
	}
	if !log {
		return
	}
	attrs := []any{"txID", id}
	if from != nil {
		attrs = append(attrs, "from", from())
	}
	if err != nil {
		l.log.Info("transaction refused", append(attrs, "err", err)...)
		return
	}
	l.log.Info("transaction issued", attrs...)
}
