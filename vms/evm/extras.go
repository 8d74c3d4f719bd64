package evm

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common/hexutil"
	gethvm "github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// detailedExecutionResult is eth_callDetailed's answer, with the
// reference's field names and encodings (l1-evm.md §1.6): the gas used as
// a JSON number, the error's JSON-RPC code (0 when it has none) and text
// ("" on success), and the output or revert data as hex.
type detailedExecutionResult struct {
	UsedGas    uint64        `json:"gas"`
	ErrCode    int           `json:"errCode"`
	Err        string        `json:"err"`
	ReturnData hexutil.Bytes `json:"returnData"`
}

// CallDetailed is eth_callDetailed, a C-Chain and Subnet-EVM extra
// (l1-evm.md §1.6, §8): eth_call with the state overrides, answering how
// the call ended instead of failing with it. An execution error is in err;
// a revert with data is code 3 with eth_call's "execution reverted: …"
// text. Errors before execution (a bad block, bad arguments) are still
// JSON-RPC errors.
func (a *ethAPI) CallDetailed(ctx context.Context, args callArgs, bnh *blockNumberOrHash, so *stateOverride) (*detailedExecutionResult, error) {
	res, err := a.vm.call(ctx, args, bnh, so, nil)
	if err != nil {
		return nil, err
	}
	out := &detailedExecutionResult{UsedGas: res.UsedGas, ReturnData: res.ReturnData}
	if res.Err != nil {
		out.Err = res.Err.Error()
		if re, ok := errors.AsType[rpc.Error](res.Err); ok {
			out.ErrCode = re.ErrorCode()
		}
	}
	if errors.Is(res.Err, gethvm.ErrExecutionReverted) && len(res.Revert()) > 0 {
		re := newRevertError(res.Revert())
		out.Err, out.ErrCode = re.Error(), re.ErrorCode()
	}
	return out, nil
}

// GetBadBlocks is eth_getBadBlocks (l1-evm.md §1.6): always empty. This
// node keeps no block that failed verification, so it has none to list.
func (a *ethAPI) GetBadBlocks(context.Context) ([]struct{}, error) { return []struct{}{}, nil }

// Price options of eth_suggestPriceOptions. l1-evm.md §8 names the method
// and its shape only; the numbers are our choice, modelled on the
// reference C-Chain's default price options (docs/api.md): slow and fast
// tips are 95 % and 105 % of the suggested tip, slow and normal ones
// capped at 20 gwei, and every max fee is twice the estimated base fee
// plus the tip.
const (
	slowTipPercent = 95
	fastTipPercent = 105
)

var maxNormalTip = big.NewInt(20 * params.GWei)

// cChainAPI holds the eth methods only the C-Chain has (l1-evm.md §8).
type cChainAPI struct{ vm *VM }

// GetChainConfig is eth_getChainConfig on the C-Chain: the plain chain
// config with the network's upgrade times (cChainConfig).
func (a *cChainAPI) GetChainConfig() json.RawMessage { return a.vm.cChainConfig }

// price is one of eth_suggestPriceOptions' options, hex-encoded.
type price struct {
	MaxPriorityFeePerGas *hexutil.Big `json:"maxPriorityFeePerGas"`
	MaxFeePerGas         *hexutil.Big `json:"maxFeePerGas"`
}

// priceOptions is eth_suggestPriceOptions' answer.
type priceOptions struct {
	Slow   price `json:"slow"`
	Normal price `json:"normal"`
	Fast   price `json:"fast"`
}

// SuggestPriceOptions is eth_suggestPriceOptions, a C-Chain extra
// (l1-evm.md §8): slow, normal and fast fees for a wallet to offer, from
// eth_maxPriorityFeePerGas's tip and eth_baseFee's estimate, with the
// multipliers above.
func (a *cChainAPI) SuggestPriceOptions(context.Context) (*priceOptions, error) {
	head := a.vm.currentHead()
	return newPriceOptions(a.vm.nextBaseFee(head), a.vm.suggestTip(head)), nil
}

// newPriceOptions computes the options from the estimated base fee and
// the suggested tip: slow tip max(95 % of min(tip, 20 gwei), 1 wei), normal
// min(tip, 20 gwei), fast 105 % of tip; each max fee 2·baseFee + its tip.
func newPriceOptions(baseFee, tip *big.Int) *priceOptions {
	percent := func(v *big.Int, p int64) *big.Int {
		r := new(big.Int).Mul(v, big.NewInt(p))
		return r.Div(r, big.NewInt(100))
	}
	normal := new(big.Int).Set(tip)
	if normal.Cmp(maxNormalTip) > 0 {
		normal.Set(maxNormalTip)
	}
	slow := percent(normal, slowTipPercent)
	if slow.Sign() == 0 {
		slow.SetInt64(1)
	}
	fast := percent(tip, fastTipPercent)
	double := new(big.Int).Lsh(baseFee, 1)
	opt := func(tip *big.Int) price {
		return price{MaxPriorityFeePerGas: (*hexutil.Big)(tip), MaxFeePerGas: (*hexutil.Big)(new(big.Int).Add(double, tip))}
	}
	return &priceOptions{Slow: opt(slow), Normal: opt(normal), Fast: opt(fast)}
}
