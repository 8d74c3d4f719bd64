package solo_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
)

// The tests run a chain under the solo engine in a chainstest.Env, in synctest bubbles:
// synctest.Wait returns once the engine has nothing left to do, and time is virtual.

var (
	chainA  = ids.FromName("chain A")
	errBoom = errors.New("boom")
)

func newEnv(t *testing.T) *chainstest.Env {
	return chainstest.NewEnv(t, filepath.Join(t.TempDir(), "db"), nil, nil)
}

func tx(key, value string) []*chainstest.Tx { return []*chainstest.Tx{chainstest.NewTx(key, value)} }

// Start goes through Bootstrapping to NormalOperation at once: with no other validator there is
// nothing to catch up.
func TestStart(t *testing.T) {
	t.Parallel()
	var states []chains.State
	e := solo.New(chains.EngineContext{SetState: func(s chains.State) error {
		states = append(states, s)
		return nil
	}})
	require.NoError(t, e.Start(t.Context()))
	require.Equal(t, []chains.State{chains.Bootstrapping, chains.NormalOperation}, states)

	e = solo.New(chains.EngineContext{SetState: func(chains.State) error { return errBoom }})
	require.ErrorIs(t, e.Start(t.Context()), errBoom)
}

// A built block is preferred, then accepted: the VM's preference follows the chain.
func TestPrefersWhatItAccepts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		defer e.Close()
		vm := e.Create(chainA, nil)
		require.NoError(t, vm.SubmitBlocks(tx("a", "1"), tx("b", "2")))
		synctest.Wait()
		e.RequireHeight(chainA, 2)
		first, err := vm.GetBlockIDAtHeight(t.Context(), 1)
		require.NoError(t, err)
		second, err := vm.GetBlock(t.Context(), vm.LastAcceptedBlock().ID())
		require.NoError(t, err)
		require.Equal(t, first, second.Parent(), "each block is built on the one accepted before")
		require.False(t, vm.Processing(first))
	})
}

func TestVerifyFailureDrops(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		defer e.Close()
		vm := e.Create(chainA, nil)
		var verified atomic.Int32
		vm.VerifyF = func(_ context.Context, b *chainstest.Block) error {
			verified.Add(1)
			if b.Transactions()[0].Value == "bad" {
				return errBoom
			}
			return nil
		}
		synctest.Wait() // the start-up attempt is done
		// Two blocks pending, one signal: after the first fails, the engine waits for the next
		// signal.
		require.NoError(t, vm.SubmitBlocks(tx("k", "bad"), tx("k", "good")))
		synctest.Wait()
		e.RequireHeight(chainA, 0)
		require.Equal(t, int32(1), verified.Load(), "no retry until the VM signals")
		_, err := e.Manager.Health(t.Context(), chainA)
		require.NoError(t, err, "a dropped block does not halt the chain")

		require.NoError(t, vm.Submit(tx("k2", "later")...))
		synctest.Wait()
		e.RequireHeight(chainA, 2)
		vm.RequireState(t, "k", "good")
	})
}

func TestBuildErrorWaits(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		defer e.Close()
		var calls atomic.Int32
		e.Setup = func(vm *chainstest.VM) {
			vm.BuildBlockF = func(ctx context.Context) (chains.Block, error) {
				if calls.Add(1) == 2 {
					return nil, errBoom
				}
				return vm.Build(ctx)
			}
		}
		vm := e.Create(chainA, nil)
		synctest.Wait() // call 1: the start-up attempt, no work
		require.NoError(t, vm.Submit(tx("k", "1")...))
		synctest.Wait()
		e.RequireHeight(chainA, 0) // call 2 failed: wait for a signal
		require.NoError(t, vm.Submit(tx("k", "2")...))
		synctest.Wait()
		e.RequireHeight(chainA, 2)
	})
}

func TestWorkPendingAtStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		defer e.Close()
		// The VM has work before the engine starts, and its signal is lost.
		e.Setup = func(vm *chainstest.VM) {
			require.NoError(t, vm.Submit(tx("k", "restored")...))
			<-vm.WorkReady()
		}
		e.Create(chainA, nil)
		synctest.Wait()
		e.RequireHeight(chainA, 1)
	})
}

func TestMinBlockGap(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		clk := clock.Real{}
		e := newEnv(t)
		defer e.Close()
		const gap = 2 * time.Second
		vm := e.Create(chainA, func(s *chains.Spec) { s.MinBlockGap = gap })
		start := clk.Now()
		var at chainstest.Recorder[time.Duration]
		e.Manager.Subscribe(chainA, func(chains.Block) { at.Add(clk.Now().Sub(start)) })

		require.NoError(t, vm.SubmitBlocks(tx("k", "1"), tx("k", "2"), tx("k", "3")))
		synctest.Wait()
		require.Equal(t, []time.Duration{0}, at.Get(), "the first block at once")
		time.Sleep(gap - time.Millisecond)
		synctest.Wait()
		require.Len(t, at.Get(), 1, "not before the gap")
		time.Sleep(time.Millisecond)
		synctest.Wait()
		require.Equal(t, []time.Duration{0, gap}, at.Get())
		time.Sleep(gap)
		synctest.Wait()
		require.Equal(t, []time.Duration{0, gap, 2 * gap}, at.Get())

		// Long after the last block: the next one is built at once.
		time.Sleep(time.Minute)
		require.NoError(t, vm.Submit(tx("k", "4")...))
		synctest.Wait()
		require.Equal(t, []time.Duration{0, gap, 2 * gap, 2*gap + time.Minute}, at.Get())
	})
}
