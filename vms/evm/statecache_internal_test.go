package evm

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"
	"github.com/stretchr/testify/require"
)

// countingReader is a state.Reader over fixed accounts and slots that counts its reads.
type countingReader struct {
	state.Reader // nil: code is not read here
	accounts     map[common.Address]*types.StateAccount
	reads        int
}

func (r *countingReader) Account(addr common.Address) (*types.StateAccount, error) {
	r.reads++
	if a := r.accounts[addr]; a != nil {
		return a.Copy(), nil
	}
	return nil, nil
}

func (r *countingReader) Storage(addr common.Address, slot common.Hash) (common.Hash, error) {
	r.reads++
	return common.Hash{slot[31] + 1}, nil
}

// A cache reads each account and slot once, hands out accounts the caller may modify, and
// stops keeping entries at its bounds (reads past them still answer, from the reader).
func TestStateCache(t *testing.T) {
	t.Parallel()
	a := common.Address{1}
	inner := &countingReader{accounts: map[common.Address]*types.StateAccount{
		a: {Nonce: 7, Balance: uint256.NewInt(9), Root: types.EmptyRootHash, CodeHash: types.EmptyCodeHash[:]},
	}}
	c := newStateCache(common.Hash{0xaa}, inner)

	got, err := c.Account(a)
	require.NoError(t, err)
	got.Nonce, got.Balance = 8, uint256.NewInt(0)
	again, err := c.Account(a)
	require.NoError(t, err)
	require.Equal(t, uint64(7), again.Nonce, "the caller's copy is its own")
	require.Equal(t, uint64(9), again.Balance.Uint64())
	none, err := c.Account(common.Address{2})
	require.NoError(t, err)
	require.Nil(t, none)
	none, err = c.Account(common.Address{2})
	require.NoError(t, err)
	require.Nil(t, none)
	require.Equal(t, 2, inner.reads, "each account read once")

	for range 2 {
		v, err := c.Storage(a, common.Hash{31: 4})
		require.NoError(t, err)
		require.Equal(t, common.Hash{5}, v)
	}
	require.Equal(t, 3, inner.reads, "a slot read once")

	for i := range cachedSlots + 10 {
		_, err := c.Storage(common.Address{3}, common.BigToHash(uint256.NewInt(uint64(i)).ToBig()))
		require.NoError(t, err)
	}
	require.Len(t, c.slots, cachedSlots)
	for i := range cachedAccounts + 10 {
		_, err := c.Account(common.BigToAddress(uint256.NewInt(uint64(i) + 100).ToBig()))
		require.NoError(t, err)
	}
	require.Len(t, c.accounts, cachedAccounts)
}
