// Package evmwait prices an EVM transaction and waits for its receipt: what the CLI, the ACP-99
// flow and the relay each need to send a transaction to an EVM chain.
package evmwait

import (
	"context"
	"errors"
	"fmt"
	"math/big"
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

// Pricer tells the tip the chain suggests and its head (*ethclient.Client).
type Pricer interface {
	SuggestGasTipCap(ctx context.Context) (*big.Int, error)
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
}

// Fees returns the tip and fee cap of a dynamic-fee transaction on c: the suggested tip, and
// twice the head's base fee plus the tip, so that a rising base fee does not strand it.
func Fees(ctx context.Context, c Pricer) (tip, feeCap *big.Int, err error) {
	if tip, err = c.SuggestGasTipCap(ctx); err != nil {
		return nil, nil, fmt.Errorf("gas tip: %w", err)
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("head: %w", err)
	}
	return tip, new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), nil
}
