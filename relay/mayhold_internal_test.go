package relay

import (
	"log/slog"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm/precompile"
)

// TestMayHold: a new head is scanned at once when its bloom may hold a message (either event's
// topic), when the relay has not looked at the chain yet, and when the chain was rolled back
// below the mark; a head without a message at or above the mark waits for the next scan.
func TestMayHold(t *testing.T) {
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	r := &Relay{cfg: Config{DB: db.Prefixed(storage.PrefixRelay)}}
	c := &chain{id: ids.ID{7}}
	head := func(n uint64, topics ...common.Hash) *types.Header {
		h := &types.Header{Number: new(big.Int).SetUint64(n)}
		for _, topic := range topics {
			h.Bloom.Add(topic.Bytes())
		}
		return h
	}
	require.True(t, r.mayHold(c, head(5)), "first look")
	require.NoError(t, r.setMark(c.id, mark{height: 10}))
	require.False(t, r.mayHold(c, head(11)), "an empty block above the mark")
	require.False(t, r.mayHold(c, head(40, common.Hash{1})), "another event's topic")
	require.True(t, r.mayHold(c, head(11, precompile.SendWarpMessageTopic())), "a warp message")
	require.True(t, r.mayHold(c, head(11, icm.SendCrossChainMessageTopic())), "a Teleporter message")
	require.False(t, r.mayHold(c, head(10)), "an empty block at the mark, after a roll-back")
	require.True(t, r.mayHold(c, head(9)), "rolled back below the mark")
	require.True(t, r.mayHold(c, head(3)), "rolled back below the mark")
}
