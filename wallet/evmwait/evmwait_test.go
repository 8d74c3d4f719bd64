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
	"github.com/ethereum/go-ethereum/crypto"
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

// chain is a chain whose pending nonce is nonce and whose receipts have status; it keeps what
// it is sent, and refuses it with sendErr.
type chain struct {
	pricer
	nonce   uint64
	status  uint64
	sendErr error
	sent    []*types.Transaction
}

func (c *chain) PendingNonceAt(context.Context, common.Address) (uint64, error) { return c.nonce, nil }

func (c *chain) SendTransaction(_ context.Context, tx *types.Transaction) error {
	if c.sendErr != nil {
		return c.sendErr
	}
	c.sent = append(c.sent, tx)
	return nil
}

func (c *chain) TransactionReceipt(_ context.Context, h common.Hash) (*types.Receipt, error) {
	for _, tx := range c.sent {
		if tx.Hash() == h {
			return &types.Receipt{Status: c.status, TxHash: h, BlockNumber: big.NewInt(1)}, nil
		}
	}
	return nil, ethereum.NotFound
}

func TestTransact(t *testing.T) {
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	chainID := big.NewInt(43112)
	to := common.HexToAddress("0x0200000000000000000000000000000000000002")
	call := Call{
		To: &to, Data: []byte{1, 2}, Value: big.NewInt(5), Gas: 50_000,
		AccessList: types.AccessList{{Address: to, StorageKeys: []common.Hash{{7}}}},
	}

	c := &chain{pricer: pricer{tip: 3, baseFee: 100}, nonce: 7, status: types.ReceiptStatusSuccessful}
	r, err := Transact(t.Context(), c, key, chainID, call, time.Minute)
	require.NoError(t, err)
	require.Len(t, c.sent, 1)
	tx := c.sent[0]
	require.Equal(t, tx.Hash(), r.TxHash)
	require.Equal(t, uint8(types.DynamicFeeTxType), tx.Type())
	require.Equal(t, uint64(7), tx.Nonce(), "the pending nonce")
	require.Equal(t, int64(3), tx.GasTipCap().Int64())
	require.Equal(t, int64(203), tx.GasFeeCap().Int64(), "Fees")
	require.Equal(t, chainID, tx.ChainId())
	require.Equal(t, &to, tx.To())
	require.Equal(t, call.Data, tx.Data())
	require.Equal(t, call.Value, tx.Value())
	require.Equal(t, call.Gas, tx.Gas())
	require.Equal(t, call.AccessList, tx.AccessList())
	from, err := types.Sender(types.LatestSignerForChainID(chainID), tx)
	require.NoError(t, err)
	require.Equal(t, crypto.PubkeyToAddress(key.PublicKey), from, "signed by the key")

	c = &chain{pricer: pricer{tip: 3, baseFee: 100}, status: types.ReceiptStatusFailed}
	r, err = Transact(t.Context(), c, key, chainID, call, time.Minute)
	require.ErrorIs(t, err, ErrReverted)
	require.NotNil(t, r, "a reverted transaction's receipt is returned")

	boom := errors.New("boom")
	_, err = Transact(t.Context(), &chain{pricer: pricer{tip: 3, baseFee: 100}, sendErr: boom}, key, chainID, call, time.Minute)
	require.ErrorIs(t, err, boom)
}
