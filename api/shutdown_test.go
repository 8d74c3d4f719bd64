package api

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// TestShutdownWaitsForInFlight checks that Shutdown lets a slow request finish and only then
// returns. It is an internal test so it can see when Shutdown begins (RegisterOnShutdown).
func TestShutdownWaitsForInFlight(t *testing.T) {
	t.Parallel()
	s, err := New(Config{Host: "127.0.0.1"}, ids.NodeID{1}, slog.New(slog.DiscardHandler), nil)
	require.NoError(t, err)

	started, release := make(chan struct{}), make(chan struct{})
	require.NoError(t, s.AddRoute("slow", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		close(started)
		<-release
		_, _ = io.WriteString(w, "done")
	})))
	shutdownBegan := make(chan struct{})
	s.srv.RegisterOnShutdown(func() { close(shutdownBegan) })

	addr, err := s.Listen()
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + addr.String() + "/ext/slow")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{body: string(b), err: err}
	}()
	<-started

	shutDown := make(chan error, 1)
	go func() { shutDown <- s.Shutdown(context.Background()) }()
	<-shutdownBegan
	// The request is still blocked in its handler, so Shutdown cannot have returned.
	select {
	case err := <-shutDown:
		t.Fatalf("Shutdown returned while a request was in flight: %v", err)
	default:
	}

	close(release)
	r := <-got
	require.NoError(t, r.err)
	require.Equal(t, "done", r.body)
	require.NoError(t, <-shutDown)
	require.NoError(t, <-served)
}

// TestShutdownBoundedByContext checks that Shutdown stops waiting when its context ends: it closes
// the connections still open, so the stuck client is cut off, and reports success.
func TestShutdownBoundedByContext(t *testing.T) {
	t.Parallel()
	s, err := New(Config{Host: "127.0.0.1"}, ids.NodeID{1}, slog.New(slog.DiscardHandler), nil)
	require.NoError(t, err)
	started, release := make(chan struct{}), make(chan struct{})
	require.NoError(t, s.AddRoute("stuck", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		close(started)
		<-release
	})))
	addr, err := s.Listen()
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Get("http://" + addr.String() + "/ext/stuck")
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-started

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	require.NoError(t, s.Shutdown(ctx))
	require.NoError(t, <-served)
	<-done // the client's connection was closed while its handler is still blocked
	close(release)
}
