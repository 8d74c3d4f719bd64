package evm

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

// TestStageRollBackWrites pins the writes of a 1-block roll-back, as each costs the revert's
// commit about 2 µs (docs/benchmarks.md, "Then (branch rvgate2)"): the dropped block's records
// and its transaction's lookup, the head block's hash, and the root record of the block rolled
// back to only when it changes: none when it has none and keeps its header's root, a removal
// when it has one, a write when its root in effect differs. An accepted block writes the head
// block's hash, not go-ethereum's head header and fast-sync records, which nothing reads.
func TestStageRollBackWrites(t *testing.T) {
	t.Parallel()
	v := newTestVM(t)
	genesis := v.currentHead()
	headerHead := rawdb.ReadHeadHeaderHash(v.db)
	key, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(v.ChainID()), &types.DynamicFeeTx{
		ChainID: v.ChainID(), GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(100_000_000_000), Gas: 21_000, To: &to, Value: big.NewInt(1),
	})
	require.NoError(t, err)
	require.NoError(t, v.SendTx(tx))
	blk, err := v.BuildBlock(t.Context())
	require.NoError(t, err)
	v.accept(t, blk)
	head := v.currentHead()
	require.Equal(t, genesis.NumberU64()+1, head.NumberU64())
	require.Equal(t, head.Hash(), rawdb.ReadHeadBlockHash(v.db))
	require.Equal(t, headerHead, rawdb.ReadHeadHeaderHash(v.db), "the head header record is not written")

	// The dropped block's removal (dropCanonical: its transaction's lookup, six records of
	// go-ethereum's, its gas cost record), then the head block's hash.
	rec := &recordingWriter{}
	_, err = v.dropCanonical(rec, head.NumberU64(), head)
	require.NoError(t, err)
	require.Len(t, rec.ops, 8)
	const base = 9
	for _, c := range []struct {
		name     string
		root     common.Hash
		recorded bool
		want     int
	}{
		{"no root record", genesis.Root(), false, base},
		{"root record removed", genesis.Root(), true, base + 1},
		{"root record written", common.Hash{1}, false, base + 1},
	} {
		batch := v.kv.view.NewBatch()
		dropped, err := v.stageRollBack(batch, genesis, head, c.root, c.recorded)
		require.NoError(t, err, c.name)
		require.Len(t, dropped, 1, c.name)
		require.Equal(t, c.want, batch.Count(), c.name)
		batch.Close()
	}
}
