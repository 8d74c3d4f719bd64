package jsonrpc

import (
	"encoding/json"
	"errors"
	"strconv"
)

// JSON-RPC error codes. The reference answers everything but envelope problems with -32000; -32601,
// -32602 and -32603 are never emitted (node-api.md §1.7, §7 item 1).
const (
	// CodeParse is sent when the body is not a decodable envelope (node-api.md §1.2 step 3).
	CodeParse = -32700
	// CodeInvalidRequest is sent when jsonrpc is not "2.0" (node-api.md §1.2 step 3), and for the
	// batch problems, which the reference does not have.
	CodeInvalidRequest = -32600
	// CodeServer is sent for every other error: method name, params, handler errors.
	CodeServer = -32000
	// CodeResponseTooLarge is sent for the elements of a batch past its response cap
	// ([Limits]); go-ethereum's code for the same case. The reference has no batches.
	CodeResponseTooLarge = -32003
)

// Error is a JSON-RPC error chosen by a handler: the engine sends Code, Message and Data as they are.
// A handler may return it wrapped; the engine finds it with errors.AsType. Any other error is sent
// as code -32000 with err.Error() as message and null data (node-api.md §1.2 step 6).
type Error struct {
	// Code is the JSON-RPC error code.
	Code int
	// Message is the error text sent to the client.
	Message string
	// Data is sent as the error's data; nil is sent as null. It must be valid JSON; if it is not,
	// the engine logs that and sends null.
	Data json.RawMessage
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Texts of the JSON-RPC level, as the reference node writes them (node-api.md §1.2).
var (
	// errVersion is sent when jsonrpc is not exactly "2.0" (§1.2 step 3; gorilla json2).
	errVersion = errors.New("jsonrpc must be 2.0")
	// errUppercaseMethod is sent when the function part of the method starts with an upper-case
	// letter (§1.2 step 4; avalanchego utils/json/codec.go).
	errUppercaseMethod = errors.New("method must start with a non-uppercase letter")
	// errInvalidArgs replaces every params decoding error (§1.2 step 5).
	errInvalidArgs = errors.New("couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls")
	// errInternal is sent when a handler panics. The reference has no such case (its handlers
	// crash the process); the text is ours.
	errInternal = errors.New("internal error")
)

// Batch texts. The reference does not serve batches (node-api.md §1.6); cornice does (reference
// README "Precedence" 3), and these texts are ours, sent with CodeInvalidRequest.
var (
	// errEmptyBatch answers a body that is an empty array (JSON-RPC 2.0 §6).
	errEmptyBatch = errors.New("empty batch")
	// errBatchTooLarge answers a batch of more than MaxBatch calls.
	errBatchTooLarge = errors.New("batch too large: at most " + strconv.Itoa(MaxBatch) + " calls")
	// errBatchElement answers a batch element that is not a JSON object (JSON-RPC 2.0 §6).
	errBatchElement = errors.New("batch element must be an object")
	// errResponseTooLarge answers, with CodeResponseTooLarge, the elements of a batch past its
	// response cap: go-ethereum's text (rpc/errors.go).
	errResponseTooLarge = errors.New("response too large")
)

// Method-name errors, formatted as gorilla/rpc v2 map.go does: the name is shown %q-quoted, after
// the first letter of the function was upper-cased (§1.2 step 4).

// errIllFormed is sent when the mapped name does not have exactly one dot.
func errIllFormed(mapped []byte) error {
	return errors.New("rpc: service/method request ill-formed: " + strconv.Quote(string(mapped)))
}

// errNoService is sent when the service part is not this server's service (exact case).
func errNoService(mapped []byte) error {
	return errors.New("rpc: can't find service " + strconv.Quote(string(mapped)))
}

// errNoMethod is sent when the service has no such function (exact case).
func errNoMethod(mapped []byte) error {
	return errors.New("rpc: can't find method " + strconv.Quote(string(mapped)))
}

// HTTP-level texts, sent as text/plain without a trailing newline (node-api.md §1.2 steps 1–2, §1.5).

// textMethodNotAllowed is the 405 body: gorilla v2 server.go.
func textMethodNotAllowed(method string) string {
	return "rpc: POST method required, received " + method
}

// textUnsupportedMediaType is the 415 body: gorilla v2 server.go. part is the Content-Type value
// before its first ';', as received.
func textUnsupportedMediaType(part string) string {
	return "rpc: unrecognized Content-Type: " + part
}

// HTTP-level texts of ours: the reference has no body limit (node-api.md §2.1).
var (
	// textTooLarge is the 413 body for a request body over MaxBodySize.
	textTooLarge = "rpc: request body too large: at most " + strconv.Itoa(MaxBodySize) + " bytes"
	// textUnreadable is the 400 body when reading the request body fails for another reason
	// (usually the client went away).
	textUnreadable = "rpc: cannot read request body"
	// textBusy is the 503 body when a heavy request could not get a slot ([Limits]) before its
	// context was done: its deadline passed or the client left.
	textBusy = "rpc: too many heavy calls in progress; try again later"
)
