package evm_test

import (
	"math/big"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm"
)

// Reads of the head's state go through a cache of what they found (statecache.go); every
// change of the state is seen by the next read all the same: a developer method's edit, a
// roll-back to a snapshot, an accepted block, a call on an older block.
func TestHeadStateCacheFollowsTheState(t *testing.T) {
	t.Parallel()
	n := startNodeWith(t, filepath.Join(t.TempDir(), "db"), cChainGenesis(t), evm.Factory{Config: evm.Config{DevMethods: true}})
	ctx := t.Context()
	addr := common.HexToAddress("0x1000000000000000000000000000000000000001")
	balance := func() *big.Int {
		t.Helper()
		b, err := n.client.BalanceAt(ctx, addr, nil)
		require.NoError(t, err)
		return b
	}
	// BALANCE of addr, as a call sees it.
	code := common.FromHex("0x73" + addr.Hex()[2:] + "3160005260206000f3")
	callBalance := func(block *big.Int) *big.Int {
		t.Helper()
		var out hexutil.Bytes
		require.NoError(t, n.rpc.Call(&out, "eth_call", map[string]any{"data": hexutil.Bytes(code)}, toBlockArg(block)))
		return new(big.Int).SetBytes(out)
	}
	var null any
	require.Zero(t, balance().Sign())
	require.Zero(t, callBalance(nil).Sign())

	require.NoError(t, n.rpc.Call(&null, "anvil_setBalance", addr, "0x10"))
	require.Equal(t, big.NewInt(16), balance(), "an edit is seen at once")
	require.Equal(t, big.NewInt(16), callBalance(nil))

	var snap hexutil.Big
	require.NoError(t, n.rpc.Call(&snap, "evm_snapshot"))
	require.NoError(t, n.rpc.Call(&null, "anvil_setBalance", addr, "0x20"))
	require.NoError(t, n.rpc.Call(&null, "evm_mine"))
	require.Equal(t, big.NewInt(32), balance())
	var reverted bool
	require.NoError(t, n.rpc.Call(&reverted, "evm_revert", &snap))
	require.True(t, reverted)
	require.Equal(t, big.NewInt(16), balance(), "a roll-back is seen at once")
	require.Equal(t, big.NewInt(16), callBalance(nil))

	key := fundedKey(t)
	tx := signTx(t, n, key, 0, &addr, big.NewInt(5), 21_000, nil)
	require.NoError(t, n.client.SendTransaction(ctx, tx))
	r := waitReceipt(t, n, tx.Hash())
	require.Equal(t, big.NewInt(21), balance(), "an accepted block is seen at once")
	require.Equal(t, big.NewInt(21), callBalance(nil))
	require.Equal(t, big.NewInt(16), callBalance(new(big.Int).Sub(r.BlockNumber, big.NewInt(1))), "an older block is read as it was")
	require.Equal(t, big.NewInt(21), callBalance(nil))
}

// toBlockArg is a block parameter: latest for nil.
func toBlockArg(n *big.Int) string {
	if n == nil {
		return "latest"
	}
	return hexutil.EncodeBig(n)
}
