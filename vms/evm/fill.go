package evm

import (
	"context"
	"encoding/json"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
)

// txArgs are the arguments of the methods that make a transaction
// (eth_fillTransaction, eth_signTransaction, eth_sendTransaction,
// eth_resend): eth_call's, plus go-ethereum's fields of blob and set-code
// transactions, only to refuse them, since this chain takes neither
// (SendTx).
type txArgs struct {
	callArgs
	BlobFeeCap        *hexutil.Big      `json:"maxFeePerBlobGas"`
	BlobHashes        []common.Hash     `json:"blobVersionedHashes,omitempty"`
	Blobs             []json.RawMessage `json:"blobs"`
	AuthorizationList []json.RawMessage `json:"authorizationList"`
}

// fillResult is eth_fillTransaction's and eth_signTransaction's answer, as
// go-ethereum's SignTransactionResult: the transaction's binary encoding and
// its JSON.
type fillResult struct {
	Raw hexutil.Bytes      `json:"raw"`
	Tx  *types.Transaction `json:"tx"`
}

// FillTransaction is eth_fillTransaction: args with go-ethereum's defaults
// filled in (the nonce from the pending state, the gas by eth_estimateGas
// on the latest block at the next one's base fee, the fees, the value and
// the chain ID), as the
// unsigned transaction, for the caller to sign and send.
func (a *ethAPI) FillTransaction(ctx context.Context, args txArgs) (*fillResult, error) {
	if err := a.setDefaults(ctx, &args); err != nil {
		return nil, err
	}
	tx := args.toTx()
	raw, err := tx.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return &fillResult{Raw: raw, Tx: tx}, nil
}

// setDefaults fills args as go-ethereum's TransactionArgs.setDefaults does,
// with its checks in its order and its texts, but for two points. The
// default max fee is twice the next block's base fee (eth_baseFee) plus
// the tip, as the reference's coreth and Subnet-EVM fill it: go-ethereum
// takes the head's base fee, which on these chains can be far below the
// next one. Blob and set-code transactions are refused as SendTx refuses
// them.
func (a *ethAPI) setDefaults(ctx context.Context, args *txArgs) error {
	switch {
	case args.BlobHashes != nil || args.BlobFeeCap != nil || args.Blobs != nil:
		return txTypeError(types.BlobTxType)
	case args.AuthorizationList != nil:
		return txTypeError(types.SetCodeTxType)
	}
	if err := args.setFeeDefaults(a.vm); err != nil {
		return err
	}
	if args.Value == nil {
		args.Value = new(hexutil.Big)
	}
	if args.Nonce == nil {
		n, err := a.vm.poolNonce(args.from())
		if err != nil {
			return err
		}
		args.Nonce = (*hexutil.Uint64)(&n)
	}
	if args.Data != nil && args.Input != nil && string(*args.Data) != string(*args.Input) {
		return errBothInput
	}
	if args.To == nil && len(args.data()) == 0 {
		return errCreateWithoutData
	}
	if args.Gas == nil {
		data := hexutil.Bytes(args.data())
		est := callArgs{
			From:                 args.From,
			To:                   args.To,
			GasPrice:             args.GasPrice,
			MaxFeePerGas:         args.MaxFeePerGas,
			MaxPriorityFeePerGas: args.MaxPriorityFeePerGas,
			Value:                args.Value,
			Data:                 &data,
			AccessList:           args.AccessList,
		}
		// On the latest state, at the next block's base fee, which
		// the default fees are chosen for: under ACP-176 it can be far
		// below the latest block's (the genesis has 25 gwei, the first
		// block 1 wei).
		next := (*hexutil.Big)(a.vm.nextBaseFee(a.vm.currentHead()))
		gas, err := a.EstimateGas(ctx, est, nil, nil, &blockOverrides{BaseFeePerGas: next})
		if err != nil {
			return err
		}
		args.Gas = &gas
	}
	want := a.vm.chainCfg.ChainID
	if args.ChainID != nil {
		if have := args.ChainID.ToInt(); have.Cmp(want) != 0 {
			return chainIDMismatchError(have, want)
		}
	} else {
		args.ChainID = (*hexutil.Big)(new(big.Int).Set(want))
	}
	return nil
}

// setFeeDefaults checks the fee fields and fills the missing ones, as
// go-ethereum's setFeeDefaults: the tip is eth_maxPriorityFeePerGas's, the
// max fee twice eth_baseFee's plus the tip (setDefaults says why).
func (args *txArgs) setFeeDefaults(vm *VM) error {
	if args.GasPrice != nil && (args.MaxFeePerGas != nil || args.MaxPriorityFeePerGas != nil) {
		return errBothFeeFields
	}
	head := vm.currentHead()
	if args.GasPrice == nil && args.MaxFeePerGas != nil && args.MaxPriorityFeePerGas != nil {
		if args.MaxFeePerGas.ToInt().Sign() == 0 {
			return errZeroMaxFee
		}
		if args.MaxFeePerGas.ToInt().Cmp(args.MaxPriorityFeePerGas.ToInt()) < 0 {
			return maxFeeBelowTipError(args.MaxFeePerGas, args.MaxPriorityFeePerGas)
		}
		return nil
	}
	london := vm.chainCfg.IsLondon(head.Number())
	if args.GasPrice != nil {
		if args.GasPrice.ToInt().Sign() == 0 && london {
			return errZeroGasPrice
		}
		return nil
	}
	if !london {
		if args.MaxFeePerGas != nil || args.MaxPriorityFeePerGas != nil {
			return errFeesBeforeLondon
		}
		args.GasPrice = (*hexutil.Big)(vm.suggestTip(head))
		return nil
	}
	if args.MaxPriorityFeePerGas == nil {
		args.MaxPriorityFeePerGas = (*hexutil.Big)(vm.suggestTip(head))
	}
	if args.MaxFeePerGas == nil {
		fee := new(big.Int).Lsh(vm.nextBaseFee(head), 1)
		args.MaxFeePerGas = (*hexutil.Big)(fee.Add(fee, args.MaxPriorityFeePerGas.ToInt()))
	}
	if args.MaxFeePerGas.ToInt().Cmp(args.MaxPriorityFeePerGas.ToInt()) < 0 {
		return maxFeeBelowTipError(args.MaxFeePerGas, args.MaxPriorityFeePerGas)
	}
	return nil
}

// from is the sender, the zero address when not given.
func (args *txArgs) from() common.Address {
	if args.From == nil {
		return common.Address{}
	}
	return *args.From
}

// data is input, or data when input is not given.
func (args *txArgs) data() []byte {
	if args.Input != nil {
		return *args.Input
	}
	if args.Data != nil {
		return *args.Data
	}
	return nil
}

// toTx is the unsigned transaction of filled args, of the type go-ethereum's
// ToTransaction picks with a dynamic-fee default: legacy with a gas price,
// an access-list transaction with a gas price and an access list, else
// dynamic-fee.
func (args *txArgs) toTx() *types.Transaction {
	var al types.AccessList
	if args.AccessList != nil {
		al = *args.AccessList
	}
	switch {
	case args.GasPrice != nil && args.AccessList != nil:
		return types.NewTx(&types.AccessListTx{
			ChainID:    args.ChainID.ToInt(),
			Nonce:      uint64(*args.Nonce),
			GasPrice:   args.GasPrice.ToInt(),
			Gas:        uint64(*args.Gas),
			To:         args.To,
			Value:      args.Value.ToInt(),
			Data:       args.data(),
			AccessList: al,
		})
	case args.GasPrice != nil:
		return types.NewTx(&types.LegacyTx{
			Nonce:    uint64(*args.Nonce),
			GasPrice: args.GasPrice.ToInt(),
			Gas:      uint64(*args.Gas),
			To:       args.To,
			Value:    args.Value.ToInt(),
			Data:     args.data(),
		})
	}
	if al == nil {
		al = types.AccessList{}
	}
	return types.NewTx(&types.DynamicFeeTx{
		ChainID:    args.ChainID.ToInt(),
		Nonce:      uint64(*args.Nonce),
		GasTipCap:  args.MaxPriorityFeePerGas.ToInt(),
		GasFeeCap:  args.MaxFeePerGas.ToInt(),
		Gas:        uint64(*args.Gas),
		To:         args.To,
		Value:      args.Value.ToInt(),
		Data:       args.data(),
		AccessList: al,
	})
}

// poolNonce is the nonce the next transaction of addr takes: its nonce in
// the last accepted state plus its consecutive pooled transactions, as
// eth_getTransactionCount answers for "pending".
func (vm *VM) poolNonce(addr common.Address) (uint64, error) {
	st, err := vm.stateOfBlock(vm.currentHead())
	if err != nil {
		return 0, err
	}
	n := st.GetNonce(addr)
	return n + uint64(len(vm.pool.executable(func(common.Address) uint64 { return n })[addr])), nil
}

// rpcTxFeeCap is go-ethereum's default RPC fee cap, in ether, which
// eth_signTransaction and eth_resend check before signing.
const rpcTxFeeCap = 1

// checkTxFee is go-ethereum's check of gasPrice·gas against rpcTxFeeCap.
func checkTxFee(gasPrice *big.Int, gas uint64) error {
	fee := new(big.Float).Quo(new(big.Float).SetInt(new(big.Int).Mul(gasPrice, new(big.Int).SetUint64(gas))), new(big.Float).SetInt(big.NewInt(params.Ether)))
	f, _ := fee.Float64()
	if f > rpcTxFeeCap {
		return txFeeCapError(f, rpcTxFeeCap)
	}
	return nil
}
