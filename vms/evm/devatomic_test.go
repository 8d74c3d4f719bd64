package evm_test

import (
	"crypto/rand"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/wallet"
)

// TestDevRevertAtomic: a roll-back below a block that carries atomic txs is refused, and stays
// refused after a restart (the VM keeps the highest such height in memory and reads it again
// from the records at start); a roll-back that keeps that block goes through.
func TestDevRevertAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := atomicConfig()
	cfg.DevMethods = true
	n := startNodeConfig(t, dir, cChainGenesis(t), cfg)
	priv, err := crypto.GenerateKey()
	require.NoError(t, err)
	alice := wallet.NewKey(priv)
	b := wallet.CBuilder{NetworkID: 12345, ChainID: cChainID, AVAXAssetID: avaxAssetID}

	var below hexutil.Uint64
	require.NoError(t, n.rpc.Call(&below, "evm_snapshot"))
	var txID ids.ID
	_, err = rand.Read(txID[:])
	require.NoError(t, err)
	ux := exportFromX(t, n.db, cChainID, txID, 5_000_000_000, alice.Address())
	imp, err := b.Import(alice, xChainID, []*xtxs.UTXO{ux}, alice.EthAddress(), atomicBaseFee)
	require.NoError(t, err)
	atomicHeight := issueAndAccept(t, n, imp)
	head, err := n.client.BlockNumber(t.Context())
	require.NoError(t, err)

	refused := func(n *node, method string, params ...any) {
		t.Helper()
		var ok bool
		err := n.rpc.Call(&ok, method, params...)
		require.ErrorContains(t, err, "cannot roll back past block "+atomicHeight+": it carries atomic txs")
		got, err := n.client.BlockNumber(t.Context())
		require.NoError(t, err)
		require.Equal(t, head, got, "a refused roll-back changed the chain")
	}
	refused(n, "evm_revert", below)

	// Above the atomic block a snapshot and a revert go through.
	var above hexutil.Uint64
	require.NoError(t, n.rpc.Call(&above, "evm_snapshot"))
	require.NoError(t, n.rpc.Call(nil, "evm_mine"))
	var ok bool
	require.NoError(t, n.rpc.Call(&ok, "evm_revert", above))
	require.True(t, ok)
	got, err := n.client.BlockNumber(t.Context())
	require.NoError(t, err)
	require.Equal(t, head, got)

	// After a restart the snapshots are gone; a reset to genesis is a roll-back below it too.
	n.stop()
	n = startNodeConfig(t, dir, cChainGenesis(t), cfg)
	refused(n, "anvil_reset")
}
