package api

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cornice-node/cornice/jsonrpc"
)

// Defaults of the reference node's --http-* flags (node-api.md §2.1, §2.2).
const (
	DefaultReadTimeout       = 30 * time.Second
	DefaultReadHeaderTimeout = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultShutdownTimeout   = 10 * time.Second
)

// DefaultHeavyCalls is how many heavy requests (jsonrpc.RegisterHeavy methods, batches calling
// one, and the EVM chains' batches and log queries) the node serves at once by default. Each may
// hold a batch response of up to the cap and one heavy reply. Two, as many as the reference
// machine has cores, kept 20 abusive clients in parallel at 241 MiB and light calls answered
// fastest; four let memory reach 350 MiB and light calls wait longer (docs/benchmarks.md).
const DefaultHeavyCalls = 2

// maxConcurrentStreams is the HTTP/2 stream limit per connection (node-api.md §2.1).
const maxConcurrentStreams = 64

// Config holds the HTTP server's settings. The zero value is usable: it listens on every interface
// on a port the OS picks, with the reference node's defaults for everything else.
type Config struct {
	// Host is the address to bind. Empty binds all interfaces; a hostname is resolved.
	// The node passes its --http-host, whose default is 127.0.0.1.
	Host string
	// Port is the TCP port to bind; 0 lets the OS choose (read it back from Listen).
	Port uint16

	// AllowedHosts lists the host names accepted in the Host header, compared case-insensitively
	// without the port. Nil or empty means ["localhost"]. An entry "*" disables the filter. Empty
	// Host headers and IP literals are always accepted.
	AllowedHosts []string
	// AllowedOrigins lists the CORS origins. Nil or empty means ["*"] (every origin). An entry may
	// hold one "*" wildcard, as in "https://*.example.com". Compared case-insensitively.
	AllowedOrigins []string

	// ReadTimeout bounds reading a whole request, body included. Zero means DefaultReadTimeout.
	ReadTimeout time.Duration
	// ReadHeaderTimeout bounds reading the request headers. Zero means DefaultReadHeaderTimeout.
	ReadHeaderTimeout time.Duration
	// WriteTimeout bounds the time from the end of the request headers to the end of the
	// response. It is also the deadline of each request's context. Zero means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a keep-alive connection waits for its next request. Zero means
	// DefaultIdleTimeout.
	IdleTimeout time.Duration
	// ShutdownTimeout bounds Shutdown in addition to its context. Zero means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration

	// BatchResponseMaxSize caps, in bytes, the responses of one JSON-RPC batch on every endpoint
	// of the jsonrpc engine (jsonrpc.Limits); the EVM chains take the same value from their own
	// config. Zero means jsonrpc.DefaultBatchResponse; negative means no cap.
	BatchResponseMaxSize int
	// HeavyCalls bounds how many heavy requests are served at once (jsonrpc.Limits). Zero means
	// DefaultHeavyCalls; negative means no bound.
	HeavyCalls int
}

// withDefaults returns a copy of c with zero fields replaced by their defaults. The slices are
// copied, so the caller may change its own afterwards.
func (c Config) withDefaults() Config {
	if len(c.AllowedHosts) == 0 {
		c.AllowedHosts = []string{"localhost"}
	} else {
		c.AllowedHosts = slices.Clone(c.AllowedHosts)
	}
	if len(c.AllowedOrigins) == 0 {
		c.AllowedOrigins = []string{"*"}
	} else {
		c.AllowedOrigins = slices.Clone(c.AllowedOrigins)
	}
	setDefault(&c.ReadTimeout, DefaultReadTimeout)
	setDefault(&c.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	setDefault(&c.WriteTimeout, DefaultWriteTimeout)
	setDefault(&c.IdleTimeout, DefaultIdleTimeout)
	setDefault(&c.ShutdownTimeout, DefaultShutdownTimeout)
	if c.BatchResponseMaxSize == 0 {
		c.BatchResponseMaxSize = jsonrpc.DefaultBatchResponse
	}
	if c.HeavyCalls == 0 {
		c.HeavyCalls = DefaultHeavyCalls
	}
	return c
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d == 0 {
		*d = def
	}
}

// Validate reports every problem of c at once, each wrapping ErrInvalidConfig.
func (c Config) Validate() error {
	var errs []error
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"ReadTimeout", c.ReadTimeout},
		{"ReadHeaderTimeout", c.ReadHeaderTimeout},
		{"WriteTimeout", c.WriteTimeout},
		{"IdleTimeout", c.IdleTimeout},
		{"ShutdownTimeout", c.ShutdownTimeout},
	} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%w: %s is negative (%s)", ErrInvalidConfig, d.name, d.v))
		}
	}
	for _, h := range c.AllowedHosts {
		if h == "" || strings.ContainsAny(h, " \t/") {
			errs = append(errs, fmt.Errorf("%w: allowed host %q", ErrInvalidConfig, h))
		}
	}
	for _, o := range c.AllowedOrigins {
		if o == "" || strings.ContainsAny(o, " \t") {
			errs = append(errs, fmt.Errorf("%w: allowed origin %q", ErrInvalidConfig, o))
		}
	}
	return errors.Join(errs...)
}
