package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// The methods of go-ethereum that sign with the node's own keys. This node
// holds none (eth_accounts is empty), so each answers as a go-ethereum
// node without the sender's key does: after the same argument checks, in
// the same order, with "unknown account" (internal/ethapi/api.go).

// SendTransaction is eth_sendTransaction: go-ethereum looks the sender's
// key up before anything else.
func (a *ethAPI) SendTransaction(context.Context, txArgs) (common.Hash, error) {
	return common.Hash{}, errUnknownAccount
}

// Sign is eth_sign.
func (a *ethAPI) Sign(common.Address, hexutil.Bytes) (hexutil.Bytes, error) {
	return nil, errUnknownAccount
}

// SignTransaction is eth_signTransaction: gas, fees and nonce must be
// given, the defaults are filled and the fee checked against go-ethereum's
// cap before the key is looked up.
func (a *ethAPI) SignTransaction(ctx context.Context, args txArgs) (*fillResult, error) {
	switch {
	case args.Gas == nil:
		return nil, errGasNotSpecified
	case args.GasPrice == nil && (args.MaxPriorityFeePerGas == nil || args.MaxFeePerGas == nil):
		return nil, errFeesNotSpecified
	case args.Nonce == nil:
		return nil, errNonceNotSpecified
	}
	if err := a.setDefaults(ctx, &args); err != nil {
		return nil, err
	}
	tx := args.toTx()
	if err := checkTxFee(tx.GasPrice(), tx.Gas()); err != nil {
		return nil, err
	}
	return nil, errUnknownAccount
}

// PendingTransactions is eth_pendingTransactions: the pooled transactions
// sent from the node's accounts, so always empty.
func (a *ethAPI) PendingTransactions() ([]map[string]any, error) {
	return []map[string]any{}, nil
}

// Resend is eth_resend: it replaces a pooled transaction of the node's
// accounts. As go-ethereum, it fills args, checks the new fee, and finds
// the pooled transaction args stand for (same sender, same signing hash);
// re-signing it would need the sender's key.
func (a *ethAPI) Resend(ctx context.Context, args txArgs, gasPrice *hexutil.Big, gasLimit *hexutil.Uint64) (common.Hash, error) {
	if args.Nonce == nil {
		return common.Hash{}, errResendWithoutNonce
	}
	if err := a.setDefaults(ctx, &args); err != nil {
		return common.Hash{}, err
	}
	match := args.toTx()
	price, gas := match.GasPrice(), match.Gas()
	if gasPrice != nil {
		price = gasPrice.ToInt()
	}
	if gasLimit != nil {
		gas = uint64(*gasLimit)
	}
	if err := checkTxFee(price, gas); err != nil {
		return common.Hash{}, err
	}
	want := a.vm.signer.Hash(match)
	for _, txs := range a.vm.pool.snapshot() {
		for _, p := range txs {
			if from, err := a.vm.senderOf(p); err == nil && from == args.from() && a.vm.signer.Hash(p) == want {
				return common.Hash{}, errUnknownAccount
			}
		}
	}
	return common.Hash{}, resendNotFoundError(match.Hash())
}
