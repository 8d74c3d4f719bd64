package processing_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

// TestEnsureVerified: a block is verified again unless its effects were computed on its parent of
// now; a block verified to no effects yet (nil) counts as not verified.
func TestEnsureVerified(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := 0
	verify := func(context.Context) error { calls++; return nil }
	var v processing.Verified[int]
	require.NoError(t, v.EnsureVerified(ctx, ids.ID{1}, verify))
	require.Equal(t, 1, calls, "never verified")
	v.Effs, v.On = []int{}, ids.ID{1}
	require.True(t, v.VerifiedOn(ids.ID{1}))
	require.NoError(t, v.EnsureVerified(ctx, ids.ID{1}, verify))
	require.Equal(t, 1, calls, "verified on its parent")
	require.NoError(t, v.EnsureVerified(ctx, ids.ID{2}, verify))
	require.Equal(t, 2, calls, "verified on another parent")
}
