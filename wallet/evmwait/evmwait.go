// Package evmwait prices, signs and sends an EVM transaction and waits for its receipt: what
// the CLI, the ACP-99 flow and the relay each need to send a transaction to an EVM chain.
package evmwait

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// ErrReverted is a transaction whose receipt says it failed.
var ErrReverted = errors.New("transaction reverted")

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

// Call is what a transaction does: To (nil creates a contract), Data, Value (nil is none), Gas
// and AccessList.
type Call struct {
	To         *common.Address
	Data       []byte
	Value      *big.Int
	Gas        uint64
	AccessList types.AccessList
}

// Sign returns call as a dynamic-fee transaction with nonce on chain chainID, priced by Fees on
// c and signed by key.
func Sign(ctx context.Context, c Pricer, key *ecdsa.PrivateKey, chainID *big.Int, nonce uint64, call Call) (*types.Transaction, error) {
	tip, feeCap, err := Fees(ctx, c)
	if err != nil {
		return nil, err
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: call.Gas, To: call.To, Data: call.Data, Value: call.Value, AccessList: call.AccessList,
	})
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return tx, nil
}

// Sender sends a transaction and gives its receipt (*ethclient.Client).
type Sender interface {
	Receipts
	SendTransaction(ctx context.Context, tx *types.Transaction) error
}

// SendAndWait sends tx on c and waits at most wait for its receipt (Receipt). A transaction that
// failed is ErrReverted, returned with its receipt.
func SendAndWait(ctx context.Context, c Sender, tx *types.Transaction, wait time.Duration) (*types.Receipt, error) {
	if err := c.SendTransaction(ctx, tx); err != nil {
		return nil, fmt.Errorf("send %s: %w", tx.Hash().Hex(), err)
	}
	r, err := Receipt(ctx, c, tx.Hash(), wait)
	if err != nil {
		return nil, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, fmt.Errorf("%w: %s in block %s", ErrReverted, tx.Hash().Hex(), r.BlockNumber)
	}
	return r, nil
}

// Chain is what Transact asks of an EVM chain (*ethclient.Client).
type Chain interface {
	Pricer
	Sender
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
}

// Transact signs call by key with the key's pending nonce on c (Sign), sends it and waits at
// most wait for its receipt (SendAndWait). chainID is c's.
func Transact(ctx context.Context, c Chain, key *ecdsa.PrivateKey, chainID *big.Int, call Call, wait time.Duration) (*types.Receipt, error) {
	nonce, err := c.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		return nil, fmt.Errorf("nonce: %w", err)
	}
	tx, err := Sign(ctx, c, key, chainID, nonce, call)
	if err != nil {
		return nil, err
	}
	return SendAndWait(ctx, c, tx, wait)
}
