package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/slogtest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
)

// TestTermHandlerConformance runs log/slog's own handler checks (groups, WithAttrs, resolving
// LogValuers, empty attributes) on the terminal format, parsing each line back.
func TestTermHandlerConformance(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	results := func() []map[string]any {
		var ms []map[string]any
		for line := range strings.Lines(buf.String()) {
			ms = append(ms, parseTermLine(t, line))
		}
		return ms
	}
	require.NoError(t, slogtest.TestHandler(newTermHandler(&buf, slog.LevelDebug, false), results))
}

// parseTermLine reads a line of the terminal format back into slogtest's map form: time,
// level, the words of the message, then key=value pairs whose dotted keys are groups.
func parseTermLine(t *testing.T, line string) map[string]any {
	t.Helper()
	m := map[string]any{}
	var words []string
	for i, tok := range splitQuoted(t, strings.TrimSuffix(line, "\n")) {
		key, val, isAttr := strings.Cut(tok, "=")
		switch {
		case i == 0 && regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3}$`).MatchString(tok):
			m[slog.TimeKey] = tok
		case m[slog.LevelKey] == nil:
			m[slog.LevelKey] = tok
		case !isAttr:
			words = append(words, tok)
		default:
			if uq, err := strconv.Unquote(val); err == nil {
				val = uq
			}
			parts := strings.Split(key, ".")
			group := m
			for _, g := range parts[:len(parts)-1] {
				if group[g] == nil {
					group[g] = map[string]any{}
				}
				group = group[g].(map[string]any)
			}
			group[parts[len(parts)-1]] = val
		}
	}
	m[slog.MessageKey] = strings.Join(words, " ")
	return m
}

// splitQuoted splits s at runs of spaces, keeping Go-quoted values whole.
func splitQuoted(t *testing.T, s string) []string {
	t.Helper()
	var toks []string
	for s = strings.TrimLeft(s, " "); s != ""; s = strings.TrimLeft(s, " ") {
		end := strings.IndexByte(s, ' ')
		if q := strings.IndexByte(s, '"'); q >= 0 && (end < 0 || q < end) {
			rest := s[q:]
			quoted, err := strconv.QuotedPrefix(rest)
			require.NoError(t, err, s)
			end = q + len(quoted)
		}
		if end < 0 {
			end = len(s)
		}
		toks = append(toks, s[:end])
		s = s[end:]
	}
	return toks
}

// TestTermHandlerAligned: the attributes of lines with messages of different lengths start in
// one column, levels take five columns, and values are quoted only when they must be.
func TestTermHandlerAligned(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(newTermHandler(&buf, slog.LevelInfo, false)).With("component", "chains")
	log.Debug("hidden", "k", 1)
	log.Info("chain created", "chain", "C-Chain", "height", 0)
	log.Warn("block accepted", "txs", 3, "took", 1500*time.Millisecond, "ok", true)
	log.Error("failed", "err", errors.New("disk full"), "empty", "")
	log.WithGroup("http").Info("served", slog.Group("req", "method", "eth_call"), "at", time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC))

	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 4)
	want := []string{
		`INFO  chain created                  component=chains chain=C-Chain height=0`,
		`WARN  block accepted                 component=chains txs=3 took=1.5s ok=true`,
		`ERROR failed                         component=chains err="disk full" empty=""`,
		`INFO  served                         component=chains http.req.method=eth_call http.at=2026-01-02T03:04:05.006Z`,
	}
	attrs := -1
	for i, line := range lines {
		require.Regexp(t, `^\d\d:\d\d:\d\d\.\d{3} `, line)
		require.Equal(t, want[i], line[len("15:04:05.000 "):])
		col := strings.Index(line, "component=")
		if attrs >= 0 {
			require.Equal(t, attrs, col, "attributes of line %d start in another column", i)
		}
		attrs = col
	}
}

// TestTermHandlerColor: with colour on, the level is coloured and keys are dimmed; with it off
// the line holds no escape at all.
func TestTermHandlerColor(t *testing.T) {
	t.Parallel()
	var plain, color bytes.Buffer
	slog.New(newTermHandler(&plain, slog.LevelInfo, false)).Warn("careful", "k", "v")
	slog.New(newTermHandler(&color, slog.LevelInfo, true)).Warn("careful", "k", "v")
	require.NotContains(t, plain.String(), "\x1b")
	require.Contains(t, color.String(), ansiYel+"WARN"+ansiReset)
	require.Contains(t, color.String(), ansiDim+"k="+ansiReset+"v")
}

// TestNewLoggerFormat: auto writes JSON to what is not a terminal (here a buffer), and each
// line parses as one JSON object; text and json are taken as asked.
func TestNewLoggerFormat(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		format   config.LogFormat
		wantJSON bool
	}{
		{config.LogFormatAuto, true},
		{config.LogFormatJSON, true},
		{config.LogFormatText, false},
	} {
		var buf bytes.Buffer
		log := newLogger(&buf, slog.LevelInfo, tt.format, false)
		log.Info("one", "chain", "C")
		log.Debug("not logged")
		log.Warn("two", "err", errors.New("x y"))
		sc := bufio.NewScanner(&buf)
		n := 0
		for sc.Scan() {
			n++
			var m map[string]any
			err := json.Unmarshal(sc.Bytes(), &m)
			if !tt.wantJSON {
				require.Error(t, err, tt.format.String())
				continue
			}
			require.NoError(t, err, sc.Text())
			require.Contains(t, []any{"one", "two"}, m["msg"])
		}
		require.Equal(t, 2, n, tt.format.String())
	}
}

// BenchmarkLogDisabled is the cost, on a hot path, of a Debug line at the default level: the
// Enabled check only.
func BenchmarkLogDisabled(b *testing.B) {
	for _, tt := range []struct {
		name string
		h    slog.Handler
	}{
		{"term", newTermHandler(discard{}, slog.LevelInfo, true)},
		{"json", slog.NewJSONHandler(discard{}, &slog.HandlerOptions{Level: slog.LevelInfo})},
	} {
		b.Run(tt.name, func(b *testing.B) {
			log := slog.New(tt.h).With("component", "chains")
			b.ReportAllocs()
			for b.Loop() {
				log.Debug("block verified", "height", 7, "blockID", "2ZjV5N3m")
			}
		})
	}
}

// BenchmarkLogEnabled is the cost of one Info line of five attributes in each format, against
// slog's own text handler.
func BenchmarkLogEnabled(b *testing.B) {
	for _, tt := range []struct {
		name string
		h    slog.Handler
	}{
		{"term", newTermHandler(discard{}, slog.LevelInfo, true)},
		{"json", slog.NewJSONHandler(discard{}, &slog.HandlerOptions{Level: slog.LevelInfo})},
		{"slogtext", slog.NewTextHandler(discard{}, &slog.HandlerOptions{Level: slog.LevelInfo})},
	} {
		b.Run(tt.name, func(b *testing.B) {
			log := slog.New(tt.h).With("component", "chains", "chain", "C-Chain")
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				log.InfoContext(ctx, "block accepted", "height", 7, "blockID", "2ZjV5N3mXk", "txs", 3)
			}
		})
	}
}

// discard is io.Discard as a type of its own, so that handlers cannot special-case it.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestNoColor follows no-color.org: NO_COLOR set to anything but the empty string turns colour
// off. Not parallel: it sets the environment.
func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	require.False(t, noColor())
	t.Setenv("NO_COLOR", "1")
	require.True(t, noColor())
}
