package main

import (
	"bytes"
	"flag"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
)

// TestSoakShort runs the whole soak for 5 s: a node, an L1, every kind of load, and every
// invariant checked.
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a node and loads it for 5 s")
	}
	t.Parallel()
	var out, errOut bytes.Buffer
	err := run(t.Context(), clock.Real{}, []string{"-duration", "5s", "-sample", "1s", "-data-dir", t.TempDir()}, &out, &errOut)
	t.Log(errOut.String())
	t.Log(out.String())
	require.NoError(t, err)
	require.Contains(t, out.String(), "broken\n")
	require.Contains(t, out.String(), " 0 broken")
	require.Contains(t, out.String(), "node ERROR log lines: 0")
	for _, want := range []string{"| C | transfer |", "| L1 | mintNativeCoin |", "| X | BaseTx |", "| P | BaseTx |"} {
		require.Contains(t, out.String(), want)
	}
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		want    func(*testing.T, cliConfig)
		wantErr error
	}{
		{name: "defaults", want: func(t *testing.T, c cliConfig) {
			require.Equal(t, 60*time.Second, c.duration)
			require.Equal(t, slog.LevelWarn, c.logLevel)
			require.Less(t, c.pRate, 19.0) // the P-Chain's sustained BaseTx limit
		}},
		{name: "duration", args: []string{"-duration", "2m", "-log-level", "info"}, want: func(t *testing.T, c cliConfig) {
			require.Equal(t, 2*time.Minute, c.duration)
			require.Equal(t, slog.LevelInfo, c.logLevel)
		}},
		{name: "zero duration", args: []string{"-duration", "0s"}, wantErr: errBadFlag},
		{name: "negative rate", args: []string{"-p-rate", "-1"}, wantErr: errBadFlag},
		{name: "stray argument", args: []string{"now"}, wantErr: errBadFlag},
		{name: "help", args: []string{"-h"}, wantErr: flag.ErrHelp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := parseFlags(tt.args, io.Discard)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.want != nil {
				tt.want(t, c)
			}
		})
	}
}

func TestLogCapture(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	h := newLogCapture(&out, slog.LevelWarn)
	log := slog.New(h).With("component", "evm").WithGroup("g")
	log.Info("quiet")
	log.Warn("shown")
	log.Error("broken", "err", "disk full")
	slog.New(h).Error("plain")

	lines := h.errs.snapshot()
	require.Len(t, lines, 2)
	require.Contains(t, lines[0], "level=ERROR")
	require.Contains(t, lines[0], "component=evm")
	require.Contains(t, lines[0], `g.err="disk full"`)
	require.Contains(t, lines[1], "msg=plain")
	require.NotContains(t, out.String(), "quiet")
	require.Contains(t, out.String(), "shown")
	require.Equal(t, 3, strings.Count(out.String(), "\n"))
}

func TestErrorLinesErr(t *testing.T) {
	t.Parallel()
	require.NoError(t, errorLinesErr(nil))
	require.ErrorIs(t, errorLinesErr([]string{"level=ERROR msg=x"}), errNodeLog)
}
