package txlog_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/vms/internal/txlog"
)

// lines returns the log's lines without their time.
func lines(buf *bytes.Buffer) []string {
	var out []string
	for l := range strings.SplitSeq(strings.TrimSpace(buf.String()), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	buf.Reset()
	return out
}

// TestIssued: each transaction is one info line until the second's budget is spent; the rest
// are counted and reported in one line with the next second's first transaction.
func TestIssued(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	clk := clock.NewFake(time.Unix(1_000_000, 0))
	l := txlog.New(log, clk, 2)
	from := func() string { return "0xabc" }
	noFrom := func() string { t.Fatal("from called for a transaction not logged"); return "" }

	l.Issued("0x1", from, nil)
	l.Issued("0x2", nil, errors.New("nonce too low"))
	l.Issued("0x3", noFrom, nil)
	l.Issued("0x4", noFrom, errors.New("nonce too low"))
	require.Equal(t, []string{
		`level=INFO msg="transaction issued" txID=0x1 from=0xabc`,
		`level=INFO msg="transaction refused" txID=0x2 err="nonce too low"`,
	}, lines(&buf))

	clk.Advance(time.Second)
	l.Issued("0x5", from, nil)
	require.Equal(t, []string{
		`level=INFO msg="more transactions issued than are logged one by one" count=2 refused=1 perSecond=2`,
		`level=INFO msg="transaction issued" txID=0x5 from=0xabc`,
	}, lines(&buf))

	// Above info nothing is logged, and from is not called.
	quiet := txlog.New(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})), clk, 0)
	quiet.Issued("0x6", noFrom, nil)
	require.Empty(t, lines(&buf))
}

// BenchmarkIssued is the cost of a transaction the Logger does not log one by one: what each
// transaction of a load test pays beyond the budget.
func BenchmarkIssued(b *testing.B) {
	l := txlog.New(slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), clock.Real{}, 1)
	from := func() string { return "0xabc" }
	l.Issued("0x0", from, nil)
	b.ReportAllocs()
	for b.Loop() {
		l.Issued("0x1", from, nil)
	}
}

// BenchmarkIssuedLogged is the cost of a transaction that is logged one by one (to a discarding
// writer: a terminal or a file costs more): what every transaction would pay without the cap.
func BenchmarkIssuedLogged(b *testing.B) {
	l := txlog.New(slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}, 1<<62)
	from := func() string { return "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC" }
	b.ReportAllocs()
	for b.Loop() {
		l.Issued("0x1d82c33ddb79a12f5efd9fa792c8b2a55c17279cc08c809ff1b1929cc2bbe06f", from, nil)
	}
}
