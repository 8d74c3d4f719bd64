package jsonrpc

import (
	"encoding/json"

	"github.com/cornice-node/cornice/jsonrpc/internal/json2"
)

// envelope is one decoded request. Its slices point into the request body.
type envelope struct {
	version []byte
	method  []byte
	params  []byte // nil when absent or null
	id      []byte // nil when absent or null: the call is a notification (node-api.md §1.4)
	// parseErr is encoding/json's error; the other fields then hold what was decoded before it
	// (type errors keep decoding the other fields).
	parseErr error
	// end is the index after the object in the body, set by scanEnvelope only.
	end int
	// unchecked is set when params were delimited but not checked to be valid JSON (parseEnvelope
	// leaves that to the decoding of the args, which checks it anyway); src is then the body the
	// envelope was read from, for check.
	unchecked bool
	src       []byte
}

// parseEnvelope decodes the first JSON value of body as the reference does: json.Decoder.Decode into
// the envelope struct (node-api.md §1.2 step 3). The common case is parsed by scanEnvelope without
// allocating; anything else goes through encoding/json itself, so that every error text is Go's.
//
// The params are delimited but not validated: json.Unmarshal of the args validates them in full
// before it decodes, so a pass of json.Valid here would be a third pass over the largest part of
// the body (docs/decisions.md, "The params are validated once"). Whoever answers a call without
// decoding its params calls check first.
func parseEnvelope(body []byte) envelope {
	if env, ok := scanEnvelopeLazy(body, true); ok {
		env.src = body
		return env
	}
	return decodeEnvelope(body)
}

// check validates params that parseEnvelope left unchecked. Invalid params make the whole body
// invalid JSON: env then becomes what encoding/json decodes, with its parse error.
func (env *envelope) check() {
	if !env.unchecked {
		return
	}
	if json.Valid(env.params) {
		env.unchecked = false
		return
	}
	*env = decodeEnvelope(env.src)
}

// decodeEnvelope is the slow path: encoding/json decodes body into json2.Request.
func decodeEnvelope(body []byte) envelope {
	req, err := json2.Decode(body)
	env := envelope{
		version:  []byte(req.Version),
		method:   []byte(req.Method),
		parseErr: err,
	}
	if req.Params != nil {
		env.params = *req.Params
	}
	if req.ID != nil {
		env.id = *req.ID
	}
	return env
}

// request returns the envelope as the reference's decoded struct, for the data of -32700 and -32600
// errors.
func (env *envelope) request() *json2.Request {
	req := &json2.Request{Version: string(env.version), Method: string(env.method)}
	if env.params != nil {
		p := json.RawMessage(env.params)
		req.Params = &p
	}
	if env.id != nil {
		id := json.RawMessage(env.id)
		req.ID = &id
	}
	return req
}

// Envelope keys the fast path knows, as bits of a seen-set.
const (
	keyVersion = 1 << iota
	keyMethod
	keyParams
	keyID
)

// scanEnvelope is the fast path of parseEnvelope. It accepts a subset of what encoding/json accepts,
// and on that subset gives what encoding/json gives: a JSON object whose keys are the four envelope
// keys exactly in lower case, each at most once, without escapes; jsonrpc and method plain ASCII
// strings without escapes; params and id any valid JSON value. ok is false for anything else
// (another key, case variants, duplicates, escapes, non-ASCII, a type error, a syntax error), and
// the caller falls back to encoding/json. FuzzScanEnvelope checks the two agree.
func scanEnvelope(body []byte) (env envelope, ok bool) {
	return scanEnvelopeLazy(body, false)
}

// scanEnvelopeLazy is scanEnvelope, but with lazy it does not check that the params are valid
// JSON beyond their extent (matching brackets and quotes), and sets env.unchecked when it did not.
// The extent is the one encoding/json reads whenever the body is valid; when the params are not
// valid JSON, neither is the body.
func scanEnvelopeLazy(body []byte, lazy bool) (env envelope, ok bool) {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return envelope{}, false
	}
	i = skipSpace(body, i+1)
	if i < len(body) && body[i] == '}' {
		env.end = i + 1
		return env, true
	}
	var seen int
	for {
		key, end, ok := scanPlainString(body, i)
		if !ok {
			return envelope{}, false
		}
		i = skipSpace(body, end)
		if i >= len(body) || body[i] != ':' {
			return envelope{}, false
		}
		i = skipSpace(body, i+1)
		var bit int
		switch string(key) {
		case "jsonrpc":
			bit = keyVersion
			env.version, end, ok = scanPlainString(body, i)
		case "method":
			bit = keyMethod
			env.method, end, ok = scanPlainString(body, i)
		case "params":
			bit = keyParams
			env.params, end, env.unchecked, ok = scanValue(body, i, lazy)
			if isNull(env.params) {
				env.params = nil
			}
		case "id":
			bit = keyID
			env.id, end, _, ok = scanValue(body, i, false)
			if isNull(env.id) {
				env.id = nil
			}
		}
		if !ok || bit == 0 || seen&bit != 0 {
			return envelope{}, false
		}
		seen |= bit
		i = skipSpace(body, end)
		if i >= len(body) {
			return envelope{}, false
		}
		switch body[i] {
		case ',':
			i = skipSpace(body, i+1)
		case '}':
			// Bytes after the value are ignored, as by json.Decoder.
			env.end = i + 1
			return env, true
		default:
			return envelope{}, false
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanPlainString reads a JSON string at b[i] made of printable ASCII without escapes, so that its
// decoded value is its raw content. It returns the content and the index after the closing quote.
func scanPlainString(b []byte, i int) (s []byte, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// scanValue finds the extent of the JSON value at b[i] and checks it is valid JSON. It returns the
// value's raw bytes and the index after it. A valid object, array or string ends at its closing
// delimiter and a valid literal or number is maximal, so encoding/json would read the same extent.
// With lazy, an object, array or string that would need json.Valid's pass is returned unchecked
// instead.
func scanValue(b []byte, i int, lazy bool) (v []byte, end int, unchecked, ok bool) {
	if i >= len(b) {
		return nil, 0, false, false
	}
	// valid is set where the value's extent alone shows it valid, without json.Valid's pass: the
	// common ids (a number, a plain string) and the literals.
	var valid bool
	switch c := b[i]; {
	case c == '{' || c == '[':
		end, ok = matchBracket(b, i)
	case c == '"':
		end, ok = matchString(b, i)
		valid = ok && plainString(b[i+1:end-1])
	case c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z':
		end = i
		for end < len(b) && isLiteralByte(b[end]) {
			end++
		}
		ok = true
		switch v := string(b[i:end]); {
		case v == "true" || v == "false" || v == "null":
			valid = true
		case c == '-' || c <= '9':
			// A number is valid by its grammar alone; a malformed one is answered by the slow
			// path, with encoding/json's error text.
			if !validNumber(b[i:end]) {
				return nil, 0, false, false
			}
			valid = true
		}
	}
	if !ok {
		return nil, 0, false, false
	}
	if !valid {
		if lazy && (b[i] == '{' || b[i] == '[' || b[i] == '"') {
			return b[i:end], end, true, true
		}
		if !json.Valid(b[i:end]) {
			return nil, 0, false, false
		}
	}
	return b[i:end], end, false, true
}

// plainString reports whether s, the content of a JSON string, has neither escapes nor control
// characters: such a string is valid JSON whatever its other bytes, as encoding/json does not
// check UTF-8 (json.Valid and Decode accept invalid UTF-8 in strings).
func plainString(s []byte) bool {
	for _, c := range s {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return true
}

// validNumber reports whether b is a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(b)
}

// skipDigits returns the index of the first byte at or after i that is not a decimal digit.
func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// isLiteralByte reports whether c can occur in a JSON number or in true, false and null.
func isLiteralByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// matchString returns the index after the string starting at b[i] (a '"'), skipping escaped
// characters. It does not validate the content.
func matchString(b []byte, i int) (end int, ok bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// matchBracket returns the index after the object or array starting at b[i], counting brackets
// outside strings. It does not validate the content.
func matchBracket(b []byte, i int) (end int, ok bool) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		case '"':
			e, ok := matchString(b, j)
			if !ok {
				return 0, false
			}
			j = e - 1
		}
	}
	return 0, false
}

// isNull reports whether v is the JSON literal null.
func isNull(v []byte) bool {
	return len(v) == 4 && string(v) == "null"
}
