package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// method is one registered function.
type method struct {
	// name is the wire name with its service, e.g. "info.getNodeID", for logs.
	name string
	// decode returns a new argument value (a *A) filled from params.
	decode func(params []byte) (any, error)
	// call runs the handler on what decode returned and gives its reply (a non-nil *R).
	call func(ctx context.Context, args any) (any, error)
	// heavy is set by RegisterHeavy: the call waits for a heavy-call slot ([Limits]).
	heavy bool
}

// Register adds a method to s. name is the wire function name, e.g. "getNodeID"; clients call it as
// "<service>.getNodeID". h receives the decoded params and returns the reply, sent as result; a nil
// reply with a nil error is sent as a zero R, as the reference always allocates the reply.
//
// Params decode as in the reference (node-api.md §1.2 step 5): absent or null leaves the zero A;
// otherwise an object is decoded into A, and failing that an array whose first element is decoded
// into A (extra elements ignored, [] leaves the zero A); keys match case-insensitively.
//
// Register must be called before s serves its first request. It panics if name is empty, contains a
// '.', starts with an upper-case letter or invalid UTF-8 (such names can never be called), or maps to
// the same function as a name registered before.
func Register[A, R any](s *Server, name string, h func(ctx context.Context, args *A) (*R, error)) {
	register(s, name, h, false)
}

// RegisterHeavy is Register for a method whose reply may run to megabytes (a range of containers,
// a page of UTXOs): a call of it, or a batch holding one, waits for one of the node's heavy-call
// slots ([Limits]) before it runs and holds it until its response is written, so that such calls
// cannot together exhaust the node's memory. Calls registered with Register never wait.
func RegisterHeavy[A, R any](s *Server, name string, h func(ctx context.Context, args *A) (*R, error)) {
	register(s, name, h, true)
}

func register[A, R any](s *Server, name string, h func(ctx context.Context, args *A) (*R, error), heavy bool) {
	if s.serving.Load() {
		panic("jsonrpc: Register called after the server started serving")
	}
	first, size := utf8.DecodeRuneInString(name)
	if name == "" || first == utf8.RuneError || unicode.IsUpper(first) || strings.IndexByte(name, '.') >= 0 {
		panic("jsonrpc: cannot register method name " + name)
	}
	mapped := string(unicode.ToUpper(first)) + name[size:]
	if _, dup := s.methods[mapped]; dup {
		panic("jsonrpc: method " + name + " registered twice")
	}
	m := &method{
		name:  s.service + "." + name,
		heavy: heavy,
		decode: func(params []byte) (any, error) {
			args := new(A)
			if params == nil {
				return args, nil
			}
			// The order of attempts, and reusing args for the second, follow gorilla json2's
			// ReadRequest.
			if err := json.Unmarshal(params, args); err != nil {
				wrapped := [1]any{args}
				if err := json.Unmarshal(params, &wrapped); err != nil {
					return nil, err
				}
			}
			return args, nil
		},
		call: func(ctx context.Context, args any) (any, error) {
			reply, err := h(ctx, args.(*A))
			if err != nil {
				return nil, err
			}
			if reply == nil {
				reply = new(R)
			}
			return reply, nil
		},
	}
	s.methods[mapped] = m
	s.wire[m.name] = m
}

// lookup maps a method name as the reference does and finds it (node-api.md §1.2 step 4).
//
// First avalanchego's codec: the name is split at its first '.'; when there is one and the function
// part starts with a valid rune other than U+FFFD, an upper-case rune is rejected and any other is
// upper-cased. Then gorilla: the mapped name must have exactly one '.', the service part must be
// this server's service and the function part a registered function, both in exact case.
//
// A name spelled exactly as registered ("info.getNodeID", the common case) maps to that method by
// these rules, and is found at once.
func (s *Server) lookup(name []byte) (*method, error) {
	if m := s.wire[string(name)]; m != nil {
		return m, nil
	}
	return s.mapLookup(name)
}

// mapLookup is lookup by the mapping rules alone.
func (s *Server) mapLookup(name []byte) (*method, error) {
	// The mapped name is built in a stack buffer; converting it to a string for the map index
	// does not allocate.
	var buf [96]byte
	mapped := name
	if dot := bytes.IndexByte(name, '.'); dot >= 0 {
		fn := name[dot+1:]
		r, size := utf8.DecodeRune(fn)
		if r != utf8.RuneError {
			if unicode.IsUpper(r) {
				return nil, errUppercaseMethod
			}
			mapped = append(buf[:0], name[:dot+1]...)
			mapped = utf8.AppendRune(mapped, unicode.ToUpper(r))
			mapped = append(mapped, fn[size:]...)
		}
	}
	dot := bytes.IndexByte(mapped, '.')
	if dot < 0 || bytes.IndexByte(mapped[dot+1:], '.') >= 0 {
		return nil, errIllFormed(mapped)
	}
	if string(mapped[:dot]) != s.service {
		return nil, errNoService(mapped)
	}
	m := s.methods[string(mapped[dot+1:])]
	if m == nil {
		return nil, errNoMethod(mapped)
	}
	return m, nil
}
