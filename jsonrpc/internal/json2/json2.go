// Package json2 holds the JSON-RPC envelope as encoding/json decodes it, under the package and type
// names whose spelling the decoder's error texts carry.
//
// The reference node answers a malformed envelope with -32700 and encoding/json's error text verbatim,
// for example `json: cannot unmarshal number into Go value of type json2.serverRequest` or
// `json: cannot unmarshal number into Go struct field serverRequest.method of type string`
// (reference/node-api.md §1.2 step 3, §7 item 25). Those texts name the Go type, so the type is
// declared as serverRequest in a package named json2. Nothing here is used on the fast path.
//
// Functions are safe for concurrent use; Decode never keeps the slice it is given.
package json2

import (
	"bytes"
	"encoding/json"
)

// serverRequest is the decoded envelope. Field order and JSON names match the reference's, so that
// marshalling it gives the error data of a -32700 or -32600 response
// (`{"jsonrpc":"","method":"","params":null,"id":null}`, always four keys).
type serverRequest struct {
	Version string           `json:"jsonrpc"`
	Method  string           `json:"method"`
	Params  *json.RawMessage `json:"params"`
	ID      *json.RawMessage `json:"id"`
}

// Request is the envelope type. It is an alias so that reflection, and so encoding/json's error
// texts, still see the name serverRequest.
type Request = serverRequest

// Decode reads the first JSON value of body into a Request exactly as json.Decoder.Decode does
// (bytes after the value are ignored) and returns the partly decoded Request together with the
// decoder's error, untouched. A null params or id leaves the field nil.
func Decode(body []byte) (Request, error) {
	var req Request
	err := json.NewDecoder(bytes.NewReader(body)).Decode(&req)
	return req, err
}
