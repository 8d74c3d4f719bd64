package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Server is the node's HTTP server. Create it with New, add routes, call Listen to bind, Serve to
// serve, and Shutdown to stop. Routes may be added at any time, also while serving.
type Server struct {
	cfg    Config
	log    *slog.Logger
	router *router
	srv    *http.Server

	mu sync.Mutex // guards ln
	ln net.Listener
}

// New returns a server for cfg that stamps every response with nodeID. It registers the server's
// metrics on reg (skipped when reg is nil) and logs requests to log at Debug level. The Go runtime
// and process collectors are not registered here: the caller registers them once per process.
func New(cfg Config, nodeID ids.NodeID, log *slog.Logger, reg prometheus.Registerer) (*Server, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: log, router: newRouter()}
	limits := jsonrpc.NewLimits(cfg.BatchResponseMaxSize, cfg.HeavyCalls)

	clk := clock.Real{}
	var h http.Handler = &dispatch{
		router:   s.router,
		metrics:  m,
		log:      log,
		clock:    clk,
		epoch:    clk.Now(),
		deadline: cfg.WriteTimeout,
	}
	h = newHostFilter(cfg.AllowedHosts, h)
	h = newCORS(cfg.AllowedOrigins, h)
	h = nodeIDHeader(nodeID, h)

	// HTTP/1 and HTTP/2 over cleartext with prior knowledge (node-api.md §2.1). Unlike the
	// reference's x/net h2c wrapper, Go's server does not accept the "Upgrade: h2c" handshake.
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	s.srv = &http.Server{
		Handler:           h,
		Protocols:         protocols,
		HTTP2:             &http.HTTP2Config{MaxConcurrentStreams: maxConcurrentStreams},
		ReadTimeout:       cfg.ReadTimeout,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		// Every request's context carries the node-wide limits (jsonrpc.Limits), set once here
		// rather than per request.
		BaseContext: func(net.Listener) context.Context {
			return jsonrpc.WithLimits(context.Background(), limits)
		},
	}
	return s, nil
}

// nodeIDHeader adds "node-id: NodeID-…" to every response (node-api.md §2.2 item 1, §7 item 10).
func nodeIDHeader(nodeID ids.NodeID, next http.Handler) http.Handler {
	v := []string{nodeID.String()}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Canonical key "Node-Id"; the slice is shared, and net/http only reads it.
		w.Header()["Node-Id"] = v
		next.ServeHTTP(w, r)
	})
}

// AddRoute serves h at /ext/<p>, for example p "info" or "index/X/block". The path must be clean
// and have no leading or trailing slash (ErrInvalidRoute); a path already served gives
// ErrDuplicateRoute. If p lies under a path given to AddAliases, h is served under each alias too.
// The route is live for the next request.
func (s *Server) AddRoute(p string, h http.Handler) error {
	return s.router.add(p, h)
}

// AddAliases serves every route at or under /ext/<p> also under /ext/<alias> for each alias: with
// p "bc/<chainID>" and alias "X", /ext/bc/<chainID>/rpc is also served at /ext/X/rpc. Routes added
// under p later are aliased too (one level: aliases of aliases are not followed for later routes).
// It fails with ErrUnknownRoute when no route exists at or under p, and with ErrDuplicateRoute when
// a resulting path is taken; on error nothing is changed.
func (s *Server) AddAliases(p string, aliases ...string) error {
	return s.router.alias(p, aliases)
}

// Listen binds the configured host and port and returns the bound address, so the caller can
// learn the port the OS picked. It does not serve; call Serve.
func (s *Server) Listen() (net.Addr, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		return nil, ErrAlreadyListening
	}
	addr := net.JoinHostPort(s.cfg.Host, strconv.Itoa(int(s.cfg.Port)))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s.ln = ln
	return ln.Addr(), nil
}

// Serve serves on the listener bound by Listen (binding first if Listen was not called) until
// Shutdown. It returns nil after a clean shutdown, including when Shutdown came first.
func (s *Server) Serve() error {
	s.mu.Lock()
	ln := s.ln
	s.mu.Unlock()
	if ln == nil {
		if _, err := s.Listen(); err != nil && !errors.Is(err, ErrAlreadyListening) {
			return err
		}
		s.mu.Lock()
		ln = s.ln
		s.mu.Unlock()
	}
	s.log.Debug("HTTP API server listening", slog.String("address", ln.Addr().String()))
	if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve HTTP: %w", err)
	}
	return nil
}

// Shutdown stops accepting connections, waits for in-flight requests to finish, then returns. It
// is bounded by ctx and by Config.ShutdownTimeout: connections still open when the bound passes
// (a slow request, or a client's connection that never sent one, which net/http counts as active
// for five seconds) are closed, and Shutdown still succeeds, so a stopping node never hangs on a
// client. Hijacked connections (websockets) are not waited for.
func (s *Server) Shutdown(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ShutdownTimeout)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		s.log.Warn("HTTP shutdown bound reached: closing the remaining connections")
		err = s.srv.Close()
	}

	// If Serve never ran, http.Server does not know the listener: close it here. A second close
	// of a listener Serve already closed only reports an error, which is ignored.
	s.mu.Lock()
	if s.ln != nil {
		_ = s.ln.Close()
	}
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("shut down HTTP server: %w", err)
	}
	return nil
}
