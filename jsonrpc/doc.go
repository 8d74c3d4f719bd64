// Package jsonrpc is the JSON-RPC 2.0 engine that serves every node-native service (info, index,
// admin, health, platform, avm, validators): envelope, typed handlers, and errors exactly as the
// reference node's (reference/node-api.md §1). Clients parse our bytes, so what follows is a contract
// and the wire transcripts in testdata/*.txt pin it.
//
// # Serving
//
// A [Server] serves one service, e.g. "info", and is an http.Handler. Methods are added with
// [Register] as plain typed functions, func(ctx, *Args) (*Reply, error); a client calls
// "<service>.<name>". ctx is the HTTP request's context. A Server is safe for concurrent use once
// every method is registered; Register must not be called after the first request (it panics).
//
// # HTTP
//
//   - A method other than POST gets 405, text/plain, `rpc: POST method required, received GET`, with
//     no trailing newline (§1.2 step 1).
//   - The Content-Type is cut at its first ';', lower-cased, and must be application/json; anything
//     else, a missing header included, gets 415 `rpc: unrecognized Content-Type: <part>` (§1.2 step 2).
//   - A body over [MaxBodySize] (25 MiB) gets 413 `rpc: request body too large: at most 26214400
//     bytes`; a body that cannot be read gets 400 `rpc: cannot read request body`. The reference has
//     no limit (§2.1).
//   - Every JSON-RPC response is HTTP 200 with Content-Type `application/json; charset=utf-8`
//     (§1.5). X-Content-Type-Options: nosniff is set only when a handler ran (§1.3).
//   - If a reply cannot be encoded (a failing MarshalJSON), the reference's 500 text/plain with the
//     encoder's error is sent (§1.5), and the failure is logged.
//
// # One call
//
// The first JSON value of the body is the envelope; bytes after it are ignored. Its keys match
// case-insensitively and the last duplicate wins. In order (§1.2 steps 3–6):
//
//   - If it cannot be decoded: -32700 with encoding/json's error text (`EOF`, `unexpected EOF`,
//     `json: cannot unmarshal number into Go struct field serverRequest.method of type string`, …)
//     and the partly decoded envelope as data, always answered.
//   - If jsonrpc is not "2.0": -32600 `jsonrpc must be 2.0`, the envelope as data.
//   - The method name is mapped and looked up as the reference does, with its -32000 texts
//     (`method must start with a non-uppercase letter`, `rpc: service/method request ill-formed:
//     "<name>"`, `rpc: can't find service "<name>"`, `rpc: can't find method "<name>"`).
//   - Params: absent or null give zero args; an object is decoded into the args, else an array whose
//     first element is; on failure, -32000 `couldn't unmarshal an argument. Ensure arguments are
//     valid and properly formatted. See documentation for example calls`.
//   - The handler runs. An [*Error] it returns (wrapped or not) is sent with its code, message and
//     data; any other error as -32000 with err.Error() and null data. A panic is logged with its
//     stack at Error level and answered -32000 `internal error`; nothing partial is ever written.
//
// A call without an id, or with a null id, is a notification: it runs, and the answer is an empty
// HTTP 200 (Content-Length 0, no Content-Type), whatever happened, except for -32700, which is always
// answered (§1.4).
//
// A response is `{"jsonrpc":"2.0","result":…,"id":…}` or
// `{"jsonrpc":"2.0","error":{"code":…,"message":"…","data":…},"id":…}`, then a newline. The id is
// echoed as sent, of any JSON type, compacted. Like encoding/json, the engine escapes <, > and & as
// \u003c, \u003e and \u0026 everywhere, the id included (§1.3).
//
// # Batches
//
// Unlike the reference (§1.6), a body whose first value is an array is a JSON-RPC 2.0 batch
// (reference README, "Precedence" 3). Its calls run one after another, in order, and the reply is one
// array holding, in order, each call's response exactly as the call alone would get it (without the
// newline); notifications get no element, and a batch of notifications only gets an empty HTTP 200.
// Batch problems are -32600 errors with null data and null id, texts of ours:
//
//   - `[]`: a single error object, `empty batch`;
//   - more than [MaxBatch] (1000) elements: a single error object, `batch too large: at most 1000
//     calls`, and no call runs;
//   - an element that is not an object: that element is `batch element must be an object`;
//   - a body that is not valid JSON: the single -32700 a single call gets.
//
// # Values
//
// [Uint64], [Uint32], [Uint8] and [Float64] are the reference's string-encoded numbers (§1.8).
//
// # Calling
//
// A [Client] is the other side: the one JSON-RPC client of cornice's wallet, benches and tests.
// [Client.Call] sends one call and decodes its result or returns the error reply as an [*Error];
// [Client.Post] sends bytes as they are and returns the reply's status and bytes, for batches and
// wire tests. Package jsonrpctest replays request/response transcripts through it.
package jsonrpc
