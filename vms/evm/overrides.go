package evm

import (
	"maps"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	gethvm "github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
)

// The state and block overrides of eth_call, eth_estimateGas,
// eth_createAccessList and debug_traceCall, with go-ethereum's JSON field
// names and meaning, which wallets and viem's and ethers' "stateOverride"
// options send.

// accountOverride replaces fields of one account for a call. State
// replaces the whole storage; StateDiff sets some slots; both at once is an
// error. MovePrecompileTo moves a precompile's code to another address.
type accountOverride struct {
	Nonce            *hexutil.Uint64             `json:"nonce"`
	Code             *hexutil.Bytes              `json:"code"`
	Balance          *hexutil.Big                `json:"balance"`
	State            map[common.Hash]common.Hash `json:"state"`
	StateDiff        map[common.Hash]common.Hash `json:"stateDiff"`
	MovePrecompileTo *common.Address             `json:"movePrecompileToAddress"`
}

// stateOverride is the set of overridden accounts.
type stateOverride map[common.Address]accountOverride

// apply writes the overrides into st and moves precompiles in precompiles
// (changing the map). A nil override does nothing. Accounts go in address
// order, so errors do not depend on map order.
func (so *stateOverride) apply(st *state.StateDB, precompiles gethvm.PrecompiledContracts) error {
	if so == nil {
		return nil
	}
	moved := make(map[common.Address]bool)
	for _, addr := range slices.SortedFunc(maps.Keys(*so), common.Address.Cmp) {
		acct := (*so)[addr]
		if moved[addr] {
			return overriddenByPrecompileError(addr)
		}
		p, isPrecompile := precompiles[addr]
		if to := acct.MovePrecompileTo; to != nil {
			if !isPrecompile {
				return notPrecompileError(addr)
			}
			if _, ok := (*so)[*to]; ok {
				return alreadyOverriddenError(*to)
			}
			precompiles[*to] = p
			moved[*to] = true
		}
		if isPrecompile {
			delete(precompiles, addr)
		}
		if acct.State != nil && acct.StateDiff != nil {
			return bothStateAndDiffError(addr)
		}
		if acct.Nonce != nil {
			st.SetNonce(addr, uint64(*acct.Nonce), tracing.NonceChangeUnspecified)
		}
		if acct.Code != nil {
			st.SetCode(addr, *acct.Code, tracing.CodeChangeUnspecified)
		}
		if acct.Balance != nil {
			b, overflow := uint256.FromBig((*big.Int)(acct.Balance))
			if overflow {
				return balanceOverflowError(addr)
			}
			st.SetBalance(addr, b, tracing.BalanceChangeUnspecified)
		}
		if acct.State != nil {
			st.SetStorage(addr, acct.State)
		}
		for k, v := range acct.StateDiff {
			st.SetState(addr, k, v)
		}
	}
	// As if the overrides were a transaction before the call.
	st.Finalise(params.Rules{})
	return nil
}

// blockOverrides replaces fields of the block context of a call.
type blockOverrides struct {
	Number        *hexutil.Big    `json:"number"`
	Difficulty    *hexutil.Big    `json:"difficulty"`
	Time          *hexutil.Uint64 `json:"time"`
	GasLimit      *hexutil.Uint64 `json:"gasLimit"`
	FeeRecipient  *common.Address `json:"feeRecipient"`
	PrevRandao    *common.Hash    `json:"prevRandao"`
	BaseFeePerGas *hexutil.Big    `json:"baseFeePerGas"`
	BlobBaseFee   *hexutil.Big    `json:"blobBaseFee"`
	// BeaconRoot and Withdrawals belong to eth_simulateV1: refused here,
	// as go-ethereum does.
	BeaconRoot  *common.Hash       `json:"beaconRoot"`
	Withdrawals *types.Withdrawals `json:"withdrawals"`
}

// apply writes the overrides into bctx. BLOCKHASH follows an overridden
// number: a call at head+1 sees the head's hash, as a wallet simulating the
// next block expects. A nil override does nothing.
func (bo *blockOverrides) apply(vm *VM, bctx *gethvm.BlockContext) error {
	if bo == nil {
		return nil
	}
	switch {
	case bo.BeaconRoot != nil:
		return errOverrideBeaconRoot
	case bo.Withdrawals != nil:
		return errOverrideWithdrawals
	}
	if bo.Number != nil {
		if !bo.Number.ToInt().IsUint64() {
			return errOverrideNumber
		}
		bctx.BlockNumber = new(big.Int).Set(bo.Number.ToInt())
		bctx.GetHash = vm.getHashFn(bctx.BlockNumber.Uint64())
	}
	if bo.Difficulty != nil {
		bctx.Difficulty = new(big.Int).Set(bo.Difficulty.ToInt())
	}
	if bo.Time != nil {
		bctx.Time = uint64(*bo.Time)
	}
	if bo.GasLimit != nil {
		bctx.GasLimit = uint64(*bo.GasLimit)
	}
	if bo.FeeRecipient != nil {
		bctx.Coinbase = *bo.FeeRecipient
	}
	if bo.PrevRandao != nil {
		r := *bo.PrevRandao
		bctx.Random = &r
	}
	if bo.BaseFeePerGas != nil {
		bctx.BaseFee = new(big.Int).Set(bo.BaseFeePerGas.ToInt())
	}
	if bo.BlobBaseFee != nil {
		bctx.BlobBaseFee = new(big.Int).Set(bo.BlobBaseFee.ToInt())
	}
	return nil
}
