package evm

import (
	"context"
	"encoding/json"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	gethvm "github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/eth/tracers"
	"github.com/ethereum/go-ethereum/eth/tracers/logger"
	"github.com/ethereum/go-ethereum/rpc"

	// go-ethereum v1.17.10's native tracers (callTracer, prestateTracer
	// and the others) have no exported constructors: each registers itself
	// in tracers.DefaultDirectory from an init function, so importing the
	// package is the only way to have them. JavaScript tracers
	// (eth/tracers/js) are not linked.
	_ "github.com/ethereum/go-ethereum/eth/tracers/native"
)

// defaultTraceTimeout bounds one transaction's trace unless the config's
// "timeout" says otherwise (go-ethereum's default).
const defaultTraceTimeout = 5 * time.Second

// noRefundHookedState is noRefundState over a state whose changes the
// tracer hooks see (go-ethereum's hooked StateDB): traces re-execute with
// the chain's rules.
type noRefundHookedState struct{ gethvm.StateDB }

func (noRefundHookedState) GetRefund() uint64 { return 0 }

// traceConfig is the config of the debug_trace* methods, with
// go-ethereum's names: no "tracer" means the struct logger, configured by
// the embedded logger.Config fields (enableMemory, disableStack,
// disableStorage, enableReturnData, limit); "tracer" names a native tracer
// with its "tracerConfig"; "timeout" is a Go duration.
type traceConfig struct {
	*logger.Config
	Tracer       *string         `json:"tracer"`
	Timeout      *string         `json:"timeout"`
	TracerConfig json.RawMessage `json:"tracerConfig"`
}

// traceCallConfig is debug_traceCall's config: traceConfig, the call's
// overrides, and txIndex, to run on the state before that transaction of
// the named block rather than after the block.
type traceCallConfig struct {
	traceConfig
	StateOverrides *stateOverride  `json:"stateOverrides"`
	BlockOverrides *blockOverrides `json:"blockOverrides"`
	TxIndex        *hexutil.Uint   `json:"txIndex"`
}

// txTraceResult is one transaction's trace in a block trace.
type txTraceResult struct {
	TxHash common.Hash `json:"txHash"`
	Result any         `json:"result,omitempty"`
	Error  string      `json:"error,omitempty"`
}

// newTracer makes the tracer cfg asks for, and the timeout of its run.
func (vm *VM) newTracer(cfg *traceConfig, tctx *tracers.Context) (*tracers.Tracer, time.Duration, error) {
	if cfg == nil {
		cfg = &traceConfig{}
	}
	timeout := defaultTraceTimeout
	if cfg.Timeout != nil {
		d, err := time.ParseDuration(*cfg.Timeout)
		if err != nil {
			return nil, 0, err
		}
		timeout = d
	}
	if cfg.Tracer == nil {
		l := logger.NewStructLogger(cfg.Config)
		return &tracers.Tracer{Hooks: l.Hooks(), GetResult: l.GetResult, Stop: l.Stop}, timeout, nil
	}
	// Without eth/tracers/js, an unknown name would reach a nil JavaScript
	// evaluator: only registered native tracers are accepted.
	if tracers.DefaultDirectory.IsJS(*cfg.Tracer) {
		return nil, 0, unknownTracerError(*cfg.Tracer)
	}
	t, err := tracers.DefaultDirectory.New(*cfg.Tracer, tctx, cfg.TracerConfig, vm.chainCfg)
	if err != nil {
		return nil, 0, err
	}
	return t, timeout, nil
}

// watch stops evm, and tells the tracer why, when the trace times out or
// ctx ends; the returned func releases the watch.
func (vm *VM) watch(ctx context.Context, evm *gethvm.EVM, tracer *tracers.Tracer, timeout time.Duration) func() {
	timer := vm.clock.AfterFunc(timeout, func() {
		tracer.Stop(errTraceTimeout)
		evm.Cancel()
	})
	stop := context.AfterFunc(ctx, evm.Cancel)
	return func() {
		timer.Stop()
		stop()
	}
}

// debugAPI is the debug namespace: go-ethereum's tracing methods, which
// re-execute with this chain's rules (no refunds, the whole fee to the
// coinbase).
type debugAPI struct{ vm *VM }

// TraceTransaction is debug_traceTransaction: the trace of an accepted
// transaction, re-executed on the state its block left before it.
func (a *debugAPI) TraceTransaction(ctx context.Context, hash common.Hash, cfg *traceConfig) (any, error) {
	tx, blk, index := a.vm.canonicalTx(hash)
	if tx == nil {
		return nil, errTxNotFound
	}
	res, err := a.vm.traceBlock(ctx, blk, int(index), cfg)
	if err != nil {
		return nil, err
	}
	return res[0].Result, nil
}

// TraceBlockByNumber is debug_traceBlockByNumber: the trace of each
// transaction of an accepted block.
func (a *debugAPI) TraceBlockByNumber(ctx context.Context, n blockNumber, cfg *traceConfig) ([]*txTraceResult, error) {
	blk, err := a.vm.blockByTag(rpc.BlockNumber(n))
	if err != nil {
		return nil, err
	}
	if blk == nil {
		return nil, errUnfinalized
	}
	return a.vm.traceBlock(ctx, blk, -1, cfg)
}

// TraceBlockByHash is debug_traceBlockByHash.
func (a *debugAPI) TraceBlockByHash(ctx context.Context, h common.Hash, cfg *traceConfig) ([]*txTraceResult, error) {
	blk := a.vm.blockByHash(h)
	if blk == nil {
		return nil, errHashNotFound
	}
	return a.vm.traceBlock(ctx, blk, -1, cfg)
}

// TraceCall is debug_traceCall: the trace of eth_call's run of args on the
// state after the named block (latest by default), or before its
// transaction txIndex, with the overrides if any.
func (a *debugAPI) TraceCall(ctx context.Context, args callArgs, bnh *blockNumberOrHash, cfg *traceCallConfig) (any, error) {
	if cfg == nil {
		cfg = &traceCallConfig{}
	}
	env, err := a.vm.traceCallEnv(ctx, bnh.orLatest(), cfg)
	if err != nil {
		return nil, err
	}
	msg, err := args.toMessage(a.vm.cfg.RPCGasCap, env.bctx.BaseFee)
	if err != nil {
		return nil, err
	}
	tracer, timeout, err := a.vm.newTracer(&cfg.traceConfig, &tracers.Context{})
	if err != nil {
		return nil, err
	}
	evm, rt := a.vm.newCallEVM(env, msg, tracer.Hooks)
	defer a.vm.watch(ctx, evm, tracer, timeout)()
	tx := args.toTransaction(a.vm.chainCfg.ChainID, env.state.GetNonce(msg.From), msg)
	env.state.SetTxContext(tx.Hash(), 0, 0)
	if tracer.OnTxStart != nil {
		tracer.OnTxStart(evm.GetVMContext(), tx, msg.From)
	}
	res, err := core.ApplyMessage(evm, msg, core.NewGasPool(math64Max))
	if err == nil && rt != nil {
		res.Err = rt.ExecutionError(res.Err)
	}
	if tracer.OnTxEnd != nil {
		var receipt *types.Receipt
		if err == nil {
			receipt = core.MakeReceipt(evm, res, env.state, env.bctx.BlockNumber, common.Hash{}, env.bctx.Time, tx, res.UsedGas, nil)
		}
		tracer.OnTxEnd(receipt, err)
	}
	if err != nil {
		return nil, tracingFailedError(err)
	}
	return tracer.GetResult()
}

// traceCallEnv is debug_traceCall's environment: newCallEnv's, or with
// txIndex the state before that transaction of the block, in the block's
// own context.
func (vm *VM) traceCallEnv(ctx context.Context, bnh rpc.BlockNumberOrHash, cfg *traceCallConfig) (*callEnv, error) {
	if cfg.TxIndex == nil {
		return vm.newCallEnv(bnh, cfg.StateOverrides, cfg.BlockOverrides)
	}
	blk, err := vm.resolve(bnh)
	if err != nil {
		return nil, err
	}
	idx := int(*cfg.TxIndex)
	if blk.NumberU64() == 0 || idx >= len(blk.Transactions()) {
		return nil, txIndexError(idx, blk.Hash())
	}
	e, err := vm.replay(ctx, blk, idx)
	if err != nil {
		return nil, err
	}
	bctx := e.evm.Context
	if err := cfg.BlockOverrides.apply(vm, &bctx); err != nil {
		return nil, err
	}
	env := &callEnv{state: e.state, bctx: bctx}
	if cfg.StateOverrides != nil {
		env.precompiles = vm.standardPrecompiles(bctx)
		if err := cfg.StateOverrides.apply(e.state, env.precompiles); err != nil {
			return nil, err
		}
	}
	return env, nil
}

// replay returns an executor on blk's parent state that has applied blk's
// first n transactions.
func (vm *VM) replay(ctx context.Context, blk *types.Block, n int) (*executor, error) {
	parent := vm.blockByHash(blk.ParentHash())
	if parent == nil {
		return nil, errHashNotFound
	}
	e, err := vm.newExecutor(parent.Header(), types.CopyHeader(blk.Header()))
	if err != nil {
		return nil, err
	}
	for _, tx := range blk.Transactions()[:n] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := e.apply(tx); err != nil {
			return nil, replayError(blk.Hash(), tx.Hash(), err)
		}
	}
	return e, nil
}

// traceBlock re-executes blk on its parent's state and traces its
// transactions: every one, or with only ≥ 0 that one alone.
func (vm *VM) traceBlock(ctx context.Context, blk *types.Block, only int, cfg *traceConfig) ([]*txTraceResult, error) {
	if blk.NumberU64() == 0 {
		return nil, errGenesisNotTraceable
	}
	first := 0
	if only >= 0 {
		first = only
	}
	e, err := vm.replay(ctx, blk, first)
	if err != nil {
		return nil, err
	}
	plain, plainRT := e.evm, e.rt
	txs := blk.Transactions()
	var results []*txTraceResult
	for i := first; i < len(txs); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tctx := &tracers.Context{BlockHash: blk.Hash(), BlockNumber: blk.Number(), TxIndex: i, TxHash: txs[i].Hash()}
		res, err := vm.traceTx(ctx, e, txs[i], tctx, cfg)
		e.evm, e.rt = plain, plainRT
		if err != nil {
			return nil, err
		}
		results = append(results, &txTraceResult{TxHash: txs[i].Hash(), Result: res})
		if only >= 0 {
			break
		}
	}
	if results == nil {
		results = []*txTraceResult{}
	}
	return results, nil
}

// traceTx applies tx through e with a tracer and returns the trace. e's EVM
// (and its precompile runtime) is replaced by a traced one; the caller
// restores it.
func (vm *VM) traceTx(ctx context.Context, e *executor, tx *types.Transaction, tctx *tracers.Context, cfg *traceConfig) (json.RawMessage, error) {
	tracer, timeout, err := vm.newTracer(cfg, tctx)
	if err != nil {
		return nil, err
	}
	evm, rt := vm.newEVM(e.evm.Context, noRefundHookedState{state.NewHookedState(e.state, tracer.Hooks)}, gethvm.Config{Tracer: tracer.Hooks}, nil)
	e.evm, e.rt = evm, rt
	defer vm.watch(ctx, evm, tracer, timeout)()
	from, err := types.Sender(vm.signer, tx)
	if err != nil {
		return nil, tracingFailedError(err)
	}
	if tracer.OnTxStart != nil {
		tracer.OnTxStart(evm.GetVMContext(), tx, from)
	}
	err = e.apply(tx)
	if tracer.OnTxEnd != nil {
		var receipt *types.Receipt
		if err == nil {
			receipt = e.receipts[len(e.receipts)-1]
		}
		tracer.OnTxEnd(receipt, err)
	}
	if err != nil {
		return nil, tracingFailedError(err)
	}
	return tracer.GetResult()
}
