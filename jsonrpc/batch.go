package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
)

// serveBatch serves a body whose first JSON value is an array (JSON-RPC 2.0 §6; the reference has no
// batches, node-api.md §1.6). The elements run one after another, in order. Each object element is
// answered exactly as the same bytes sent alone would be; notifications get no element.
func (s *Server) serveBatch(ctx context.Context, body []byte, st *state) outcome {
	arr, err := scanBatch(body)
	if err != nil {
		// Invalid JSON: the same -32700 as a single call gets, with an empty envelope as data.
		env := envelope{parseErr: err}
		return s.handle(ctx, &env, st, false)
	}
	n := 0
	for i, ok := firstElement(arr); ok; i, ok = nextElement(arr, i) {
		if n++; n > MaxBatch {
			s.appendError(st, CodeInvalidRequest, errBatchTooLarge.Error(), nil, nil)
			return outcome{wrote: true}
		}
	}
	if n == 0 {
		s.appendError(st, CodeInvalidRequest, errEmptyBatch.Error(), nil, nil)
		return outcome{wrote: true}
	}

	// A batch that calls a heavy method takes its slot before any of its calls runs; without a
	// bound there is no slot to take, and no need to look.
	if st.limitsOf(ctx).heavy != nil && s.batchIsHeavy(arr) {
		if err := st.acquireHeavy(ctx); err != nil {
			return outcome{busy: true}
		}
	}

	out := &st.out
	out.WriteByte('[')
	var res outcome
	// size adds up the bytes of the elements answered so far; past the cap, the calls left are
	// answered "response too large" without running, as go-ethereum does (its handleBatch).
	limit := st.limitsOf(ctx).BatchResponse()
	size := 0
	for i, ok := firstElement(arr); ok; i, ok = nextElement(arr, i) {
		if ctx.Err() != nil {
			// The client is gone: stop running calls for it.
			out.Reset()
			return outcome{ran: res.ran}
		}
		if st.heavy {
			// Between the calls of a heavy batch, let waiting goroutines run first: a light
			// call that arrives meanwhile waits for one call of this batch, not for the
			// scheduler's 10 ms time slice of each heavy request in progress.
			runtime.Gosched()
		}
		elem := arr[i:valueEnd(arr, i)]
		mark := out.Len()
		if res.wrote {
			out.WriteByte(',')
		}
		var r outcome
		switch {
		case limit > 0 && size > limit:
			r.wrote = s.appendTooLarge(st, elem)
		case elem[0] == '{':
			env := parseEnvelope(elem)
			r = s.handle(ctx, &env, st, true)
		default:
			s.appendError(st, CodeInvalidRequest, errBatchElement.Error(), nil, nil)
			r.wrote = true
		}
		if !r.wrote {
			out.Truncate(mark)
		}
		size += out.Len() - mark
		res.ran = res.ran || r.ran
		res.wrote = res.wrote || r.wrote
	}
	if !res.wrote {
		out.Reset()
		return res
	}
	out.WriteByte(']')
	return res
}

// batchIsHeavy reports whether an element of the valid JSON array arr calls a method registered
// with RegisterHeavy.
func (s *Server) batchIsHeavy(arr []byte) bool {
	for i, ok := firstElement(arr); ok; i, ok = nextElement(arr, i) {
		if arr[i] != '{' {
			continue
		}
		env := parseEnvelope(arr[i:valueEnd(arr, i)])
		if env.parseErr != nil {
			continue
		}
		if m, err := s.lookup(env.method); err == nil && m.heavy {
			return true
		}
	}
	return false
}

// appendTooLarge appends the "response too large" answer of a batch element past the cap, and
// reports whether it did: a notification gets none, as it would not have had one had it run.
func (s *Server) appendTooLarge(st *state, elem []byte) bool {
	var id []byte
	if elem[0] == '{' {
		env := parseEnvelope(elem)
		if env.parseErr == nil && env.id == nil {
			return false
		}
		id = env.id
	}
	s.appendError(st, CodeResponseTooLarge, errResponseTooLarge.Error(), nil, id)
	return true
}

// scanBatch returns the array at the start of body, checked to be valid JSON; bytes after it are
// ignored. For invalid JSON it returns json.Decoder's error, so the texts are Go's.
func scanBatch(body []byte) ([]byte, error) {
	i := skipSpace(body, 0)
	if end, ok := matchBracket(body, i); ok && json.Valid(body[i:end]) {
		return body[i:end], nil
	}
	var raw json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// firstElement returns the index of the first element of the valid JSON array arr, or false when
// the array is empty.
func firstElement(arr []byte) (int, bool) {
	i := skipSpace(arr, 1)
	return i, arr[i] != ']'
}

// nextElement returns the index of the element after the one at i, or false after the last.
func nextElement(arr []byte, i int) (int, bool) {
	i = skipSpace(arr, valueEnd(arr, i))
	if arr[i] == ']' {
		return 0, false
	}
	return skipSpace(arr, i+1), true
}

// valueEnd returns the index after the JSON value at b[i], which must be valid JSON.
func valueEnd(b []byte, i int) int {
	var end int
	switch b[i] {
	case '{', '[':
		end, _ = matchBracket(b, i)
	case '"':
		end, _ = matchString(b, i)
	default:
		end = i
		for end < len(b) && isLiteralByte(b[end]) {
			end++
		}
	}
	return end
}
