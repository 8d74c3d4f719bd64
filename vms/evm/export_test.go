package evm

import (
	"context"
	"net/http"

	"github.com/cornice-node/cornice/jsonrpc"
)

// BuildBlockNoFeeCheck builds a block as BuildBlock does but without the
// block fee check, and without remembering it as the block built last, so
// that tests can hand its bytes to ParseBlock as a block from elsewhere.
func (vm *VM) BuildBlockNoFeeCheck(ctx context.Context) (*Block, error) {
	return vm.buildBlock(ctx, false, false)
}

// SetGasCost changes the block gas cost a built block claims.
func SetGasCost(b *Block, cost uint64) { b.gasCost = cost }

// ServeCall is the chain's eth_call front (serveCall).
func (vm *VM) ServeCall(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) bool {
	return vm.serveCall(w, r, c)
}

// GethHandler is the chain's /rpc without its front: go-ethereum's server with the newline.
func (vm *VM) GethHandler() http.Handler { return newlineHandler(vm.rpc) }

// ServeDev is the chain's front for the developer methods (serveDev).
func (vm *VM) ServeDev(w http.ResponseWriter, r *http.Request, c *jsonrpc.Call) bool {
	return vm.serveDev(w, r, c)
}

// ForgetCallBase drops the kept call base of the last block called on with its idle EVMs, and
// the head's state cache with its idle states: the next call makes them all afresh.
func (vm *VM) ForgetCallBase() {
	vm.lastCallBase.Store(nil)
	vm.headCache.Store(nil)
}

// IdleCallEVM reports whether the kept call base has an idle EVM for messages with
// (noBaseFee false) or without a gas price, leaving it idle.
func (vm *VM) IdleCallEVM(noBaseFee bool) bool {
	b := vm.lastCallBase.Load()
	if b == nil {
		return false
	}
	pool := &b.evms[0]
	if noBaseFee {
		pool = &b.evms[1]
	}
	ce, _ := pool.Get().(*callEVM)
	if ce == nil {
		return false
	}
	pool.Put(ce)
	return true
}
