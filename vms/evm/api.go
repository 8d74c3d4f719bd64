package evm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	gethvm "github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// RPC server limits (issue #4 §3, issue #11 §6).
const (
	rpcBatchItems = 1000
	// DefaultBatchResponseMaxSize is Config.BatchResponseMaxSize's default, in bytes: the node's
	// (jsonrpc.DefaultBatchResponse), which is go-ethereum's.
	DefaultBatchResponseMaxSize = jsonrpc.DefaultBatchResponse
	// Suggested tips: the percentile of the effective tips of the last
	// tipBlocks blocks, defaultTip without any, at most maxTip.
	tipBlocks     = 20
	tipPercentile = 60
)

var (
	defaultTip = big.NewInt(params.GWei)
	maxTip     = big.NewInt(500 * params.GWei)
)

// newRPCServer registers the chain's JSON-RPC services on a go-ethereum rpc
// server, and the filter system the filter methods use. Every exported
// method of a service is an RPC method (STYLE.md rule 20), so the services
// carry endpoints only; several services share the eth namespace. An L1
// has the extras of l1API there too, the C-Chain those of cChainAPI.
func (vm *VM) newRPCServer() (*rpc.Server, error) {
	vm.feeds.filters = newFilterSystem(vm.clock, filterTimeout)
	srv := rpc.NewServer()
	// go-ethereum's 0 means no cap, which Config spells negative.
	batchResponse := vm.cfg.BatchResponseMaxSize
	switch {
	case batchResponse == 0:
		batchResponse = DefaultBatchResponseMaxSize
	case batchResponse < 0:
		batchResponse = 0
	}
	srv.SetBatchLimits(rpcBatchItems, batchResponse)
	type service struct {
		name string
		svc  any
	}
	services := []service{
		{"eth", &ethAPI{vm: vm}},
		{"eth", &filterAPI{vm: vm}},
		{"eth", syncAPI{}},
		{"net", &netAPI{vm: vm}},
		{"web3", &web3API{vm: vm}},
		{"txpool", &txpoolAPI{vm: vm}},
		{"debug", &debugAPI{vm: vm}},
	}
	if vm.l1 != nil {
		services = append(services, service{"eth", &l1API{vm: vm}}, service{"warp", &warpAPI{vm: vm}})
	} else {
		services = append(services, service{"eth", &cChainAPI{vm: vm}})
	}
	if vm.dev != nil {
		for _, s := range vm.devServices() {
			services = append(services, service{s.name, s.svc})
		}
	}
	for _, s := range services {
		if err := srv.RegisterName(s.name, s.svc); err != nil {
			return nil, fmt.Errorf("register %s API: %w", s.name, err)
		}
	}
	return srv, nil
}

// rpcHandler is the chain's HTTP JSON-RPC handler: the rpc server, each
// reply ending in a newline (newlineHandler), behind the node's heavy-call
// bound (jsonrpc.Gate), which batches and the calls isHeavyRPC names wait
// for, with eth_call's common form and the developer methods of a test
// suite's loop answered in front of it (serveFront).
func (vm *VM) rpcHandler() http.Handler {
	return jsonrpc.Gate(newlineHandler(vm.rpc), isHeavyRPC, vm.serveFront)
}

// isHeavyRPC reports whether a method's reply may run to megabytes: log
// queries, whole blocks' receipts, and traces.
func isHeavyRPC(method []byte) bool {
	switch string(method) {
	case "eth_getLogs", "eth_getFilterLogs", "eth_getFilterChanges", "eth_getBlockReceipts":
		return true
	}
	return bytes.HasPrefix(method, []byte("debug_trace"))
}

// web3API is the web3 namespace.
type web3API struct{ vm *VM }

// ClientVersion is web3_clientVersion: the node's version string,
// cornice/<version> (DESIGN.md decision 6), as info.getNodeVersion's.
func (a *web3API) ClientVersion() string { return config.Current() }

// Sha3 is web3_sha3: the Keccak-256 of input.
func (a *web3API) Sha3(input hexutil.Bytes) hexutil.Bytes { return crypto.Keccak256(input) }

// netAPI is the net namespace.
type netAPI struct{ vm *VM }

// Version is net_version: the chain ID in decimal, as go-ethereum-based
// Avalanche chains answer.
func (a *netAPI) Version() string { return a.vm.chainCfg.ChainID.String() }

// Listening is net_listening.
func (a *netAPI) Listening() bool { return true }

// PeerCount is net_peerCount: one validator, no peers yet.
func (a *netAPI) PeerCount() hexutil.Uint { return 0 }

// ethAPI is the eth namespace.
type ethAPI struct{ vm *VM }

// ChainId is eth_chainId.
func (a *ethAPI) ChainId() *hexutil.Big { return (*hexutil.Big)(a.vm.ChainID()) }

// BlockNumber is eth_blockNumber: the last accepted block's.
func (a *ethAPI) BlockNumber() hexutil.Uint64 { return hexutil.Uint64(a.vm.currentHead().NumberU64()) }

// Syncing is eth_syncing: a node with one validator is never syncing.
func (a *ethAPI) Syncing() bool { return false }

// Accounts is eth_accounts: the node holds no keys.
func (a *ethAPI) Accounts() []common.Address { return []common.Address{} }

// stateOf returns the state after the block bnh names.
func (vm *VM) stateOf(bnh rpc.BlockNumberOrHash) (*state.StateDB, *types.Block, error) {
	blk, err := vm.resolve(bnh)
	if err != nil {
		return nil, nil, err
	}
	st, err := vm.stateOfBlock(blk)
	if err != nil {
		return nil, nil, err
	}
	return st, blk, nil
}

// GetBalance is eth_getBalance.
func (a *ethAPI) GetBalance(_ context.Context, addr common.Address, bnh blockNumberOrHash) (*hexutil.Big, error) {
	st, _, err := a.vm.stateOf(bnh.BlockNumberOrHash)
	if err != nil {
		return nil, err
	}
	return (*hexutil.Big)(st.GetBalance(addr).ToBig()), nil
}

// GetTransactionCount is eth_getTransactionCount; with "pending" it counts
// the sender's consecutive pooled transactions too.
func (a *ethAPI) GetTransactionCount(_ context.Context, addr common.Address, bnh blockNumberOrHash) (*hexutil.Uint64, error) {
	st, _, err := a.vm.stateOf(bnh.BlockNumberOrHash)
	if err != nil {
		return nil, err
	}
	n := st.GetNonce(addr)
	if num, ok := bnh.Number(); ok && num == rpc.PendingBlockNumber {
		n += uint64(len(a.vm.pool.executable(func(common.Address) uint64 { return n })[addr]))
	}
	return (*hexutil.Uint64)(&n), nil
}

// GetCode is eth_getCode.
func (a *ethAPI) GetCode(_ context.Context, addr common.Address, bnh blockNumberOrHash) (hexutil.Bytes, error) {
	st, _, err := a.vm.stateOf(bnh.BlockNumberOrHash)
	if err != nil {
		return nil, err
	}
	return st.GetCode(addr), nil
}

// GetStorageAt is eth_getStorageAt.
func (a *ethAPI) GetStorageAt(_ context.Context, addr common.Address, slot string, bnh blockNumberOrHash) (hexutil.Bytes, error) {
	key, err := decodeSlot(slot)
	if err != nil {
		return nil, fmt.Errorf("unable to decode storage key: %w", err)
	}
	st, _, err := a.vm.stateOf(bnh.BlockNumberOrHash)
	if err != nil {
		return nil, err
	}
	v := st.GetState(addr, key)
	return v[:], nil
}

// decodeSlot decodes a storage slot of at most 32 bytes, hex, with or
// without 0x and leading zeros, as go-ethereum does.
func decodeSlot(s string) (common.Hash, error) {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if len(s)%2 == 1 {
		s = "0" + s
	}
	b, err := hexutil.Decode("0x" + s)
	if err != nil && s != "" {
		return common.Hash{}, err
	}
	if len(b) > 32 {
		return common.Hash{}, errors.New("hex string too long, want at most 32 bytes")
	}
	return common.BytesToHash(b), nil
}

// SendRawTransaction is eth_sendRawTransaction.
func (a *ethAPI) SendRawTransaction(_ context.Context, input hexutil.Bytes) (common.Hash, error) {
	tx, err := decodeRawTx(input)
	if err != nil {
		return common.Hash{}, err
	}
	if err := a.vm.sendAndLog(tx); err != nil {
		return common.Hash{}, err
	}
	return tx.Hash(), nil
}

// decodeRawTx decodes the transaction of eth_sendRawTransaction and its Sync form and refuses
// one without replay protection (pre-EIP-155), as the reference does over RPC, unless it is a
// keyless deployment: a contract creation at nonce 0, the form of every "Nick's method"
// deployment (Teleporter's, the deterministic deployment proxy's). Replaying such a
// transaction can only deploy the same code at the same address from an account that has sent
// nothing on that chain, which is what it is published for; any other unprotected
// transaction, a transfer or a call, could be replayed from another chain against its
// sender's will (docs/decisions.md).
func decodeRawTx(input []byte) (*types.Transaction, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(input); err != nil {
		return nil, err
	}
	if !tx.Protected() && (tx.To() != nil || tx.Nonce() != 0) {
		return nil, errUnprotectedTx
	}
	return tx, nil
}

// GetBlockByNumber is eth_getBlockByNumber; null past the last accepted
// block.
func (a *ethAPI) GetBlockByNumber(_ context.Context, n blockNumber, fullTx bool) (map[string]any, error) {
	blk, err := a.vm.blockByTag(rpc.BlockNumber(n))
	if err != nil || blk == nil {
		return nil, err
	}
	return a.vm.marshalBlock(blk, fullTx)
}

// GetBlockByHash is eth_getBlockByHash; null for an unknown hash.
func (a *ethAPI) GetBlockByHash(_ context.Context, h common.Hash, fullTx bool) (map[string]any, error) {
	blk := a.vm.blockByHash(h)
	if blk == nil {
		return nil, nil
	}
	return a.vm.marshalBlock(blk, fullTx)
}

// GetHeaderByNumber is eth_getHeaderByNumber.
func (a *ethAPI) GetHeaderByNumber(_ context.Context, n blockNumber) (map[string]any, error) {
	blk, err := a.vm.blockByTag(rpc.BlockNumber(n))
	if err != nil || blk == nil {
		return nil, err
	}
	return a.vm.marshalHeader(blk.Header())
}

// GetHeaderByHash is eth_getHeaderByHash.
func (a *ethAPI) GetHeaderByHash(_ context.Context, h common.Hash) (map[string]any, error) {
	blk := a.vm.blockByHash(h)
	if blk == nil {
		return nil, nil
	}
	return a.vm.marshalHeader(blk.Header())
}

// GetBlockTransactionCountByNumber is eth_getBlockTransactionCountByNumber.
func (a *ethAPI) GetBlockTransactionCountByNumber(_ context.Context, n blockNumber) (*hexutil.Uint, error) {
	blk, err := a.vm.blockByTag(rpc.BlockNumber(n))
	if err != nil || blk == nil {
		return nil, err
	}
	c := hexutil.Uint(len(blk.Transactions()))
	return &c, nil
}

// GetBlockTransactionCountByHash is eth_getBlockTransactionCountByHash.
func (a *ethAPI) GetBlockTransactionCountByHash(_ context.Context, h common.Hash) *hexutil.Uint {
	blk := a.vm.blockByHash(h)
	if blk == nil {
		return nil
	}
	c := hexutil.Uint(len(blk.Transactions()))
	return &c
}

// GetTransactionByHash is eth_getTransactionByHash: an accepted or a
// pooled transaction, null if neither.
func (a *ethAPI) GetTransactionByHash(_ context.Context, h common.Hash) (map[string]any, error) {
	if tx, blk, index := a.vm.canonicalTx(h); tx != nil {
		return a.vm.marshalTx(tx, blk, index)
	}
	if ptx := a.vm.pool.get(h); ptx != nil {
		return a.vm.marshalTx(ptx.tx, nil, 0)
	}
	return nil, nil
}

// GetTransactionByBlockNumberAndIndex is
// eth_getTransactionByBlockNumberAndIndex.
func (a *ethAPI) GetTransactionByBlockNumberAndIndex(_ context.Context, n blockNumber, index hexutil.Uint) (map[string]any, error) {
	blk, err := a.vm.blockByTag(rpc.BlockNumber(n))
	if err != nil || blk == nil || int(index) >= len(blk.Transactions()) {
		return nil, err
	}
	return a.vm.marshalTx(blk.Transactions()[index], blk, uint64(index))
}

// GetTransactionByBlockHashAndIndex is eth_getTransactionByBlockHashAndIndex.
func (a *ethAPI) GetTransactionByBlockHashAndIndex(_ context.Context, h common.Hash, index hexutil.Uint) (map[string]any, error) {
	blk := a.vm.blockByHash(h)
	if blk == nil || int(index) >= len(blk.Transactions()) {
		return nil, nil
	}
	return a.vm.marshalTx(blk.Transactions()[index], blk, uint64(index))
}

// GetTransactionReceipt is eth_getTransactionReceipt; null until the
// transaction is accepted.
func (a *ethAPI) GetTransactionReceipt(_ context.Context, h common.Hash) (map[string]any, error) {
	c, release := a.vm.pinChain()
	defer release()
	tx, blk, index := c.canonicalTx(h)
	if tx == nil {
		return nil, nil
	}
	receipts := c.receipts(blk)
	if int(index) >= len(receipts) {
		return nil, fmt.Errorf("receipt %d of block %s missing", index, blk.Hash())
	}
	return a.vm.marshalReceipt(blk, receipts[index], int(index)), nil
}

// GetBlockReceipts is eth_getBlockReceipts.
func (a *ethAPI) GetBlockReceipts(_ context.Context, bnh blockNumberOrHash) ([]map[string]any, error) {
	c, release := a.vm.pinChain()
	defer release()
	blk, err := c.resolve(bnh.BlockNumberOrHash)
	if err != nil {
		return nil, nil //nolint:nilerr // go-ethereum answers null for an unknown block
	}
	receipts := c.receipts(blk)
	out := make([]map[string]any, len(receipts))
	for i, r := range receipts {
		out[i] = a.vm.marshalReceipt(blk, r, i)
	}
	return out, nil
}

// GasPrice is eth_gasPrice: the suggested tip plus the next block's base
// fee.
func (a *ethAPI) GasPrice(context.Context) (*hexutil.Big, error) {
	head := a.vm.currentHead()
	p := new(big.Int).Add(a.vm.suggestTip(head), a.vm.nextBaseFee(head))
	return (*hexutil.Big)(p), nil
}

// MaxPriorityFeePerGas is eth_maxPriorityFeePerGas.
func (a *ethAPI) MaxPriorityFeePerGas(context.Context) (*hexutil.Big, error) {
	return (*hexutil.Big)(a.vm.suggestTip(a.vm.currentHead())), nil
}

// BlobBaseFee is eth_blobBaseFee: the blob gas price after the last
// accepted block. From Cancun every header of these chains carries an
// excess blob gas of 0 (no block holds blobs; the header checks refuse any
// other), so it is EIP-4844's minimum, 1 wei; before Cancun it is null, as
// go-ethereum answers for a header without excess blob gas.
func (a *ethAPI) BlobBaseFee(context.Context) *hexutil.Big {
	if a.vm.currentHeader().ExcessBlobGas == nil {
		return nil
	}
	return (*hexutil.Big)(big.NewInt(params.BlobTxMinBlobGasprice))
}

// suggestTip is the tipPercentile-th percentile of the effective tips paid
// in the last tipBlocks blocks up to head, defaultTip if they hold no
// transaction, capped at maxTip.
func (vm *VM) suggestTip(head *types.Block) *big.Int {
	// One pin for the walk, not one a block. A walk whose head a roll-back has dropped stops
	// at it (blockByHash nil) and suggests from what it has read.
	c, release := vm.pinChain()
	defer release()
	var tips []*big.Int
	for blk, i := head, 0; blk != nil && blk.NumberU64() > 0 && i < tipBlocks; i++ {
		for _, tx := range blk.Transactions() {
			if tip, err := tx.EffectiveGasTip(blk.BaseFee()); err == nil {
				tips = append(tips, tip)
			}
		}
		blk = c.blockByHash(blk.ParentHash())
	}
	if len(tips) == 0 {
		return new(big.Int).Set(defaultTip)
	}
	slices.SortFunc(tips, func(x, y *big.Int) int { return x.Cmp(y) })
	tip := tips[(len(tips)-1)*tipPercentile/100]
	if tip.Cmp(maxTip) > 0 {
		return new(big.Int).Set(maxTip)
	}
	return new(big.Int).Set(tip)
}

// Call is eth_call: args run on the state after the named block (latest by
// default), with the state and block overrides if any; nothing is kept. A
// revert is error code 3 with the revert data.
func (a *ethAPI) Call(ctx context.Context, args callArgs, bnh *blockNumberOrHash, so *stateOverride, bo *blockOverrides) (hexutil.Bytes, error) {
	res, err := a.vm.call(ctx, args, bnh, so, bo)
	if err != nil {
		return nil, err
	}
	return callOutput(res)
}

// callOutput is eth_call's answer for how the call ended: its return data, or the error that
// stopped it (a revert with its data).
func callOutput(res *core.ExecutionResult) (hexutil.Bytes, error) {
	if errors.Is(res.Err, gethvm.ErrExecutionReverted) {
		return nil, newRevertError(res.Revert())
	}
	if res.Err != nil {
		return nil, res.Err
	}
	return res.Return(), nil
}

// call runs args as eth_call and eth_callDetailed do: on the state after
// the named block (latest by default), with the state and block overrides
// if any, under the RPC gas cap; nothing is kept. The error is one from
// before execution (a bad block, bad arguments); how the execution ended is
// in the result.
func (vm *VM) call(ctx context.Context, args callArgs, bnh *blockNumberOrHash, so *stateOverride, bo *blockOverrides) (*core.ExecutionResult, error) {
	env, msg, err := vm.callMsg(args, bnh, so, bo)
	if err != nil {
		return nil, err
	}
	return vm.runMsg(ctx, env, msg, nil)
}

// callMsg is call's environment and message, under the RPC gas cap.
func (vm *VM) callMsg(args callArgs, bnh *blockNumberOrHash, so *stateOverride, bo *blockOverrides) (*callEnv, *core.Message, error) {
	env, err := vm.newCallEnv(bnh.orLatest(), so, bo)
	if err != nil {
		return nil, nil, err
	}
	msg, err := args.toMessage(vm.cfg.RPCGasCap, env.bctx.BaseFee)
	return env, msg, err
}

// EstimateGas is eth_estimateGas: the least gas limit with which args
// succeed, by binary search up to the block gas limit and the gas cap, with
// the state and block overrides if any.
func (a *ethAPI) EstimateGas(ctx context.Context, args callArgs, bnh *blockNumberOrHash, so *stateOverride, bo *blockOverrides) (hexutil.Uint64, error) {
	r, err := a.vm.childRulesOf(a.vm.currentHead())
	if err != nil {
		return 0, err
	}
	hi := min(r.gasLimit, a.vm.cfg.RPCGasCap)
	if args.Gas != nil && uint64(*args.Gas) >= params.TxGas && uint64(*args.Gas) < hi {
		hi = uint64(*args.Gas)
	}
	run := func(gas uint64) (*core.ExecutionResult, error) {
		// Each run needs a fresh state: a call changes it.
		env, err := a.vm.newCallEnv(bnh.orLatest(), so, bo)
		if err != nil {
			return nil, err
		}
		g := hexutil.Uint64(gas)
		args.Gas = &g
		msg, err := args.toMessage(gas, env.bctx.BaseFee)
		if err != nil {
			return nil, err
		}
		return a.vm.runMsg(ctx, env, msg, nil)
	}
	res, err := run(hi)
	if err != nil {
		return 0, err
	}
	if res.Failed() {
		if errors.Is(res.Err, gethvm.ErrExecutionReverted) {
			return 0, newRevertError(res.Revert())
		}
		if errors.Is(res.Err, gethvm.ErrOutOfGas) {
			return 0, fmt.Errorf("%w (supplied gas %d)", errGasCapTooLow, hi)
		}
		return 0, res.Err
	}
	lo := res.UsedGas - 1
	for lo+1 < hi {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		mid := lo + (hi-lo)/2
		r, err := run(mid)
		if err != nil && !errors.Is(err, core.ErrIntrinsicGas) {
			return 0, err
		}
		if err != nil || r.Failed() {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hexutil.Uint64(hi), nil
}

// callEnv is where a call runs: a private copy of a block's state, with the
// state overrides applied, and the block context, with the block overrides
// applied.
type callEnv struct {
	state *state.StateDB
	bctx  gethvm.BlockContext
	// precompiles is the precompile set after the state overrides moved
	// some; nil means the standard set.
	precompiles gethvm.PrecompiledContracts
	// base is the callBase bctx and precompiles come from, unchanged: nil
	// with overrides. Calls on it without a tracer take their EVM from its
	// pools.
	base *callBase
	// states is the head's cache state was opened through (headState), where a call
	// without a tracer puts it back, reverted; nil for another block's state.
	states *stateCache
	// deadline, if not zero, stops a call as the end of its context would, on every path of
	// runMsg (cancelOn): serveCall's way of bounding a call without a context with a timer of
	// its own and a cancel hook on it, each a few allocations.
	deadline time.Time
}

// newCallEnv opens the state after the block bnh names and applies the
// overrides (either may be nil).
func (vm *VM) newCallEnv(bnh rpc.BlockNumberOrHash, so *stateOverride, bo *blockOverrides) (*callEnv, error) {
	if so == nil && bo == nil {
		blk, err := vm.resolve(bnh)
		if err != nil {
			return nil, err
		}
		st, states, err := vm.blockState(blk)
		if err != nil {
			return nil, err
		}
		b := vm.callBaseOf(blk)
		return &callEnv{state: st, bctx: b.bctx, precompiles: b.precompiles, base: b, states: states}, nil
	}
	st, blk, err := vm.stateOf(bnh)
	if err != nil {
		return nil, err
	}
	bctx := vm.blockContext(blk.Header())
	if err := bo.apply(vm, &bctx); err != nil {
		return nil, err
	}
	env := &callEnv{state: st, bctx: bctx}
	if so != nil {
		env.precompiles = vm.standardPrecompiles(bctx)
		if err := so.apply(st, env.precompiles); err != nil {
			return nil, err
		}
	}
	return env, nil
}

// callBase is what every call on one block without overrides starts from: the block's
// context and its standard precompiles. Both are read only, by every EVM that runs on them
// (go-ethereum's EVM copies the context and reads its numbers; newCallEVM replaces the base
// fee, never changes it; precompile.Runtime.Install copies the set before adding to it).
type callBase struct {
	hash        common.Hash
	bctx        gethvm.BlockContext
	precompiles gethvm.PrecompiledContracts
	// evms holds idle *callEVM made on this base, [1] those without the base fee (a message
	// without a gas price), [0] the others.
	evms [2]sync.Pool
}

// callEVM is an EVM of a callBase with its precompile runtime, kept between calls: making
// them (the runtime's precompile set with the warp precompile bound to the EVM, the EVM,
// its JUMPDEST analyses) was a tenth of an eth_call's CPU and a quarter of its allocations.
// go-ethereum's EVM runs one message after another as block building runs the transactions
// of a block (ApplyMessage sets each one's transaction context; the precompile runtime
// resets its frames at each top-level frame); only the state changes, through st.
type callEVM struct {
	evm *gethvm.EVM
	rt  *precompile.Runtime
	// st is the StateDB evm sees (under the runtime's wrapper): the call's state while it
	// runs, nil while the callEVM is idle.
	st *noRefundState
}

// getEVM returns an idle callEVM of b for a message with (noBaseFee) or without a gas
// price of zero, or a new one, running on st.
func (b *callBase) getEVM(vm *VM, noBaseFee bool, st *state.StateDB) *callEVM {
	pool := &b.evms[0]
	if noBaseFee {
		pool = &b.evms[1]
	}
	ce, _ := pool.Get().(*callEVM)
	if ce == nil {
		bctx := b.bctx
		if noBaseFee {
			bctx.BaseFee = new(big.Int)
		}
		ce = &callEVM{st: &noRefundState{}}
		ce.evm, ce.rt = vm.newEVM(bctx, ce.st, gethvm.Config{NoBaseFee: noBaseFee}, b.precompiles)
	}
	ce.st.StateDB = st
	return ce
}

// putEVM makes ce idle in b's pool, unless it was cancelled: an EVM that was cancelled stays
// so. Its stack arena stays with it (Release would hand it to go-ethereum's pool while the
// EVM still points at it).
func (b *callBase) putEVM(ce *callEVM, reusable bool) {
	ce.st.StateDB = nil
	if !reusable || ce.evm.Cancelled() {
		ce.evm.Release()
		return
	}
	if ce.evm.Config.NoBaseFee {
		b.evms[1].Put(ce)
	} else {
		b.evms[0].Put(ce)
	}
}

// callBaseOf returns blk's callBase: the one kept if it is blk's (nearly every call is on the
// head), else a new one, kept in its place. Making one copies the header and builds the
// precompile set, a few percent of a call's CPU.
func (vm *VM) callBaseOf(blk *types.Block) *callBase {
	hash := blk.Hash()
	if b := vm.lastCallBase.Load(); b != nil && b.hash == hash {
		return b
	}
	bctx := vm.blockContext(blk.Header())
	b := &callBase{hash: hash, bctx: bctx, precompiles: vm.standardPrecompiles(bctx)}
	vm.lastCallBase.Store(b)
	return b
}

// runMsg applies msg on env's state with the tracer hooks (nil for none).
// The call stops when ctx ends.
func (vm *VM) runMsg(ctx context.Context, env *callEnv, msg *core.Message, hooks *tracing.Hooks) (*core.ExecutionResult, error) {
	if hooks == nil && env.base != nil {
		return vm.runPooled(ctx, env, msg)
	}
	evm, rt := vm.newCallEVM(env, msg, hooks)
	stop := env.cancelOn(ctx, evm.Cancel)
	defer stop()
	res, err := core.ApplyMessage(evm, msg, core.NewGasPool(math64Max))
	if err == nil && rt != nil {
		// A creation the deployer allow list refuses, with the
		// reference's text (l1-evm.md §5.2).
		res.Err = rt.ExecutionError(res.Err)
	}
	// The stack goes back to go-ethereum's pool: 32 KiB a call otherwise.
	// Cancelled reads a flag, not the stack.
	evm.Release()
	if evm.Cancelled() {
		return nil, errExecutionAborted
	}
	return res, err
}

// runPooled is runMsg without a tracer on an EVM of env's callBase.
func (vm *VM) runPooled(ctx context.Context, env *callEnv, msg *core.Message) (*core.ExecutionResult, error) {
	ce := env.base.getEVM(vm, msg.GasPrice.IsZero(), env.state)
	stop := env.cancelOn(ctx, ce.evm.Cancel)
	snap := env.state.Snapshot()
	res, err := core.ApplyMessage(ce.evm, msg, core.NewGasPool(math64Max))
	// The EVM goes back only if the cancel can no longer reach it.
	notCancelled := stop()
	if err == nil {
		res.Err = ce.rt.ExecutionError(res.Err)
	}
	cancelled := ce.evm.Cancelled()
	env.base.putEVM(ce, notCancelled)
	if env.states != nil {
		// Every change of a message is in the state's journal (go-ethereum reverts a failed
		// call's the same way); the access list and transient storage are made afresh by the
		// next message's Prepare.
		env.state.RevertToSnapshot(snap)
		env.states.putState(env.state)
	}
	if cancelled {
		return nil, errExecutionAborted
	}
	return res, err
}

// cancelOn arms cancel, which stops a call's EVM, to run when ctx ends or, for a call with a
// deadline of its own (callEnv.deadline, which then stands for the context), when that passes;
// the returned stop disarms it and reports whether it did so before cancel ran.
func (env *callEnv) cancelOn(ctx context.Context, cancel func()) (stop func() bool) {
	if env.deadline.IsZero() {
		return context.AfterFunc(ctx, cancel)
	}
	return time.AfterFunc(time.Until(env.deadline), cancel).Stop
}

// newCallEVM returns an EVM that runs msg on env's state with the tracer
// hooks (nil for none), with this chain's no-refund rule and its
// precompiles (rt is their runtime: on an L1, the stateful ones in force
// at the block's time). The transaction allow list is not checked
// here (l1-evm.md §5.3); the deployer allow list is, inside the EVM.
// Without a gas price the base fee is not charged (go-ethereum's
// NoBaseFee), so accounts without funds can call.
func (vm *VM) newCallEVM(env *callEnv, msg *core.Message, hooks *tracing.Hooks) (*gethvm.EVM, *precompile.Runtime) {
	bctx := env.bctx
	noBaseFee := msg.GasPrice.IsZero()
	if noBaseFee {
		bctx.BaseFee = new(big.Int)
	}
	var sdb gethvm.StateDB = noRefundState{env.state}
	if hooks != nil {
		sdb = noRefundHookedState{state.NewHookedState(env.state, hooks)}
	}
	return vm.newEVM(bctx, sdb, gethvm.Config{NoBaseFee: noBaseFee, Tracer: hooks}, env.precompiles)
}

const math64Max = ^uint64(0)

// callArgs are the transaction arguments of eth_call and eth_estimateGas.
type callArgs struct {
	From                 *common.Address   `json:"from"`
	To                   *common.Address   `json:"to"`
	Gas                  *hexutil.Uint64   `json:"gas"`
	GasPrice             *hexutil.Big      `json:"gasPrice"`
	MaxFeePerGas         *hexutil.Big      `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexutil.Big      `json:"maxPriorityFeePerGas"`
	Value                *hexutil.Big      `json:"value"`
	Nonce                *hexutil.Uint64   `json:"nonce"`
	Data                 *hexutil.Bytes    `json:"data"`
	Input                *hexutil.Bytes    `json:"input"`
	AccessList           *types.AccessList `json:"accessList,omitempty"`
	ChainID              *hexutil.Big      `json:"chainId,omitempty"`
}

// toMessage makes the message go-ethereum's DoCall would: gas defaults to
// the cap, fees to zero, the nonce is not checked.
func (args *callArgs) toMessage(gasCap uint64, baseFee *big.Int) (*core.Message, error) {
	if args.GasPrice != nil && (args.MaxFeePerGas != nil || args.MaxPriorityFeePerGas != nil) {
		return nil, errBothFeeFields
	}
	if args.Data != nil && args.Input != nil && string(*args.Data) != string(*args.Input) {
		return nil, errBothInput
	}
	var from common.Address
	if args.From != nil {
		from = *args.From
	}
	gas := gasCap
	if args.Gas != nil && uint64(*args.Gas) < gasCap {
		gas = uint64(*args.Gas)
	}
	u := func(b *hexutil.Big) *uint256.Int {
		if b == nil {
			return new(uint256.Int)
		}
		return uint256.MustFromBig((*big.Int)(b))
	}
	var gasPrice, feeCap, tipCap *uint256.Int
	switch {
	case args.GasPrice != nil:
		gasPrice = u(args.GasPrice)
		feeCap, tipCap = gasPrice, gasPrice
	case args.MaxFeePerGas == nil && args.MaxPriorityFeePerGas == nil:
		gasPrice, feeCap, tipCap = new(uint256.Int), new(uint256.Int), new(uint256.Int)
	default:
		feeCap, tipCap = u(args.MaxFeePerGas), u(args.MaxPriorityFeePerGas)
		gasPrice = new(uint256.Int)
		if !feeCap.IsZero() || !tipCap.IsZero() {
			p := new(uint256.Int).Add(tipCap, uint256.MustFromBig(baseFee))
			if p.Gt(feeCap) {
				p = feeCap
			}
			gasPrice = p
		}
	}
	var data []byte
	if args.Input != nil {
		data = *args.Input
	} else if args.Data != nil {
		data = *args.Data
	}
	var al types.AccessList
	if args.AccessList != nil {
		al = *args.AccessList
	}
	msg := &core.Message{
		From:       from,
		To:         args.To,
		Value:      u(args.Value),
		GasLimit:   gas,
		GasPrice:   gasPrice,
		GasFeeCap:  feeCap,
		GasTipCap:  tipCap,
		Data:       data,
		AccessList: al,
	}
	return msg.SkipNonceCheck().SkipEOACheck(), nil
}

// toTransaction is the unsigned transaction a call of msg stands for, as
// tracers see it: args' nonce if given, else nonce.
func (args *callArgs) toTransaction(chainID *big.Int, nonce uint64, msg *core.Message) *types.Transaction {
	if args.Nonce != nil {
		nonce = uint64(*args.Nonce)
	}
	return types.NewTx(&types.DynamicFeeTx{
		ChainID:    new(big.Int).Set(chainID),
		Nonce:      nonce,
		GasTipCap:  msg.GasTipCap.ToBig(),
		GasFeeCap:  msg.GasFeeCap.ToBig(),
		Gas:        msg.GasLimit,
		To:         msg.To,
		Value:      msg.Value.ToBig(),
		Data:       msg.Data,
		AccessList: msg.AccessList,
	})
}
