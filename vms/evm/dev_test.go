package evm_test

import (
	"encoding/json"
	"log/slog"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm"
)

// Every state edit of a developer method is appended to the chain's edit log in its database
// (docs/decisions.md, "Developer methods"): a later reader finds the method, its parameters,
// the block and the state roots before and after.
func TestDevEditLog(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	n := startNodeWith(t, dir, cChainGenesis(t), evm.Factory{Config: evm.Config{DevMethods: true}})
	addr := common.HexToAddress("0x1000000000000000000000000000000000000001")
	var null any
	require.NoError(t, n.rpc.Call(&null, "anvil_setBalance", addr, "0x10"))
	require.NoError(t, n.rpc.Call(&null, "hardhat_setNonce", addr, 3))
	balance, err := n.client.BalanceAt(t.Context(), addr, nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(16), balance)
	n.stop()

	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer db.Close()
	prefix := append(append([]byte{}, cChainID[:]...), "cornice-dev-log-"...)
	it, err := db.Prefixed(storage.PrefixEVM).NewIterator(prefix, nil)
	require.NoError(t, err)
	type edit struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Block  uint64          `json:"block"`
		From   common.Hash     `json:"fromRoot"`
		To     common.Hash     `json:"toRoot"`
	}
	var edits []edit
	for it.Next() {
		var e edit
		require.NoError(t, json.Unmarshal(it.Value(), &e))
		edits = append(edits, e)
	}
	require.NoError(t, it.Err())
	require.NoError(t, it.Close())
	require.Len(t, edits, 2)
	require.Equal(t, "setBalance", edits[0].Method)
	require.JSONEq(t, `["0x1000000000000000000000000000000000000001","0x10"]`, string(edits[0].Params))
	require.Equal(t, "setNonce", edits[1].Method)
	require.Equal(t, edits[0].To, edits[1].From, "each edit starts where the one before ended")
	require.NotEqual(t, edits[1].From, edits[1].To)
	require.Zero(t, edits[1].Block)
}
