package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/bench/internal/loopback"
	"github.com/cornice-node/cornice/clock"
)

func TestParseLevels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []int
		wantErr error
	}{
		{in: "1,16,64", want: []int{1, 16, 64}},
		{in: "8", want: []int{8}},
		{in: " 2 , 4 ", want: []int{2, 4}},
		{in: "", wantErr: errBadLevels},
		{in: "1,,2", wantErr: errBadLevels},
		{in: "0", wantErr: errBadLevels},
		{in: "-1", wantErr: errBadLevels},
		{in: "x", wantErr: errBadLevels},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseLevels(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			require.Equal(t, tt.want, got)
		})
	}
}

func FuzzParseLevels(f *testing.F) {
	f.Add("1,16,64")
	f.Add(" 3 ")
	f.Add("0,-1")
	f.Fuzz(func(t *testing.T, s string) {
		levels, err := parseLevels(s)
		if err != nil {
			return
		}
		require.NotEmpty(t, levels)
		for _, c := range levels {
			require.Positive(t, c)
		}
	})
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      []string
		wantErrs  []error
		wantLabel string
		urlSet    bool
	}{
		{name: "defaults", args: nil, wantLabel: "node"},
		{name: "bare label", args: []string{"-bare"}, wantLabel: "bare"},
		{name: "explicit url", args: []string{"-url", "http://[::1]:1/"}, wantLabel: "node", urlSet: true},
		{name: "explicit label", args: []string{"-bare", "-label", "x"}, wantLabel: "x"},
		{
			name:     "every problem at once",
			args:     []string{"-url", "http://192.0.2.1/", "-c", "0", "-params", "{", "-n", "0"},
			wantErrs: []error{loopback.ErrNotLoopback, errBadLevels, errBadParams, errBadBound},
		},
		{name: "negative warmup", args: []string{"-warmup", "-1"}, wantErrs: []error{errBadBound}},
		{name: "zero duration", args: []string{"-duration", "0s"}, wantErrs: []error{errBadBound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := parseFlags(tt.args, io.Discard)
			if len(tt.wantErrs) > 0 {
				for _, want := range tt.wantErrs {
					require.ErrorIs(t, err, want)
				}
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantLabel, cfg.label)
			require.Equal(t, tt.urlSet, cfg.urlSet)
		})
	}
}

func TestRunBarePrintsTable(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), clock.Real{}, []string{"-bare", "-c", "1,4", "-n", "100", "-warmup", "10"}, &stdout, &stderr)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 4)
	require.Equal(t, tableHeader(), lines[0]+"\n"+lines[1])
	require.True(t, strings.HasPrefix(lines[2], "| bare | info.getNodeVersion | 1 | 100 | 0 | "), lines[2])
	require.True(t, strings.HasPrefix(lines[3], "| bare | info.getNodeVersion | 4 | 100 | 0 | "), lines[3])
	require.Contains(t, stderr.String(), "built-in info.getNodeVersion sample")
}

func TestRunBareCopiesFromURL(t *testing.T) {
	t.Parallel()
	// A first bare server plays the node.
	node, err := startBare("127.0.0.1:0", sampleReply(), false)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, node.Close()) })
	var stdout, stderr bytes.Buffer
	err = run(t.Context(), clock.Real{}, []string{"-bare", "-url", node.URL(), "-c", "2", "-n", "50", "-header=false", "-label", "ceiling"}, &stdout, &stderr)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(stdout.String(), "| ceiling | info.getNodeVersion | 2 | 50 | 0 | "), stdout.String())
	require.Contains(t, stderr.String(), "copied from "+node.URL())
}

func TestRunRefusesNonLoopback(t *testing.T) {
	t.Parallel()
	err := run(t.Context(), clock.Real{}, []string{"-url", "http://192.0.2.1:9650/ext/info"}, io.Discard, io.Discard)
	require.ErrorIs(t, err, loopback.ErrNotLoopback)
}

func TestRunInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := run(ctx, clock.Real{}, []string{"-bare", "-n", "10"}, io.Discard, io.Discard)
	require.ErrorIs(t, err, context.Canceled)
}

func TestServeStopsWithContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	var (
		wg  sync.WaitGroup
		err error
	)
	wg.Go(func() { err = serve(ctx, clock.Real{}, "127.0.0.1:0", sampleReply(), false, io.Discard) })
	cancel()
	wg.Wait()
	require.NoError(t, err)
}
