package evmwait

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"
)

// receipts answers "not found" until its countdown ends, then the receipt or err.
type receipts struct {
	notFound int
	err      error
	calls    int
}

func (r *receipts) TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error) {
	r.calls++
	if r.calls <= r.notFound {
		return nil, ethereum.NotFound
	}
	if r.err != nil {
		return nil, r.err
	}
	return &types.Receipt{Status: types.ReceiptStatusSuccessful}, nil
}

func TestReceipt(t *testing.T) {
	r := &receipts{notFound: 3}
	got, err := Receipt(t.Context(), r, common.Hash{1}, time.Minute)
	require.NoError(t, err)
	require.Equal(t, types.ReceiptStatusSuccessful, got.Status)
	require.Equal(t, 4, r.calls, "asked again after each not found")

	boom := errors.New("boom")
	_, err = Receipt(t.Context(), &receipts{notFound: 1, err: boom}, common.Hash{1}, time.Minute)
	require.ErrorIs(t, err, boom, "another error ends the wait")

	_, err = Receipt(t.Context(), &receipts{notFound: 1 << 30}, common.Hash{1}, 20*time.Millisecond)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "no receipt of 0x01")
}

// pricer suggests tip and has a head of base fee baseFee.
type pricer struct{ tip, baseFee int64 }

func (p pricer) SuggestGasTipCap(context.Context) (*big.Int, error) { return big.NewInt(p.tip), nil }

func (p pricer) HeaderByNumber(context.Context, *big.Int) (*types.Header, error) {
	return &types.Header{BaseFee: big.NewInt(p.baseFee)}, nil
}

func TestFees(t *testing.T) {
	tip, feeCap, err := Fees(t.Context(), pricer{tip: 3, baseFee: 100})
	require.NoError(t, err)
	require.Equal(t, int64(3), tip.Int64())
	require.Equal(t, int64(203), feeCap.Int64(), "twice the base fee plus the tip")
}
