package evm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"runtime/debug"

	"github.com/cornice-node/cornice/jsonrpc"
)

// serveFront is the jsonrpc.Front of the chain's /rpc: eth_call goes to serveCall, the
// developer methods a test suite calls between its tests to serveDev; everything else, and
// whatever they decline, to go-ethereum's server.
func (vm *VM) serveFront(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) bool {
	if _, dev := devMethods[string(c.Method)]; dev && vm.dev != nil {
		return vm.serveDev(w, r, c)
	}
	return vm.serveCall(w, r, c)
}

// serveDev answers the developer methods that a test suite calls between its tests
// (evm_snapshot and evm_revert around each test, evm_mine, anvil_mine and the time methods)
// without go-ethereum's rpc server, whose reflective parsing, goroutine per call and
// telemetry cost about as much as the method itself (docs/benchmarks.md, "anvil and cornice
// side by side"). It runs the same methods of devapi.go with arguments decoded as that
// server decodes them (each param with encoding/json into the method's argument type; a
// missing trailing argument is nil when it is a pointer) and writes the bytes that server
// writes, results and errors alike (TestServeDevAsGeth), a panic too (runDev). Params that
// server would refuse (too many, a required one missing, one that does not decode) and a
// request that is not plain (as serveCall takes it) are declined before anything is written,
// and go-ethereum's server answers with its own text.
func (vm *VM) serveDev(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) (answered bool) {
	if !vm.plainRequest(r, c) {
		return false
	}
	var params [][]byte
	if c.Params != nil {
		var ok bool
		if params, ok = c.Args(make([][]byte, 0, 2)); !ok {
			return false
		}
	}
	// go-ethereum's server gives up on a call a little before the HTTP server's write timeout,
	// as serveCall does; the call itself goes on (a revert or a mining request once queued is
	// run), as there.
	ctx, cancel := context.WithoutCancel(r.Context()), context.CancelFunc(func() {})
	if deadline := replyDeadline(r); !deadline.IsZero() {
		ctx, cancel = context.WithDeadline(ctx, deadline)
	}
	defer cancel()
	res, err, ok := vm.runDev(ctx, string(c.Method), params)
	if !ok {
		return false
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		writeTimedOut(w, c.ID)
		return true
	}
	var b []byte
	if err != nil {
		b = appendErrorReply(make([]byte, 0, 128+len(c.ID)), c.ID, err)
	} else {
		enc, mErr := json.Marshal(res)
		if mErr != nil {
			// None of these methods' results fails to encode; were one to, go-ethereum's server
			// would answer it after running the method again, so fail loudly instead.
			panic(mErr)
		}
		b = make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(c.ID)+len(enc)+1)
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		b = append(b, c.ID...)
		b = append(b, `,"result":`...)
		b = append(b, enc...)
		b = append(b, "}\n"...)
	}
	writeReply(w, b)
	return true
}

// devMethod runs one developer method with params as go-ethereum's server would, and returns
// its result (nil for a method without one, which that server encodes as null) and error; ok is
// false when that server would refuse the params before running it.
type devMethod func(vm *VM, ctx context.Context, params [][]byte) (res any, err error, ok bool)

// devMethods are the methods serveDev answers, by every name anvil and Hardhat give them; any
// other method goes to go-ethereum's server.
var devMethods = func() map[string]devMethod {
	snapshot := func(vm *VM, ctx context.Context, params [][]byte) (any, error, bool) {
		if len(params) != 0 {
			return nil, nil, false
		}
		res, err := (&timeAPI{vm: vm}).Snapshot(ctx)
		return res, err, true
	}
	revert := func(vm *VM, ctx context.Context, params [][]byte) (any, error, bool) {
		var id devNum
		if len(params) != 1 || !devArg(params[0], &id) {
			return nil, nil, false
		}
		res, err := (&timeAPI{vm: vm}).Revert(ctx, id)
		return res, err, true
	}
	evmMine := func(vm *VM, ctx context.Context, params [][]byte) (any, error, bool) {
		var opts *json.RawMessage
		if len(params) > 1 || len(params) == 1 && !devArg(params[0], &opts) {
			return nil, nil, false
		}
		res, err := (&evmMineAPI{vm: vm}).Mine(ctx, opts)
		return res, err, true
	}
	mine := func(vm *VM, ctx context.Context, params [][]byte) (any, error, bool) {
		var n, interval *devNum
		if len(params) > 2 || len(params) > 0 && !devArg(params[0], &n) || len(params) > 1 && !devArg(params[1], &interval) {
			return nil, nil, false
		}
		return nil, (&hardhatAPI{vm: vm}).Mine(ctx, n, interval), true
	}
	increaseTime := func(vm *VM, _ context.Context, params [][]byte) (any, error, bool) {
		var secs devNum
		if len(params) != 1 || !devArg(params[0], &secs) {
			return nil, nil, false
		}
		res, err := (&timeAPI{vm: vm}).IncreaseTime(secs)
		return res, err, true
	}
	setNextTimestamp := func(vm *VM, _ context.Context, params [][]byte) (any, error, bool) {
		var ts devNum
		if len(params) != 1 || !devArg(params[0], &ts) {
			return nil, nil, false
		}
		return nil, (&timeAPI{vm: vm}).SetNextBlockTimestamp(ts), true
	}
	return map[string]devMethod{
		"evm_snapshot": snapshot, "anvil_snapshot": snapshot,
		"evm_revert": revert, "anvil_revert": revert,
		"evm_mine":   evmMine,
		"anvil_mine": mine, "hardhat_mine": mine,
		"evm_increaseTime": increaseTime, "anvil_increaseTime": increaseTime,
		"evm_setNextBlockTimestamp": setNextTimestamp, "anvil_setNextBlockTimestamp": setNextTimestamp,
	}
}()

// runDev runs the developer method named method (one of devMethods) as devMethod says; a panic
// is answered as go-ethereum's server answers it.
func (vm *VM) runDev(ctx context.Context, method string, params [][]byte) (res any, err error, ok bool) {
	// A panic is answered and logged as go-ethereum's server answers and logs it; declining
	// would run the method a second time.
	defer func() {
		if p := recover(); p != nil {
			vm.log.Error("developer method crashed", "method", method, "panic", p, "stack", string(debug.Stack()))
			res, err, ok = nil, errHandlerCrashed, true
		}
	}()
	run, known := devMethods[method]
	if !known {
		return nil, nil, false
	}
	if res, err, ok = run(vm, ctx, params); ok && err != nil {
		res = nil
	}
	return res, err, ok
}

// devArg decodes raw, one param, into *v as go-ethereum's server decodes a method's argument:
// with encoding/json. A required argument (not a pointer) given as null would reach the
// method's UnmarshalJSON, which refuses it (devNum's does).
func devArg[T any](raw []byte, v *T) bool {
	return json.Unmarshal(raw, v) == nil
}
