package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/tracers/logger"
)

// accessListResult is eth_createAccessList's answer, with go-ethereum's
// field names: the access list, the gas the call used with it, and the
// call's error if it failed.
type accessListResult struct {
	AccessList *types.AccessList `json:"accessList"`
	Error      string            `json:"error,omitempty"`
	GasUsed    hexutil.Uint64    `json:"gasUsed"`
}

// CreateAccessList is eth_createAccessList: the EIP-2930 access list of
// args run on the state after the named block (latest by default), with the
// state overrides if any. As go-ethereum does, it runs the call with
// go-ethereum's access-list tracer until the list stops growing; the
// sender, the recipient (or the created contract) and the precompiles are
// left out, since they are warm anyway.
func (a *ethAPI) CreateAccessList(ctx context.Context, args callArgs, bnh *blockNumberOrHash, so *stateOverride) (*accessListResult, error) {
	env, err := a.vm.newCallEnv(bnh.orLatest(), so, nil)
	if err != nil {
		return nil, err
	}
	var from common.Address
	if args.From != nil {
		from = *args.From
	}
	nonce := env.state.GetNonce(from)
	if args.Nonce != nil {
		nonce = uint64(*args.Nonce)
	}
	to := crypto.CreateAddress(from, nonce)
	if args.To != nil {
		to = *args.To
	}
	exclude := map[common.Address]struct{}{from: {}, to: {}}
	for _, p := range a.vm.warmPrecompiles(env.bctx) {
		exclude[p] = struct{}{}
	}
	var initial types.AccessList
	if args.AccessList != nil {
		initial = *args.AccessList
	}
	prev := logger.NewAccessListTracer(initial, exclude)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		list := prev.AccessList()
		args.AccessList = &list
		msg, err := args.toMessage(a.vm.cfg.RPCGasCap, env.bctx.BaseFee)
		if err != nil {
			return nil, err
		}
		// Each run needs the state as it was: a call changes it.
		if env, err = a.vm.newCallEnv(bnh.orLatest(), so, nil); err != nil {
			return nil, err
		}
		tracer := logger.NewAccessListTracer(list, exclude)
		res, err := a.vm.runMsg(ctx, env, msg, tracer.Hooks())
		if err != nil {
			tx := args.toTransaction(a.vm.chainCfg.ChainID, nonce, msg)
			return nil, accessListApplyError(tx.Hash(), err)
		}
		if tracer.Equal(prev) {
			out := &accessListResult{AccessList: &list, GasUsed: hexutil.Uint64(res.UsedGas)}
			if res.Err != nil {
				out.Error = res.Err.Error()
			}
			return out, nil
		}
		prev = tracer
	}
}
