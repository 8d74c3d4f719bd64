package evm_test

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm"
)

// TestDevSnapshotCanonical pins the invariant a roll-back relies on instead of checking it
// (dev.go, rollBack): while a snapshot ID is live, its block is on the chain (canonical at its
// height, at or below the head). A seeded random run of snapshots, mines of one and of a few
// blocks, reverts to live, gone and unknown IDs and resets checks, after every step, each live
// snapshot that anvil_metadata lists against the chain, and that a revert to a live ID answers
// true and leaves its block the head, any other false with the chain unchanged.
func TestDevSnapshotCanonical(t *testing.T) {
	t.Parallel()
	n := startNodeWith(t, filepath.Join(t.TempDir(), "a"), cChainGenesis(t), evm.Factory{Config: evm.Config{DevMethods: true}})
	rng := rand.New(rand.NewPCG(16, 2))
	head := func() *types.Header {
		h, err := n.client.HeaderByNumber(t.Context(), nil)
		require.NoError(t, err)
		return h
	}
	// live returns the snapshots the node holds, ID → block hash, each checked against the chain.
	live := func() map[hexutil.Uint64]common.Hash {
		var meta struct {
			Snapshots map[string][2]json.RawMessage `json:"snapshots"`
		}
		require.NoError(t, n.rpc.Call(&meta, "anvil_metadata"))
		top := head().Number.Uint64()
		out := make(map[hexutil.Uint64]common.Hash, len(meta.Snapshots))
		for id, s := range meta.Snapshots {
			var height uint64
			var hash common.Hash
			require.NoError(t, json.Unmarshal(s[0], &height))
			require.NoError(t, json.Unmarshal(s[1], &hash))
			require.LessOrEqual(t, height, top, "snapshot %s above the head", id)
			h, err := n.client.HeaderByNumber(t.Context(), new(big.Int).SetUint64(height))
			require.NoError(t, err)
			require.Equal(t, hash, h.Hash(), "snapshot %s's block is not canonical", id)
			out[hexutil.Uint64(hexutil.MustDecodeUint64(id))] = hash
		}
		return out
	}
	var taken []hexutil.Uint64
	for range 150 {
		switch p := rng.IntN(100); {
		case p < 30:
			var id hexutil.Uint64
			require.NoError(t, n.rpc.Call(&id, "evm_snapshot"))
			taken = append(taken, id)
		case p < 55:
			require.NoError(t, n.rpc.Call(nil, "evm_mine"))
		case p < 65:
			require.NoError(t, n.rpc.Call(nil, "anvil_mine", hexutil.Uint64(2+rng.IntN(3))))
		case p < 95:
			id := hexutil.Uint64(1 << 40) // unknown
			if len(taken) > 0 && rng.IntN(10) > 0 {
				id = taken[rng.IntN(len(taken))]
			}
			before, was := live(), head().Hash()
			want, isLive := before[id]
			var ok bool
			require.NoError(t, n.rpc.Call(&ok, "evm_revert", id))
			require.Equal(t, isLive, ok, "revert to %s", id)
			if !isLive {
				want = was
			}
			require.Equal(t, want, head().Hash(), "head after the revert to %s", id)
		default:
			require.NoError(t, n.rpc.Call(nil, "anvil_reset"))
			require.Empty(t, live())
		}
		live()
	}
}
