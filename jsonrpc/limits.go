package jsonrpc

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
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

// Call is a single JSON-RPC call that [Gate] found in a request body, in the engine's plain form:
// a JSON object of the keys jsonrpc, method, params and id, each at most once, without escapes,
// and nothing but white space after it. Its fields point into the body and hold what any JSON-RPC
// server decodes from it: Version and Method the strings' content, Params and ID the raw values
// (nil when absent or null). They are valid until the handler returns.
type Call struct {
	Version, Method, Params, ID []byte
}

// Args appends the elements of Params, when it is an array, to dst and returns them; ok is
// false when Params is anything else. Params must be valid JSON, as Gate gives it. The elements
// point into the body.
func (c *Call) Args(dst [][]byte) (args [][]byte, ok bool) {
	p := c.Params
	if len(p) == 0 || p[0] != '[' {
		return dst, false
	}
	for i, more := firstElement(p); more; i, more = nextElement(p, i) {
		dst = append(dst, p[i:valueEnd(p, i)])
	}
	return dst, true
}

// Members calls fn with the key and the raw value of each member of obj, a JSON object, in
// order, until fn returns false. ok is false when obj is not an object, when a key is not a plain
// string (printable ASCII without escapes, so that the key is its raw content) or when fn
// returned false. obj must be valid JSON, as an element of [Call.Args] is. Keys and values point
// into obj.
func Members(obj []byte, fn func(key, value []byte) bool) (ok bool) {
	i := skipSpace(obj, 0)
	if i == len(obj) || obj[i] != '{' {
		return false
	}
	if i = skipSpace(obj, i+1); obj[i] == '}' {
		return true
	}
	for {
		key, end, ok := scanPlainString(obj, i)
		if !ok {
			return false
		}
		i = skipSpace(obj, skipSpace(obj, end)+1) // past the colon
		end = valueEnd(obj, i)
		if !fn(key, obj[i:end]) {
			return false
		}
		if i = skipSpace(obj, end); obj[i] == '}' {
			return true
		}
		i = skipSpace(obj, i+1) // past the comma
	}
}

// Front may answer a single call itself, in front of the server behind a [Gate]: it gets the
// request, whose body Gate has read, and the call; it reports whether it answered. When it did
// not, it must have written nothing, and the server answers as if Front were not there.
type Front func(w http.ResponseWriter, r *http.Request, c *Call) bool

// Gate is the front of another JSON-RPC server (go-ethereum's, on the EVM chains). It reads a
// POST's body once and parses it once, for two things:
//   - It bounds the heavy requests by the [Limits] of the request's context: a body that is a
//     batch, or a single call whose method heavy reports true for, waits for a heavy-call slot and
//     holds it until h returns. A request that cannot get one before its context is done gets 503
//     [textBusy].
//   - A single call in the plain form ([Call]) that is not heavy goes to front first (nil: none).
//
// Everything else goes to h at once and untouched; h reads the same body bytes either way. Bodies
// larger than MaxBodySize are passed on unread beyond that, for h to refuse by its own rules.
func Gate(h http.Handler, heavy func(method []byte) bool, front Front) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := LimitsFrom(r.Context())
		if (l.heavy == nil && front == nil) || r.Method != http.MethodPost || r.Body == nil || r.ContentLength > MaxBodySize {
			h.ServeHTTP(w, r)
			return
		}
		buf := bodies.Get().(*bytes.Buffer)
		defer putBody(buf)
		body, whole, err := peekBody(r, buf)
		// h reads the same bytes, and on a read error meets the same error.
		serve := func() {
			if whole {
				r.Body = replayBody{Reader: bytes.NewReader(body), Closer: r.Body}
			} else {
				r.Body = replayBody{Reader: io.MultiReader(bytes.NewReader(body), r.Body), Closer: r.Body}
			}
			h.ServeHTTP(w, r)
		}
		if err != nil {
			serve()
			return
		}
		i := skipSpace(body, 0)
		batch := i < len(body) && body[i] == '['
		env, plain := scanEnvelope(body)
		if !batch && !plain {
			env = decodeEnvelope(body)
		}
		if batch || env.parseErr == nil && heavy(env.method) {
			if err := l.acquire(r.Context()); err != nil {
				writeText(w, http.StatusServiceUnavailable, textBusy)
				return
			}
			defer l.release()
		} else if front != nil && plain && skipSpace(body, env.end) == len(body) {
			c := Call{Version: env.version, Method: env.method, Params: env.params, ID: env.id}
			if front(w, r, &c) {
				return
			}
		}
		serve()
	})
}

// bodies holds request body buffers of Gate for reuse.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putBody returns a body buffer to the pool, unless a large request grew it past pooledCap.
func putBody(b *bytes.Buffer) {
	if b.Cap() > pooledCap {
		return
	}
	b.Reset()
	bodies.Put(b)
}

// peekBody reads r's body into buf, at most MaxBodySize bytes, and returns what it read; whole
// reports that this is the whole body.
func peekBody(r *http.Request, buf *bytes.Buffer) (body []byte, whole bool, err error) {
	if n := r.ContentLength; n > 0 {
		buf.Grow(int(n))
	}
	n, err := buf.ReadFrom(io.LimitReader(r.Body, MaxBodySize))
	return buf.Bytes(), err == nil && n < MaxBodySize, err
}

// replayBody is a request body made of bytes already read and the original body's remainder;
// closing it closes the original.
type replayBody struct {
	io.Reader
	io.Closer
}
