package evm

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// eth_sendRawTransactionSync's waits (go-ethereum's defaults): the wait
// when the caller names none, and the longest it may name.
const (
	txSyncDefaultTimeout = 20 * time.Second
	txSyncMaxTimeout     = time.Minute
)

// SendRawTransactionSync is eth_sendRawTransactionSync (EIP-7966):
// eth_sendRawTransaction, then the receipt once the transaction is
// accepted. The wait is timeoutMs milliseconds (go-ethereum's default when
// omitted or 0, at most its maximum), on the VM's clock; when it runs out
// the error has code 4 and the transaction hash as data.
func (a *ethAPI) SendRawTransactionSync(ctx context.Context, input hexutil.Bytes, timeoutMs *uint64) (map[string]any, error) {
	tx, err := decodeRawTx(input)
	if err != nil {
		return nil, err
	}
	// Subscribed before sending, so that no acceptance is missed.
	ch := make(chan *types.Block, 16)
	sub := a.vm.feeds.accepted.Subscribe(ch)
	defer sub.Unsubscribe()
	if err := a.vm.sendAndLog(tx); err != nil {
		return nil, err
	}
	hash := tx.Hash()
	timeout := txSyncTimeout(timeoutMs)
	timer := a.vm.clock.NewTimer(timeout)
	defer timer.Stop()
	if r, err := a.GetTransactionReceipt(ctx, hash); err != nil || r != nil {
		return r, err
	}
	for {
		select {
		case <-timer.C:
			return nil, &txSyncTimeoutError{timeout: timeout, hash: hash}
		case <-ctx.Done():
			return nil, ctx.Err()
		case err, ok := <-sub.Err():
			if !ok || err == nil {
				return nil, errSubClosed
			}
			return nil, err
		case blk := <-ch:
			for _, t := range blk.Transactions() {
				if t.Hash() == hash {
					return a.GetTransactionReceipt(ctx, hash)
				}
			}
		}
	}
}

// txSyncTimeout is the wait eth_sendRawTransactionSync grants for timeoutMs:
// the default when it is nil or 0, else that many milliseconds up to the
// maximum. The milliseconds are compared before they become a Duration, so a
// request too large for one gets the maximum rather than a wrapped-around,
// negative wait (go-ethereum multiplies first and times out at once).
func txSyncTimeout(timeoutMs *uint64) time.Duration {
	switch {
	case timeoutMs == nil || *timeoutMs == 0:
		return txSyncDefaultTimeout
	case *timeoutMs >= uint64(txSyncMaxTimeout/time.Millisecond):
		return txSyncMaxTimeout
	}
	return time.Duration(*timeoutMs) * time.Millisecond
}
