package node

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/validators"
)

// The router's chain weights are read once per chain and validator-set version: a change of
// weights is seen at the next call, and a chain whose subnet is unknown is asked again.
func TestChainWeights(t *testing.T) {
	t.Parallel()
	chainA, chainB, unknown := ids.ID{0xa}, ids.ID{0xb}, ids.ID{0xc}
	subnetA, subnetB := ids.ID{0x1a}, ids.ID{0x1b}
	n1, n2, n3 := ids.NodeID{1}, ids.NodeID{2}, ids.NodeID{3}
	set := validators.New()
	asked := map[ids.ID]int{}
	w := newChainWeights(set, func(chainID ids.ID) (ids.ID, error) {
		asked[chainID]++
		switch chainID {
		case chainA:
			return subnetA, nil
		case chainB:
			return subnetB, nil
		}
		return ids.Empty, errors.New("unknown chain")
	})
	weights := func(chainID ids.ID, nodeID ids.NodeID) [2]uint64 {
		weight, total := w.Weights(chainID, nodeID)
		return [2]uint64{weight, total}
	}

	require.NoError(t, setWeights(set, subnetA, map[ids.NodeID]uint64{n1: 10, n2: 30}))
	require.NoError(t, setWeights(set, subnetB, map[ids.NodeID]uint64{n3: 7}))
	require.Equal(t, [2]uint64{10, 40}, weights(chainA, n1))
	require.Equal(t, [2]uint64{30, 40}, weights(chainA, n2))
	require.Equal(t, [2]uint64{0, 40}, weights(chainA, n3))
	require.Equal(t, [2]uint64{7, 7}, weights(chainB, n3))
	require.Equal(t, [2]uint64{10, 40}, weights(chainA, n1))
	require.Equal(t, map[ids.ID]int{chainA: 1, chainB: 1}, asked, "read once per chain")

	// A change of one subnet's weights (n2 leaves, n3 joins, n1 grows) is seen at once.
	require.NoError(t, setWeights(set, subnetA, map[ids.NodeID]uint64{n1: 25, n3: 5}))
	require.Equal(t, [2]uint64{25, 30}, weights(chainA, n1))
	require.Equal(t, [2]uint64{0, 30}, weights(chainA, n2))
	require.Equal(t, [2]uint64{5, 30}, weights(chainA, n3))
	require.Equal(t, [2]uint64{7, 7}, weights(chainB, n3))
	require.Equal(t, map[ids.ID]int{chainA: 2, chainB: 2}, asked, "read again after the change, once")

	require.Equal(t, [2]uint64{0, 0}, weights(unknown, n1))
	require.Equal(t, [2]uint64{0, 0}, weights(unknown, n1))
	require.Equal(t, 2, asked[unknown], "an unknown chain is not cached")
}
