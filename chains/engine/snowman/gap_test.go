package snowman

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
)

// With a minimum gap between blocks, the engine builds one block, then waits for the gap before
// the next: BuildAt says when (§2.8).
func TestMinBlockGap(t *testing.T) {
	ctx := t.Context()
	vm := newTestVM()
	clk := clock.NewFake(time.Unix(1000, 0))
	d := testDeps(vm, &recordingSender{}, validators{ids.NodeID{1}: 20})
	d.Clock = clk
	e := newEngine(t, Config{Params: consensus.DefaultParameters(), MinBlockGap: time.Hour}, d)
	_, waiting := e.BuildAt()
	require.False(t, waiting)

	vm.work = 2
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 1, e.NumProcessing())
	at, waiting := e.BuildAt()
	require.True(t, waiting)
	require.Equal(t, time.Unix(1000, 0).Add(time.Hour), at)

	clk.Advance(time.Hour - time.Second)
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 1, e.NumProcessing(), "not yet")
	clk.Advance(time.Second)
	require.NoError(t, e.Build(ctx))
	require.Equal(t, 2, e.NumProcessing())
}
