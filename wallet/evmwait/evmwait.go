// Package evmwait waits for an EVM transaction's receipt: what the CLI, the ACP-99 flow and the
// relay each need after sending a transaction to an EVM chain.
package evmwait

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Receipts gives transaction receipts (*ethclient.Client).
type Receipts interface {
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
}

// Receipt polls c for the receipt of hash for at most wait: every millisecond at first, then
// twice as long each time up to every 100 ms, so a fast chain answers at once and a slow one is
// not flooded. An error other than "not found" ends the wait.
func Receipt(ctx context.Context, c Receipts, hash common.Hash, wait time.Duration) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	delay := time.Millisecond
	for {
		r, err := c.TransactionReceipt(ctx, hash)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no receipt of %s within %s: %w", hash.Hex(), wait, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 100*time.Millisecond)
	}
}
