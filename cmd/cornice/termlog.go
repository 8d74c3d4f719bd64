package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/cornice-node/cornice/config"
)

// newLogger logs to w at level in format: short aligned lines for a person (coloured when w is a
// terminal and NO_COLOR is not set), or one JSON object a line for a program. Auto picks text
// when w is a terminal, JSON otherwise (docs/configuration.md).
func newLogger(w io.Writer, level slog.Level, format config.LogFormat, noColor bool) *slog.Logger {
	tty := isTerminal(w)
	if format == config.LogFormatJSON || (format == config.LogFormatAuto && !tty) {
		return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
	}
	return slog.New(newTermHandler(w, level, tty && !noColor))
}

// isTerminal reports whether w is a terminal (not a file, a pipe or /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// noColor reports whether the NO_COLOR convention (no-color.org) asks for no colour: the
// variable is set to anything but the empty string.
func noColor() bool { return os.Getenv("NO_COLOR") != "" }

// msgWidth is the width messages are padded to, so that the attributes of most lines start in
// one column; a longer message pushes them right.
const msgWidth = 30

// ANSI escapes of the terminal format.
const (
	ansiReset = "\x1b[0m"
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiYel   = "\x1b[33m"
	ansiBlue  = "\x1b[34m"
)

// termHandler writes a record as `15:04:05.000 INFO  message…  key=value key=value`: the
// time of day, the level in five columns, the message padded to msgWidth, then the attributes
// as log/slog's text handler writes them (strings quoted only when they must be). It is safe for
// concurrent use: each record is formatted into a buffer of its own and written with one Write
// under a lock shared with the handlers WithAttrs and WithGroup derive.
type termHandler struct {
	w     io.Writer
	mu    *sync.Mutex
	level slog.Leveler
	color bool
	// attrs holds the attributes of WithAttrs, already formatted, each with its leading space.
	attrs []byte
	// prefix is the open groups of WithGroup, each followed by a dot ("a.b.").
	prefix string
}

var _ slog.Handler = (*termHandler)(nil)

func newTermHandler(w io.Writer, level slog.Leveler, color bool) *termHandler {
	return &termHandler{w: w, mu: new(sync.Mutex), level: level, color: color}
}

// Enabled is the whole cost of a record below the level: one comparison.
func (h *termHandler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= h.level.Level()
}

// bufPool holds the buffers records are formatted into.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func (h *termHandler) Handle(_ context.Context, r slog.Record) error {
	bp := bufPool.Get().(*[]byte)
	b := (*bp)[:0]
	if !r.Time.IsZero() {
		if h.color {
			b = append(b, ansiDim...)
		}
		b = r.Time.AppendFormat(b, "15:04:05.000")
		if h.color {
			b = append(b, ansiReset...)
		}
		b = append(b, ' ')
	}
	b = h.levelText(b, r.Level)
	b = append(b, ' ')
	b = append(b, r.Message...)
	if r.NumAttrs() > 0 || len(h.attrs) > 0 {
		for n := utf8.RuneCountInString(r.Message); n < msgWidth; n++ {
			b = append(b, ' ')
		}
	}
	b = append(b, h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		b = h.appendAttr(b, h.prefix, a)
		return true
	})
	b = append(b, '\n')

	h.mu.Lock()
	_, err := h.w.Write(b)
	h.mu.Unlock()
	*bp = b
	bufPool.Put(bp)
	return err
}

func (h *termHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	h2 := *h
	h2.attrs = slices.Clip(h.attrs)
	for _, a := range attrs {
		h2.attrs = h.appendAttr(h2.attrs, h.prefix, a)
	}
	return &h2
}

func (h *termHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.prefix = h.prefix + name + "."
	return &h2
}

// levelText appends the level in five columns, coloured by severity.
func (h *termHandler) levelText(b []byte, l slog.Level) []byte {
	text := l.String()
	color := ansiRed
	switch {
	case l < slog.LevelInfo:
		color = ansiBlue
	case l < slog.LevelWarn:
		color = ansiGreen
	case l < slog.LevelError:
		color = ansiYel
	}
	if h.color {
		b = append(b, color...)
	}
	b = append(b, text...)
	if h.color {
		b = append(b, ansiReset...)
	}
	for n := len(text); n < 5; n++ {
		b = append(b, ' ')
	}
	return b
}

// appendAttr appends ` key=value`, flattening a group into prefixed keys and dropping empty
// attributes, as slog's handlers do.
func (h *termHandler) appendAttr(b []byte, prefix string, a slog.Attr) []byte {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return b
	}
	if a.Value.Kind() == slog.KindGroup {
		group := a.Value.Group()
		if len(group) == 0 {
			return b
		}
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, g := range group {
			b = h.appendAttr(b, prefix, g)
		}
		return b
	}
	b = append(b, ' ')
	if h.color {
		b = append(b, ansiDim...)
	}
	b = append(b, prefix...)
	b = append(b, a.Key...)
	b = append(b, '=')
	if h.color {
		b = append(b, ansiReset...)
	}
	return appendValue(b, a.Value)
}

// appendValue appends v as slog's text handler does: numbers and booleans bare, times in
// RFC 3339 with milliseconds, anything else as text, quoted when it is empty or holds a space,
// a quote, an equals sign or a character that does not print.
func appendValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		return strconv.AppendFloat(b, v.Float64(), 'g', -1, 64)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		return append(b, v.Duration().String()...)
	case slog.KindTime:
		return v.Time().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	case slog.KindString:
		return appendText(b, v.String())
	}
	if err, ok := v.Any().(error); ok {
		return appendText(b, err.Error())
	}
	return appendText(b, v.String())
}

// appendText appends s, quoted if it needs to be.
func appendText(b []byte, s string) []byte {
	if needsQuote(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuote(s string) bool {
	if s == "" {
		return true
	}
	for _, r := range s {
		if r == ' ' || r == '"' || r == '=' || !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}
