package mempool_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/internal/mempool"
)

// TestIntake checks that the builder is woken only for a tx the mempool took, that pushed txs
// are parsed and counted, and that only what PushTx is given reaches the gossip.
func TestIntake(t *testing.T) {
	t.Parallel()
	var added []int
	signals := 0
	in := mempool.NewIntake(
		func(b []byte) (int, error) { return strconv.Atoi(string(b)) },
		func(tx int) error {
			if tx < 0 {
				return errors.New("negative")
			}
			added = append(added, tx)
			return nil
		},
		func() { signals++ },
	)
	require.NoError(t, in.IssueTx(1))
	require.Error(t, in.IssueTx(-1))
	require.Equal(t, 1, signals, "a refused tx wakes no builder")

	var pushed []string
	in.PushTx([]byte("lost")) // no gossip set yet: nowhere
	in.SetTxGossip(func(b []byte) { pushed = append(pushed, string(b)) })
	require.Equal(t, 2, in.GossipTxs([][]byte{[]byte("2"), []byte("x"), []byte("-3"), []byte("4")}))
	require.Equal(t, []int{1, 2, 4}, added)
	require.Empty(t, pushed, "gossiped txs are not pushed on")
	in.PushTx([]byte("5"))
	require.Equal(t, []string{"5"}, pushed)
}
