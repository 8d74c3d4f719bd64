package precompile

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Gas units of the stateful precompiles (l1-evm.md §5.0).
const (
	writeSlotGas = 20_000
	readSlotGas  = 5_000
	logGas       = 375
	logTopicGas  = 375
	logDataGas   = 8

	selectorLen = 4
)

// call is one invocation of a precompile function.
type call struct {
	r     *Runtime
	addr  common.Address
	state vm.StateDB
	// caller is msg.sender as the function sees it.
	caller   common.Address
	input    []byte // after the selector
	gas      uint64 // left
	readOnly bool
	rules    Rules
}

// use charges n gas; out of gas leaves none.
func (c *call) use(n uint64) error {
	if c.gas < n {
		c.gas = 0
		return vm.ErrOutOfGas
	}
	c.gas -= n
	return nil
}

// strict reports whether inputs must have their exact ABI length (before Durango).
func (c *call) strict() bool { return !c.rules.IsDurango }

// log adds an event at the precompile's address.
func (c *call) log(topics []common.Hash, data []byte) {
	var number uint64
	if c.r.evm.Context.BlockNumber != nil {
		number = c.r.evm.Context.BlockNumber.Uint64()
	}
	c.state.AddLog(&types.Log{Address: c.addr, Topics: topics, Data: data, BlockNumber: number})
}

// function is one entry of a precompile's dispatch table.
type function struct {
	run func(c *call) ([]byte, error)
	// durango: the function exists from Durango on only (setManager).
	durango bool
}

// result is what RequiredGas computed for Run to return.
type result struct {
	ret []byte
	err error
}

// contract is a stateful precompile bound to one Runtime (and so to one EVM). It
// implements vm.PrecompiledContract.
type contract struct {
	r       *Runtime
	addr    common.Address
	name    string
	fns     map[[selectorLen]byte]function
	pending *result
}

var _ vm.PrecompiledContract = (*contract)(nil)

// newContract returns the precompile at addr, nil for an address that has none.
func (r *Runtime) newContract(addr common.Address) *contract {
	c := &contract{r: r, addr: addr, fns: make(map[[selectorLen]byte]function)}
	switch addr {
	case l1params.DeployerAllowListAddress:
		c.name = "contractDeployerAllowList"
		addAllowList(c)
	case l1params.TxAllowListAddress:
		c.name = "txAllowList"
		addAllowList(c)
	case l1params.NativeMinterAddress:
		c.name = "contractNativeMinter"
		addAllowList(c)
		addNativeMinter(c)
	case l1params.FeeManagerAddress:
		c.name = "feeManager"
		addAllowList(c)
		addFeeManager(c)
	case l1params.RewardManagerAddress:
		c.name = "rewardManager"
		addAllowList(c)
		addRewardManager(c)
	case l1params.WarpAddress:
		c.name = "warp"
		addWarp(c)
	default:
		return nil
	}
	return c
}

// add registers fn under methodID, a method's 4-byte selector from the precompile's ABI.
func (c *contract) add(methodID []byte, fn function) {
	c.fns[[selectorLen]byte(methodID)] = fn
}

// Name implements vm.PrecompiledContract.
func (c *contract) Name() string { return c.name }

// RequiredGas runs the call and returns the gas it uses: the success-path cost of the
// reference when it succeeds, all the frame's gas when it fails (a failing precompile
// consumes all of its gas, l1-evm.md §5.0). go-ethereum calls Run right after, with no state
// change in between; Run returns what was computed here.
func (c *contract) RequiredGas(input []byte) uint64 {
	f := c.r.top()
	if f == nil || f.to != c.addr || c.r.evm == nil {
		c.pending = &result{err: errNoFrame}
		return 0
	}
	cl := &call{
		r:        c.r,
		addr:     c.addr,
		state:    c.r.evm.StateDB,
		caller:   f.sender,
		input:    input,
		gas:      f.gas,
		readOnly: f.readOnly,
		rules:    c.r.env.Rules,
	}
	if f.typ == vm.DELEGATECALL || f.typ == vm.CALLCODE {
		switch {
		case cl.rules.IsGranite:
			// Revert with no gas left (l1-evm.md §5.0, §7.2).
			c.pending = &result{err: vm.ErrExecutionReverted}
			return f.gas
		case c.r.evm.Context.Time >= delegateCallInvalidFrom:
			c.r.invalidated = true
			c.pending = &result{err: ErrDelegateCallInvalidated}
			return f.gas
		}
		// Before 2025-08-02 the call runs with the EVM-semantic caller.
	}
	ret, err := c.dispatch(cl)
	if err != nil {
		c.pending = &result{err: err}
		return f.gas
	}
	c.pending = &result{ret: ret}
	return f.gas - cl.gas
}

// Run implements vm.PrecompiledContract: the output or error RequiredGas computed.
func (c *contract) Run([]byte) ([]byte, error) {
	p := c.pending
	c.pending = nil
	if p == nil {
		return nil, errNoFrame
	}
	return p.ret, p.err
}

// dispatch selects the function by the input's 4-byte selector (l1-evm.md §5.0).
func (c *contract) dispatch(cl *call) ([]byte, error) {
	in := cl.input
	if len(in) < selectorLen {
		return nil, missingSelectorError(len(in))
	}
	sel := [selectorLen]byte(in[:selectorLen])
	fn, ok := c.fns[sel]
	if !ok {
		return nil, invalidSelectorError(sel[:])
	}
	if fn.durango && !cl.rules.IsDurango {
		return nil, nonActivatedSelectorError(sel[:])
	}
	cl.input = in[selectorLen:]
	return fn.run(cl)
}
