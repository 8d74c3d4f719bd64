package jsonrpc

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// DefaultBatchResponse is the default of [Limits]' batch response cap, in bytes: 25,000,000, as
// go-ethereum's BatchResponseMaxSize default.
const DefaultBatchResponse = 25_000_000

// Limits are the node-wide bounds on what requests may hold at once. One *Limits serves every
// endpoint: the api package attaches it to each request's context ([WithLimits]); the engine, and
// [Gate] in front of other JSON-RPC servers, read it from there. It is safe for concurrent use.
//
// Two bounds:
//   - A batch's response is capped: once the responses of a batch's elements add up to more than
//     the cap, every later element that would be answered gets -32003 "response too large"
//     instead of running (go-ethereum's rule and error).
//   - Heavy calls, those whose reply may run to megabytes ([RegisterHeavy]), and every batch that
//     holds one, are served at most so many at a time; the others wait for a slot. Light calls
//     never wait.
type Limits struct {
	// batchResponse is the cap in bytes; 0 means none.
	batchResponse int
	// heavy holds one token per heavy request being served; nil means no bound.
	heavy chan struct{}
}

// NewLimits returns limits with a batch response cap of batchResponse bytes (0: no cap) and at
// most heavyCalls heavy requests served at once (0: no bound). Negative values count as 0.
func NewLimits(batchResponse, heavyCalls int) *Limits {
	l := &Limits{batchResponse: max(batchResponse, 0)}
	if heavyCalls > 0 {
		l.heavy = make(chan struct{}, heavyCalls)
	}
	return l
}

// defaultLimits apply to a request whose context carries none: the default batch cap, and no
// bound on heavy calls, which only a node-wide value can give.
var defaultLimits = NewLimits(DefaultBatchResponse, 0)

// limitsKey is the context key of the request's *Limits.
type limitsKey struct{}

// WithLimits returns ctx carrying l.
func WithLimits(ctx context.Context, l *Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l)
}

// LimitsFrom returns the limits ctx carries, or the defaults (batch cap DefaultBatchResponse, no
// bound on heavy calls) when it carries none.
func LimitsFrom(ctx context.Context) *Limits {
	if l, ok := ctx.Value(limitsKey{}).(*Limits); ok && l != nil {
		return l
	}
	return defaultLimits
}

// BatchResponse returns the batch response cap in bytes; 0 means none.
func (l *Limits) BatchResponse() int { return l.batchResponse }

// acquire takes a heavy-call slot, waiting for one until ctx is done; then it returns ctx's error.
// Every successful acquire must be paired with one release.
func (l *Limits) acquire(ctx context.Context) error {
	if l.heavy == nil {
		return nil
	}
	select {
	case l.heavy <- struct{}{}:
		return nil
	default:
	}
	select {
	case l.heavy <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release returns a slot taken by acquire.
func (l *Limits) release() {
	if l.heavy != nil {
		<-l.heavy
	}
}

// Gate bounds the heavy requests of another JSON-RPC server (go-ethereum's, on the EVM chains) by
// the [Limits] of the request's context: a POST whose body is a batch, or a single call whose
// method heavy reports true for, waits for a heavy-call slot and holds it until h returns. A
// request that cannot get one before its context is done gets 503 [textBusy]. Everything else
// goes to h at once and untouched; h reads the same body bytes either way. Bodies larger than
// MaxBodySize are passed on unread beyond that, for h to refuse by its own rules.
func Gate(h http.Handler, heavy func(method []byte) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := LimitsFrom(r.Context())
		if l.heavy == nil || r.Method != http.MethodPost || r.Body == nil || r.ContentLength > MaxBodySize {
			h.ServeHTTP(w, r)
			return
		}
		body, rest, err := peekBody(r)
		r.Body = rest
		// On a read error h meets the same error.
		if err != nil || !isHeavyBody(body, heavy) {
			h.ServeHTTP(w, r)
			return
		}
		if err := l.acquire(r.Context()); err != nil {
			writeText(w, http.StatusServiceUnavailable, textBusy)
			return
		}
		defer l.release()
		h.ServeHTTP(w, r)
	})
}

// isHeavyBody reports whether a request body is a batch or a call of a heavy method.
func isHeavyBody(body []byte, heavy func(method []byte) bool) bool {
	i := skipSpace(body, 0)
	if i < len(body) && body[i] == '[' {
		return true
	}
	env := parseEnvelope(body)
	return env.parseErr == nil && heavy(env.method)
}

// peekBody reads r's body, at most MaxBodySize bytes, and returns what it read with a body that
// gives those bytes again and then whatever was left unread.
func peekBody(r *http.Request) ([]byte, io.ReadCloser, error) {
	var buf bytes.Buffer
	if n := r.ContentLength; n > 0 {
		buf.Grow(int(n))
	}
	_, err := buf.ReadFrom(io.LimitReader(r.Body, MaxBodySize))
	rest := replayBody{Reader: io.MultiReader(bytes.NewReader(buf.Bytes()), r.Body), Closer: r.Body}
	return buf.Bytes(), rest, err
}

// replayBody is a request body made of bytes already read and the original body's remainder;
// closing it closes the original.
type replayBody struct {
	io.Reader
	io.Closer
}
