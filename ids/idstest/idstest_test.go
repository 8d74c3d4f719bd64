package idstest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids/idstest"
)

func TestParsers(t *testing.T) {
	t.Parallel()
	require.Equal(t, "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", idstest.Staker1.String())
	require.Equal(t, "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed", idstest.XChainID.String())
	require.Panics(t, func() { idstest.ID("nope") })
	require.Panics(t, func() { idstest.NodeID("NodeID-") })
}
