package evm

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
)

// TestProcessing drives VMs as a consensus engine would: one builds two blocks in a chain
// before either is accepted; another verifies both from their bytes, the child against its
// processing parent's state root, and a sibling of the parent, which it rejects once the parent
// is accepted.
func TestProcessing(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b, c := newTestVM(t), newTestVM(t), newTestVM(t)
	key, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	signer := types.LatestSignerForChainID(a.ChainID())
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	other := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	send := func(vm *testVM, nonce uint64, to common.Address, value int64) {
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{ChainID: a.ChainID(), Nonce: nonce,
			GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(100_000_000_000), Gas: 21_000, To: &to, Value: big.NewInt(value)})
		require.NoError(t, err)
		require.NoError(t, vm.SendTx(tx))
	}
	genesis := a.currentHead().Hash()

	send(a, 0, to, 5)
	b1, err := a.BuildBlock(ctx)
	require.NoError(t, err)
	require.NoError(t, b1.Verify(ctx))
	require.NoError(t, a.SetPreference(ctx, b1.ID()))
	send(a, 1, to, 7)
	b2, err := a.BuildBlock(ctx)
	require.NoError(t, err)
	require.Equal(t, b1.ID(), b2.Parent(), "built on the preferred, processing block")
	require.Len(t, b2.(*Block).eth.Transactions(), 1, "the parent's transaction stays out")
	require.NoError(t, b2.Verify(ctx))
	got, err := a.GetBlock(ctx, b2.ID())
	require.NoError(t, err)
	require.Same(t, b2, got)

	// BLOCKHASH in a child of b2 sees the processing ancestors.
	getHash := a.getHashOn(b2.(*Block), 3)
	require.Equal(t, common.Hash(b1.ID()), getHash(1))
	require.Equal(t, common.Hash(b2.ID()), getHash(2))
	require.Equal(t, genesis, getHash(0))

	// A sibling of b1, from another node: the same nonce, elsewhere.
	send(c, 0, other, 9)
	sib, err := c.BuildBlock(ctx)
	require.NoError(t, err)

	// Node b verifies all three from their bytes: b2 on b1's state.
	parse := func(blk chains.Block) chains.Block {
		p, err := b.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		require.NoError(t, p.Verify(ctx))
		again, err := b.ParseBlock(ctx, blk.Bytes())
		require.NoError(t, err)
		require.Same(t, p, again, "a processing block parses to itself")
		return p
	}
	pb1, psib, pb2 := parse(b1), parse(sib), parse(b2)
	_, err = b.stateAt(pb2.(*Block).eth.Root())
	require.Error(t, err, "nothing of a processing block is committed")

	b.accept(t, pb1)
	require.NoError(t, psib.Reject(ctx))
	_, err = b.GetBlock(ctx, psib.ID())
	require.ErrorIs(t, err, chains.ErrBlockNotFound, "a rejected block is forgotten")
	b.accept(t, pb2)
	a.accept(t, b1)
	a.accept(t, b2)
	for _, vm := range []*testVM{a, b} {
		require.Equal(t, common.Hash(b2.ID()), vm.currentHead().Hash())
		st, err := vm.stateAt(vm.currentHead().Root())
		require.NoError(t, err)
		require.Equal(t, uint64(12), st.GetBalance(to).Uint64())
		require.Zero(t, st.GetBalance(other).Uint64())
	}
}
