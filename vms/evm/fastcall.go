package evm

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/cornice-node/cornice/jsonrpc"
)

// maxFastCallBody is the largest request body serveCall answers; larger calls (long call data)
// go to go-ethereum's server, whose own body limit is larger.
const maxFastCallBody = 64 << 10

// plainRequest reports whether the fronts (serveCall, serveDev) may answer r: a JSON-RPC 2.0 call
// with an id that is a number or a string, a JSON content type and a declared body within
// maxFastCallBody, on a chain that is not stopping. Anything else goes to go-ethereum's server.
func (vm *VM) plainRequest(r *http.Request, c *jsonrpc.Call) bool {
	return string(c.Version) == "2.0" && c.ID != nil && c.ID[0] != '{' && c.ID[0] != '[' &&
		r.ContentLength > 0 && r.ContentLength <= maxFastCallBody &&
		r.Header.Get("Content-Type") == "application/json" && !vm.stopped.Load()
}

// serveCall answers eth_call in its common form without go-ethereum's rpc server, as that
// server answers it, byte for byte: a call with a JSON content type, an id that is a number or a
// string, and params of the call's arguments and at most a block, whether it succeeds or fails
// (a revert with its data, out of gas, an invalid opcode, no funds for its value). It is the
// jsonrpc.Front of the chain's /rpc. go-ethereum's server would parse the arguments by
// reflection and run the call on a goroutine of its own, whose stack grows through the EVM on
// every call: a third of an eth_call's CPU under load (docs/benchmarks.md). Everything else
// (other methods, state or block overrides, params go-ethereum would refuse as invalid, a body
// that is not plain) is declined before anything is written, and go-ethereum's server answers
// it.
func (vm *VM) serveCall(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) (answered bool) {
	if string(c.Method) != "eth_call" || !vm.plainRequest(r, c) {
		return false
	}
	// A panic declines: go-ethereum's server runs the call again and answers its crash.
	defer func() {
		if recover() != nil {
			answered = false
		}
	}()
	// go-ethereum's reading of the params (parsePositionalArguments): an array, each element
	// decoded with encoding/json into the method's argument; the arguments are not optional.
	params, ok := c.Args(make([][]byte, 0, 3))
	if !ok || len(params) == 0 || len(params) > 2 || string(params[0]) == "null" {
		return false
	}
	var args callArgs
	if decodeCallArgs(params[0], &args) != nil {
		return false
	}
	var bnh *blockNumberOrHash
	if len(params) == 2 && decodeBlockParam(params[1], &bnh) != nil {
		return false
	}
	// go-ethereum's server gives up on a call a little before the HTTP server's write timeout;
	// so does this one, with one timer on the EVM (callEnv.deadline) and no context: a client
	// that leaves does not stop its call, which the timeout and the gas cap bound, and the
	// request's own deadline arms no second timer (api's deadlineCtx arms one when asked for
	// Done). A call that passed its deadline is answered as timed out, as go-ethereum's
	// server answers one whose context ended.
	deadline := replyDeadline(r)
	env, msg, err := vm.callMsg(args, bnh, nil, nil)
	var res *core.ExecutionResult
	if err == nil {
		env.deadline = deadline
		res, err = vm.runMsg(context.Background(), env, msg, nil)
	}
	if !deadline.IsZero() && (errors.Is(err, errExecutionAborted) || !time.Now().Before(deadline)) {
		writeTimedOut(w, c.ID)
		return true
	}
	var out []byte
	if err == nil {
		out, err = callOutput(res)
	}
	var b []byte
	if err != nil {
		b = appendErrorReply(make([]byte, 0, 128+len(c.ID)), c.ID, err)
	} else {
		b = make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":"0x"}`)+len(c.ID)+2*len(out)+1)
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		b = append(b, c.ID...)
		b = append(b, `,"result":"0x`...)
		b = hex.AppendEncode(b, out)
		b = append(b, "\"}\n"...)
	}
	writeReply(w, b)
	return true
}

// writeReply writes b, a reply of serveCall or serveDev, with go-ethereum's headers.
func writeReply(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h["Content-Type"] = headerJSON
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	_, _ = w.Write(b)
}

// replyDeadline is when go-ethereum's server gives up on r's call, a little before the HTTP
// server's write timeout, as the fronts do too; zero when r has none.
func replyDeadline(r *http.Request) time.Time {
	timeout, limited := rpc.ContextRequestTimeout(r.Context())
	if !limited {
		return time.Time{}
	}
	return time.Now().Add(timeout)
}

// gethError is the error object of go-ethereum's replies (rpc/json.go's jsonError), encoded
// as that server encodes it.
type gethError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// appendErrorReply appends to b the reply go-ethereum's server writes for a call with id whose
// method returned err, with its newline: the error's code and data as rpc.Error and
// rpc.DataError give them, -32000 without a code. Like go-ethereum's errorMessage it asks err
// itself, not the errors it wraps, so a wrapped error keeps -32000 there and here.
func appendErrorReply(b, id []byte, err error) []byte {
	e := gethError{Code: -32000, Message: err.Error()}
	if ec, ok := err.(rpc.Error); ok { //nolint:errorlint // go-ethereum's own test, see above
		e.Code = ec.ErrorCode()
	}
	if de, ok := err.(rpc.DataError); ok { //nolint:errorlint // as above
		e.Data = de.ErrorData()
	}
	enc, mErr := json.Marshal(e)
	if mErr != nil {
		// Data that does not encode (none of this package's errors has such data): serveCall
		// declines, and go-ethereum's server answers as it does.
		panic(mErr)
	}
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":`...)
	b = append(b, enc...)
	return append(b, "}\n"...)
}

// headerJSON is go-ethereum's reply content type, shared by every reply of writeReply.
var headerJSON = []string{"application/json"}

// writeTimedOut answers a call that ran out of time, as go-ethereum's server does (-32002
// "request timed out", flushed at once) with the newline of newlineHandler.
func writeTimedOut(w http.ResponseWriter, id []byte) {
	b := append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), `,"error":{"code":-32002,"message":"request timed out"}}`+"\n"...)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Transfer-Encoding", "identity")
	_, _ = w.Write(b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// decodeCallArgs decodes b, eth_call's first param, into args as encoding/json does for
// go-ethereum's server. An object whose members are all strings under plain keys that are the
// names callArgs gives them (to, data, gas, …; not accessList) is read here: each member's
// value goes to its type's UnmarshalJSON, raw, as encoding/json hands it, the last of a name
// winning as there. Anything else (other names or cases, which encoding/json matches without
// regard to case, null, numbers, nested values) goes to json.Unmarshal. The envelope scan
// has already checked that b is valid JSON.
func decodeCallArgs(b []byte, args *callArgs) error {
	if plainCallArgs(b, args) {
		return nil
	}
	*args = callArgs{}
	return json.Unmarshal(b, args)
}

// plainCallArgs is decodeCallArgs' own reading; false leaves args to be reset.
func plainCallArgs(b []byte, args *callArgs) bool {
	return jsonrpc.Members(b, func(key, val []byte) bool {
		// encoding/json hands a string to UnmarshalJSON raw, escapes and all, as here; null it
		// does not hand on.
		return val[0] == '"' && setCallArg(args, key, val) == nil
	})
}

// setCallArg sets args' member named key (its JSON name, exactly) from val, a JSON string
// with its quotes. An error means a value encoding/json would refuse too, or a name left to it.
func setCallArg(args *callArgs, key, val []byte) error {
	switch string(key) {
	case "from":
		args.From = new(common.Address)
		return args.From.UnmarshalJSON(val)
	case "to":
		args.To = new(common.Address)
		return args.To.UnmarshalJSON(val)
	case "gas":
		args.Gas = new(hexutil.Uint64)
		return args.Gas.UnmarshalJSON(val)
	case "gasPrice":
		args.GasPrice = new(hexutil.Big)
		return args.GasPrice.UnmarshalJSON(val)
	case "maxFeePerGas":
		args.MaxFeePerGas = new(hexutil.Big)
		return args.MaxFeePerGas.UnmarshalJSON(val)
	case "maxPriorityFeePerGas":
		args.MaxPriorityFeePerGas = new(hexutil.Big)
		return args.MaxPriorityFeePerGas.UnmarshalJSON(val)
	case "value":
		args.Value = new(hexutil.Big)
		return args.Value.UnmarshalJSON(val)
	case "nonce":
		args.Nonce = new(hexutil.Uint64)
		return args.Nonce.UnmarshalJSON(val)
	case "data":
		args.Data = new(hexutil.Bytes)
		return args.Data.UnmarshalJSON(val)
	case "input":
		args.Input = new(hexutil.Bytes)
		return args.Input.UnmarshalJSON(val)
	case "chainId":
		args.ChainID = new(hexutil.Big)
		return args.ChainID.UnmarshalJSON(val)
	}
	return errNotPlain
}

// errNotPlain: a member plainCallArgs leaves to encoding/json.
var errNotPlain = errors.New("not a plain member")

// decodeBlockParam decodes b, eth_call's block param, into *bnh as encoding/json does: null
// is no block, anything else goes to blockNumberOrHash's UnmarshalJSON, raw.
func decodeBlockParam(b []byte, bnh **blockNumberOrHash) error {
	var tag rpc.BlockNumber
	switch string(b) {
	case "null":
		*bnh = nil
		return nil
	// A tag, nearly every call's, is read here: go-ethereum's reading tries it as an object
	// with encoding/json, then as a string, each a few allocations.
	case `"latest"`:
		tag = rpc.LatestBlockNumber
	case `"pending"`:
		tag = rpc.PendingBlockNumber
	case `"earliest"`:
		tag = rpc.EarliestBlockNumber
	case `"safe"`:
		tag = rpc.SafeBlockNumber
	case `"finalized"`, `"accepted"`: // accepted: withAcceptedAlias
		tag = rpc.FinalizedBlockNumber
	default:
		*bnh = new(blockNumberOrHash)
		return (*bnh).UnmarshalJSON(b)
	}
	*bnh = &blockNumberOrHash{rpc.BlockNumberOrHashWithNumber(tag)}
	return nil
}
