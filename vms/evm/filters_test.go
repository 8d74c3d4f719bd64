package evm

import (
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
)

func TestFilterExpiry(t *testing.T) {
	t.Parallel()
	c := clock.NewFake(time.Unix(1_700_000_000, 0))
	fs := newFilterSystem(c, filterTimeout)
	polled := fs.install(&installedFilter{kind: blocksFilter})
	idle := fs.install(&installedFilter{kind: pendingTxFilter})

	// Polling keeps a filter alive; an idle one goes after 5 minutes.
	for range 3 {
		c.Advance(4 * time.Minute)
		_, err := fs.take(polled)
		require.NoError(t, err)
	}
	_, err := fs.take(idle)
	require.ErrorIs(t, err, errFilterNotFound)

	// Events reach the filter while it lives, and an expired filter stops
	// collecting: the next use drops it.
	fs.onHead(common.Hash{1}, 1, nil)
	c.Advance(filterTimeout)
	fs.onHead(common.Hash{2}, 2, nil)
	_, err = fs.take(polled)
	require.ErrorIs(t, err, errFilterNotFound)
	require.False(t, fs.uninstall(polled))
	require.Empty(t, fs.filters)
}

func TestFilterDelivery(t *testing.T) {
	t.Parallel()
	fs := newFilterSystem(clock.NewFake(time.Unix(0, 0)), filterTimeout)
	addr := common.Address{0xaa}
	topic := common.Hash{0x42}
	two := rpc.BlockNumber(2)
	byAddr := fs.install(&installedFilter{kind: logsFilter, crit: filterCriteria{Addresses: []common.Address{addr}}})
	byTopic := fs.install(&installedFilter{kind: logsFilter, crit: filterCriteria{Topics: [][]common.Hash{nil, {topic}}}})
	upTo2 := fs.install(&installedFilter{kind: logsFilter, crit: filterCriteria{ToBlock: &two}})
	blocks := fs.install(&installedFilter{kind: blocksFilter})
	pending := fs.install(&installedFilter{kind: pendingTxFilter})

	l1 := &types.Log{Address: addr, Topics: []common.Hash{{1}, topic}, BlockNumber: 2}
	l2 := &types.Log{Address: common.Address{0xbb}, Topics: []common.Hash{topic}, BlockNumber: 3}
	fs.onHead(common.Hash{2}, 2, []*types.Log{l1})
	fs.onHead(common.Hash{3}, 3, []*types.Log{l2})
	fs.onPending(common.Hash{9})

	tests := []struct {
		name       string
		id         rpc.ID
		wantLogs   []*types.Log
		wantHashes []common.Hash
	}{
		{"address", byAddr, []*types.Log{l1}, nil},
		{"topic at position 1", byTopic, []*types.Log{l1}, nil},
		{"numeric toBlock", upTo2, []*types.Log{l1}, nil},
		{"blocks", blocks, nil, []common.Hash{{2}, {3}}},
		{"pending", pending, nil, []common.Hash{{9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := fs.take(tt.id)
			require.NoError(t, err)
			require.Equal(t, tt.wantLogs, f.logs)
			require.Equal(t, tt.wantHashes, f.hashes)
			// Taking empties the filter.
			f, err = fs.take(tt.id)
			require.NoError(t, err)
			require.Empty(t, f.logs)
			require.Empty(t, f.hashes)
		})
	}
}

func TestLogsBlockRangeCapDefault(t *testing.T) {
	t.Parallel()
	require.Equal(t, DefaultLogsBlockRangeCap, Config{}.withDefaults().LogsBlockRangeCap)
	require.Equal(t, -1, Config{LogsBlockRangeCap: -1}.withDefaults().LogsBlockRangeCap)
}

func TestLogsBound(t *testing.T) {
	t.Parallel()
	n := func(v rpc.BlockNumber) *rpc.BlockNumber { return &v }
	tests := []struct {
		name string
		n    *rpc.BlockNumber
		want uint64
	}{
		{"absent", nil, 10},
		{"latest", n(rpc.LatestBlockNumber), 10},
		{"pending", n(rpc.PendingBlockNumber), 10},
		{"finalized", n(rpc.FinalizedBlockNumber), 10},
		{"safe", n(rpc.SafeBlockNumber), 10},
		{"earliest", n(rpc.EarliestBlockNumber), 0},
		{"number", n(7), 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, logsBound(tt.n, 10))
		})
	}
}
