package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

const (
	// MaxBodySize is the largest request body served, in bytes (25 MiB); a larger one gets HTTP 413.
	// The reference has no limit (node-api.md §2.1); ours keeps a batch of MaxBatch calls possible.
	MaxBodySize = 25 << 20
	// MaxBatch is the largest number of calls in one batch.
	MaxBatch = 1000
)

// pooledCap bounds the buffers kept for reuse: a state that grew past it for a large request is
// left to the garbage collector. It fits the largest common reply, a full index range (1024
// containers of 1 KiB hex-encoded, about 2.2 MB), so that reply reuses its buffer.
const pooledCap = 4 << 20

// Server serves one JSON-RPC service (e.g. "info") over HTTP. It is an http.Handler.
type Server struct {
	service string
	log     *slog.Logger
	// methods maps a mapped function name ("GetNodeID") to its method. Written only by Register,
	// before serving starts.
	methods map[string]*method
	// wire maps a method's wire name as registered ("info.getNodeID") to it, so that a call
	// naming it so is found with one map index instead of lookup's mapping. Written only by
	// Register, as methods.
	wire map[string]*method
	// serving is set by the first ServeHTTP, after which Register panics.
	serving atomic.Bool
	// states holds *state values for reuse across requests.
	states sync.Pool
}

// state is the per-request scratch space, pooled.
type state struct {
	body bytes.Buffer // the request body
	out  bytes.Buffer // the response being built
	// enc writes into out. Its HTML escaping stays on, as in the reference's json.Encoder
	// (node-api.md §1.3). Every Encode appends a '\n' that the engine removes.
	enc *json.Encoder
	// limits are the request's, looked up on first use (nil until then).
	limits *Limits
	// heavy is set while the request holds a heavy-call slot of limits.
	heavy bool
}

// limitsOf returns the limits of the request st serves, ctx being its context.
func (st *state) limitsOf(ctx context.Context) *Limits {
	if st.limits == nil {
		st.limits = LimitsFrom(ctx)
	}
	return st.limits
}

// acquireHeavy takes a heavy-call slot for the request, once: later calls of a batch that holds
// one do not take another. It fails only when ctx is done first.
func (st *state) acquireHeavy(ctx context.Context) error {
	if st.heavy {
		return nil
	}
	l := st.limitsOf(ctx)
	if l.heavy == nil {
		// No bound: nothing to hold, and a batch need not yield between its calls.
		return nil
	}
	if err := l.acquire(ctx); err != nil {
		return err
	}
	st.heavy = true
	return nil
}

// releaseHeavy returns the slot taken by acquireHeavy, if any, once the response is written.
func (st *state) releaseHeavy() {
	if st.heavy {
		st.limits.release()
		st.heavy = false
	}
}

// NewServer returns a server for service, with no methods yet; add them with Register. log receives
// handler panics and result encoding failures; requests themselves are not logged here. NewServer
// panics if service is empty or contains a '.', as no method of it could be called.
func NewServer(service string, log *slog.Logger) *Server {
	if service == "" || strings.IndexByte(service, '.') >= 0 {
		panic("jsonrpc: invalid service name " + service)
	}
	return &Server{
		service: service,
		log:     log.With("service", service),
		methods: make(map[string]*method),
		wire:    make(map[string]*method),
	}
}

// Response header values, as sent by the reference (node-api.md §1.2, §1.3).
const (
	contentTypeJSON = "application/json; charset=utf-8"
	contentTypeText = "text/plain; charset=utf-8"
)

// Header values set on every reply, shared by all of them rather than allocated per reply:
// net/http only reads them, and Header.Add on a full slice appends to a copy.
var (
	headerJSON    = []string{contentTypeJSON}
	headerNosniff = []string{"nosniff"}
)

// ServeHTTP serves one HTTP request: a single call or a batch. See the package documentation for the
// exact behaviour.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.serving.Load() {
		s.serving.Store(true)
	}
	if r.Method != http.MethodPost {
		writeText(w, http.StatusMethodNotAllowed, textMethodNotAllowed(r.Method))
		return
	}
	// Cut at the first ';', nothing trimmed, lower-cased as strings.ToLower does (gorilla v2
	// server.go; node-api.md §1.2 step 2).
	// The header is read by its canonical key, as Header.Get would look it up, without Get's
	// canonicalising of the key on every request.
	var ct string
	if v := r.Header["Content-Type"]; len(v) > 0 {
		ct, _, _ = strings.Cut(v[0], ";")
	}
	if strings.ToLower(ct) != "application/json" {
		writeText(w, http.StatusUnsupportedMediaType, textUnsupportedMediaType(ct))
		return
	}

	st := s.getState()
	defer s.putState(st)
	// Deferred after putState, so it runs first: the slot is held until the response is written.
	defer st.releaseHeavy()
	if err := readBody(w, r, &st.body); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeText(w, http.StatusRequestEntityTooLarge, textTooLarge)
			return
		}
		writeText(w, http.StatusBadRequest, textUnreadable)
		return
	}

	body := st.body.Bytes()
	var res outcome
	if i := skipSpace(body, 0); i < len(body) && body[i] == '[' {
		res = s.serveBatch(r.Context(), body, st)
	} else {
		env := parseEnvelope(body)
		res = s.handle(r.Context(), &env, st, false)
	}

	if res.busy {
		writeText(w, http.StatusServiceUnavailable, textBusy)
		return
	}
	h := w.Header()
	if res.ran {
		// Set only once a method ran, as gorilla does (node-api.md §1.3).
		h["X-Content-Type-Options"] = headerNosniff
	}
	if res.encodeErr != nil {
		// The reference's json2 codec answers a result it cannot encode with a text/plain 500
		// carrying the encoder's error (node-api.md §1.5).
		writeText(w, http.StatusInternalServerError, res.encodeErr.Error())
		return
	}
	if !res.wrote {
		// A notification: HTTP 200, empty body; net/http adds Content-Length: 0 (node-api.md §1.4).
		return
	}
	h["Content-Type"] = headerJSON
	st.out.WriteByte('\n')
	// A failed write means the client went away; there is no one left to tell.
	_, _ = w.Write(st.out.Bytes())
}

// outcome is what handling a call or a batch did.
type outcome struct {
	ran       bool  // a handler was invoked
	wrote     bool  // a response was appended to the output
	encodeErr error // a single call's result could not be encoded; nothing was appended
	busy      bool  // a heavy call got no slot before the request's context was done
}

// handle processes one call and appends its response object, without a trailing newline, to
// st.out; notifications get none (node-api.md §1.2, §1.4).
func (s *Server) handle(ctx context.Context, env *envelope, st *state, inBatch bool) outcome {
	m, err := s.lookup(env.method)
	if err != nil || m.heavy || string(env.version) != "2.0" {
		// Answered, or made to wait, without decoding the params: they must be known valid first.
		env.check()
	}
	if env.parseErr != nil {
		// Always answered, even without an id.
		s.appendError(st, CodeParse, env.parseErr.Error(), env.request(), env.id)
		return outcome{wrote: true}
	}
	if string(env.version) != "2.0" {
		if env.id == nil {
			return outcome{}
		}
		s.appendError(st, CodeInvalidRequest, errVersion.Error(), env.request(), env.id)
		return outcome{wrote: true}
	}
	if err != nil {
		if env.id == nil {
			return outcome{}
		}
		s.appendError(st, CodeServer, err.Error(), nil, env.id)
		return outcome{wrote: true}
	}
	if m.heavy {
		if err := st.acquireHeavy(ctx); err != nil {
			return outcome{busy: true}
		}
	}
	return s.run(ctx, m, env, st, inBatch)
}

// run decodes the params, calls the handler and appends the response. A panic anywhere in this, in
// the handler or in encoding its reply, discards what was appended and answers -32000
// "internal error".
func (s *Server) run(ctx context.Context, m *method, env *envelope, st *state, inBatch bool) (res outcome) {
	out := &st.out
	start := out.Len()
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("jsonrpc handler panicked", "method", m.name, "panic", v, "stack", string(debug.Stack()))
			out.Truncate(start)
			res.wrote, res.encodeErr = false, nil
			if env.id != nil {
				s.appendError(st, CodeServer, errInternal.Error(), nil, env.id)
				res.wrote = true
			}
		}
	}()

	args, err := m.decode(env.params)
	if err != nil {
		// Unchecked params that fail to decode may not be JSON at all: the body is then answered
		// as a parse error, as if the envelope had been decoded in full.
		if env.check(); env.parseErr != nil {
			s.appendError(st, CodeParse, env.parseErr.Error(), env.request(), env.id)
			return outcome{wrote: true}
		}
		// Every decoding error is replaced by one fixed text (node-api.md §1.2 step 5).
		if env.id == nil {
			return outcome{}
		}
		s.appendError(st, CodeServer, errInvalidArgs.Error(), nil, env.id)
		return outcome{wrote: true}
	}
	res.ran = true
	reply, err := m.call(ctx, args)
	if env.id == nil {
		return res
	}
	if err != nil {
		s.appendCallError(st, m, err, env.id)
		res.wrote = true
		return res
	}
	out.WriteString(`{"jsonrpc":"2.0","result":`)
	if b := encodedJSON(reply); b != nil {
		// Written as encoding/json would write it, without its pass over the bytes.
		out.Write(b)
	} else if err := st.enc.Encode(reply); err != nil {
		out.Truncate(start)
		s.log.Error("jsonrpc cannot encode result", "method", m.name, "err", err)
		if !inBatch {
			res.encodeErr = err
			return res
		}
		s.appendError(st, CodeServer, errInternal.Error(), nil, env.id)
		res.wrote = true
		return res
	} else {
		out.Truncate(out.Len() - 1) // the Encoder's '\n'
	}
	out.WriteString(`,"id":`)
	appendID(st, env.id)
	out.WriteByte('}')
	res.wrote = true
	return res
}

// Encoded is implemented by a reply that keeps its own JSON, such as a constant reply encoded once
// at start-up. EncodedJSON returns it exactly as encoding/json would encode the reply (compact,
// with <, >, &, U+2028 and U+2029 escaped), and the engine copies it as it is; nil means "encode
// the reply as usual". Encoding the reply through its MarshalJSON instead costs a validating pass
// over the bytes, about a twentieth of the CPU an info.getNodeVersion call costs the node.
type Encoded interface {
	EncodedJSON() []byte
}

// encodedJSON returns the JSON a reply keeps (Encoded), or nil.
func encodedJSON(reply any) []byte {
	if e, ok := reply.(Encoded); ok {
		return e.EncodedJSON()
	}
	return nil
}

// appendCallError appends the response to a handler's error.
func (s *Server) appendCallError(st *state, m *method, err error, id []byte) {
	e, ok := errors.AsType[*Error](err)
	if !ok {
		s.appendError(st, CodeServer, err.Error(), nil, id)
		return
	}
	var data any
	if e.Data != nil {
		if json.Valid(e.Data) {
			data = e.Data
		} else {
			s.log.Error("jsonrpc handler error has invalid data; sending null", "method", m.name, "data", string(e.Data))
		}
	}
	s.appendError(st, e.Code, e.Message, data, id)
}

// appendError appends an error response object. data is encoded with encoding/json (nil gives null).
func (s *Server) appendError(st *state, code int, msg string, data any, id []byte) {
	out := &st.out
	out.WriteString(`{"jsonrpc":"2.0","error":{"code":`)
	out.Write(strconv.AppendInt(out.AvailableBuffer(), int64(code), 10))
	out.WriteString(`,"message":`)
	s.appendJSON(st, msg)
	out.WriteString(`,"data":`)
	if data == nil {
		out.WriteString("null")
	} else {
		s.appendJSON(st, data)
	}
	out.WriteString(`},"id":`)
	appendID(st, id)
	out.WriteByte('}')
}

// appendJSON appends v as encoding/json encodes it, HTML escaping included.
func (s *Server) appendJSON(st *state, v any) {
	if err := st.enc.Encode(v); err != nil {
		// Only the engine's own values come here (strings, json2.Request, validated data).
		s.log.Error("jsonrpc cannot encode error response", "err", err)
		st.out.WriteString("null")
		return
	}
	st.out.Truncate(st.out.Len() - 1)
}

// appendID appends the request id as encoding/json re-encodes a json.RawMessage: compacted, with
// <, >, &, U+2028 and U+2029 escaped (node-api.md §1.3). An id without any of those, nor white space,
// is copied as it is.
func appendID(st *state, id []byte) {
	if id == nil {
		st.out.WriteString("null")
		return
	}
	for _, c := range id {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2:
			if err := st.enc.Encode(json.RawMessage(id)); err != nil {
				// Unreachable: ids are valid JSON.
				st.out.WriteString("null")
				return
			}
			st.out.Truncate(st.out.Len() - 1)
			return
		}
	}
	st.out.Write(id)
}

// readBody reads the whole request body into buf, at most MaxBodySize bytes. Past that it returns
// a *http.MaxBytesError, and net/http closes the connection after the response.
//
// A body that declares a length within the limit is read as it is: net/http ends it at that
// length (HTTP/2 resets a stream that sends more), so http.MaxBytesReader, an allocation and a
// layer of reads, would never trip. A body of unknown length (chunked) or declared too long goes
// through it. The body is closed once read to its end, so that net/http does not try to drain it
// again after the handler (a copy through an io.LimitReader per request otherwise).
func readBody(w http.ResponseWriter, r *http.Request, buf *bytes.Buffer) error {
	if r.Body == nil {
		return nil
	}
	n := r.ContentLength
	var body io.Reader = r.Body
	if n < 0 || n > MaxBodySize {
		body = http.MaxBytesReader(w, r.Body, MaxBodySize)
	} else {
		buf.Grow(int(min(n, pooledCap)))
	}
	if _, err := buf.ReadFrom(body); err != nil {
		return err
	}
	// Closing a body read to its end cannot fail in net/http; the error is not news.
	_ = r.Body.Close()
	return nil
}

// writeText writes an HTTP-level error: text/plain, no trailing newline, as gorilla's WriteError.
func writeText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", contentTypeText)
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg)
}

func (s *Server) getState() *state {
	if st, ok := s.states.Get().(*state); ok {
		return st
	}
	st := new(state)
	st.enc = json.NewEncoder(&st.out)
	return st
}

func (s *Server) putState(st *state) {
	if st.body.Cap() > pooledCap || st.out.Cap() > pooledCap {
		return
	}
	st.body.Reset()
	st.out.Reset()
	st.limits = nil
	s.states.Put(st)
}
