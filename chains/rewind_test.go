package chains_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/storage"
)

// truncater is an Indexer that records what Rewind and Purge ask it to truncate and forget.
type truncater struct{ from, dropped, forgotten []ids.ID }

func (*truncater) Accept(context.Context, *storage.Batch, ids.ID, chains.Container, []chains.Container) error {
	return nil
}

func (x *truncater) Truncate(_ context.Context, _ *storage.Batch, _ ids.ID, from ids.ID, dropped []ids.ID) (int, error) {
	x.from = append(x.from, from)
	x.dropped = append(x.dropped, dropped...)
	return 1, nil
}

func (x *truncater) Forget(_ context.Context, _ *storage.Batch, _ ids.ID, dropped []ids.ID) error {
	x.forgotten = append(x.forgotten, dropped...)
	return nil
}

// plainIndexer is an Indexer that cannot truncate.
type plainIndexer struct{}

func (plainIndexer) Accept(context.Context, *storage.Batch, ids.ID, chains.Container, []chains.Container) error {
	return nil
}

// createWithContext creates chainA in e and returns the chains.Context its VM was given, whose
// Rewind and Purge these tests call as the VM would.
func createWithContext(t *testing.T, e *chainstest.Env) chains.Context {
	t.Helper()
	var got chains.Context
	spec := e.Spec(chainA)
	inner := spec.Factory
	spec.Factory = chains.FactoryFunc(func(ctx context.Context, c chains.Context) (chains.VM, error) {
		got = c
		return inner.New(ctx, c)
	})
	require.NoError(t, e.Manager.Create(t.Context(), spec))
	return got
}

// idAt returns the ID of vm's block at height h.
func idAt(t *testing.T, vm *chainstest.VM, h uint64) ids.ID {
	t.Helper()
	id, err := vm.GetBlockIDAtHeight(t.Context(), h)
	require.NoError(t, err)
	return id
}

// blockOf returns vm's block id.
func blockOf(t *testing.T, vm *chainstest.VM, id ids.ID) chains.Block {
	t.Helper()
	blk, err := vm.GetBlock(t.Context(), id)
	require.NoError(t, err)
	return blk
}

// threeBlocks starts chainA in dir, indexed by x, and accepts three blocks on it; it returns the
// environment, the chain's Rewind and its VM. Call it inside a synctest bubble.
func threeBlocks(t *testing.T, dir string, x *truncater) (*chainstest.Env, func(context.Context, chains.Rewind) error, *chainstest.VM) {
	t.Helper()
	e := chainstest.NewEnv(t, dir, x, nil)
	rewind := createWithContext(t, e).Rewind
	vm := e.VM(chainA)
	require.NoError(t, vm.SubmitBlocks(oneTx("a", "1"), oneTx("b", "2"), oneTx("c", "3")))
	synctest.Wait()
	e.RequireHeight(chainA, 3)
	return e, rewind, vm
}

// rewindToFirst rolls vm's chain back to its block at height 1 through rewind, as the VM would:
// the pointer to it goes in the batch. It returns that block.
func rewindToFirst(t *testing.T, rewind func(context.Context, chains.Rewind) error, vm *chainstest.VM, unsynced bool) chains.Block {
	t.Helper()
	first, second := idAt(t, vm, 1), idAt(t, vm, 2)
	to := blockOf(t, vm, first)
	require.NoError(t, rewind(t.Context(), chains.Rewind{To: to, FirstDropped: second, Unsynced: unsynced, Stage: func(b *storage.Batch) ([]ids.ID, error) {
		return []ids.ID{second}, vm.View().Wrap(b).Put(chainstest.LastKey(), first[:])
	}}))
	return to
}

// requireRestartsAt opens the database in dir again and checks that chainA comes back at height.
func requireRestartsAt(t *testing.T, dir string, x *truncater, height uint64) {
	t.Helper()
	e := chainstest.NewEnv(t, dir, x, nil)
	defer e.Close()
	e.Create(chainA, nil)
	e.RequireHeight(chainA, height)
}

// A VM rolls its chain back through chains.Context.Rewind (issue #16 §2): its drops, the index's
// truncation and the last-accepted pointer go into one batch, the acceptor then names the target
// block, and a restart finds the chain there.
func TestRewind(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		x := &truncater{}
		e, rewind, vm := threeBlocks(t, dir, x)
		first, second := idAt(t, vm, 1), idAt(t, vm, 2)

		lastTime := func(id ids.ID) {
			t.Helper()
			got, ok := e.Manager.LastAcceptedTime(chainA)
			require.True(t, ok)
			require.Equal(t, blockOf(t, vm, id).Timestamp(), got)
		}
		lastTime(idAt(t, vm, 3))

		err := rewind(t.Context(), chains.Rewind{To: blockOf(t, vm, idAt(t, vm, 3)), Stage: func(*storage.Batch) ([]ids.ID, error) { return nil, nil }})
		require.ErrorContains(t, err, "not below the last accepted height 3")

		rewindToFirst(t, rewind, vm, false)
		require.Equal(t, []ids.ID{second}, x.from)
		require.Equal(t, []ids.ID{second}, x.dropped, "the IDs the VM dropped in the batch")
		lastID, height, ok := e.Manager.LastAccepted(chainA)
		require.True(t, ok)
		require.Equal(t, first, lastID)
		require.Equal(t, uint64(1), height)
		lastTime(first)
		e.Close()

		requireRestartsAt(t, dir, x, 1)
	})
}

// A roll-back made with Rewind.Unsynced is answered once staged: Rewind returns before its
// commit, and every read that begins then sees it, applying the staged batch itself
// (docs/decisions.md, "A roll-back answers before its commit"). It is synced in the background
// within RewindSyncDelay of the answer ("A roll-back answers before its sync"); a restart then
// finds the chain rolled back.
func TestRewindUnsynced(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		x := &truncater{}
		e, rewind, vm := threeBlocks(t, dir, x)
		first := idAt(t, vm, 1)
		require.False(t, e.DB.Unsynced())

		rewindToFirst(t, rewind, vm, true)
		require.False(t, e.DB.Unsynced(), "answered with the batch staged, not applied")
		_, height, ok := e.Manager.LastAccepted(chainA)
		require.True(t, ok)
		require.Equal(t, uint64(1), height)
		got, err := vm.View().Get(chainstest.LastKey())
		require.NoError(t, err, "a read with the roll-back staged applies it")
		require.Equal(t, first[:], got)
		require.True(t, e.DB.Unsynced(), "applied by the read, not synced")
		id, h, found, err := chains.LoadPointer(e.Manager, chainA)
		require.NoError(t, err)
		require.True(t, found)
		require.Equal(t, first, id)
		require.Equal(t, uint64(1), h)
		time.Sleep(chains.RewindSyncDelay - time.Nanosecond)
		synctest.Wait()
		require.True(t, e.DB.Unsynced(), "no sync before the delay")
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		require.False(t, e.DB.Unsynced(), "synced once the delay is over")
		e.Close()

		requireRestartsAt(t, dir, x, 1)
	})
}

// A roll-back made with Rewind.Unsynced that nothing reads is applied and synced by the
// background sync, within RewindSyncDelay of the answer.
func TestRewindUnsyncedAppliedBySync(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		x := &truncater{}
		e, rewind, vm := threeBlocks(t, dir, x)
		rewindToFirst(t, rewind, vm, true)
		time.Sleep(chains.RewindSyncDelay)
		synctest.Wait()
		require.False(t, e.DB.Unsynced(), "applied and synced")
		// A process crash now: the database as it is on disk, without Close's flush.
		snap := filepath.Join(t.TempDir(), "crash")
		require.NoError(t, os.CopyFS(snap, os.DirFS(dir)))
		e.Close()

		requireRestartsAt(t, snap, x, 1)
	})
}

// A staged roll-back's log line is written when the batch is applied, so before any later line
// of the chain: the next block's commit applies it first, and "block accepted" comes after.
func TestRewindUnsyncedLogsBeforeNextBlock(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var logs nodetest.Buffer
		e := chainstest.NewEnvLog(t, filepath.Join(t.TempDir(), "db"), &truncater{}, nil, slog.New(slog.NewTextHandler(&logs, nil)))
		defer e.Close()
		rewind := createWithContext(t, e).Rewind
		vm := e.VM(chainA)
		require.NoError(t, vm.SubmitBlocks(oneTx("a", "1"), oneTx("b", "2"), oneTx("c", "3")))
		synctest.Wait()
		e.RequireHeight(chainA, 3)
		mark := len(logs.String())
		to := rewindToFirst(t, rewind, vm, true)
		vm.Follow(to.(*chainstest.Block))
		require.NotContains(t, logs.String()[mark:], "chain rolled back", "staged, not applied: not logged yet")
		require.NoError(t, vm.SubmitBlocks(oneTx("d", "4")))
		synctest.Wait()
		e.RequireHeight(chainA, 2)
		after := logs.String()[mark:]
		rolled, accepted := strings.Index(after, "chain rolled back"), strings.Index(after, "block accepted")
		require.GreaterOrEqual(t, rolled, 0, after)
		require.Greater(t, accepted, rolled, after)
	})
}

// A roll-back answered before its commit whose commit then fails halts the chain, by the
// background sync at the latest: its memory says rolled back, its database does not, and a
// restart finds the chain as it was.
func TestRewindDeferredFails(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		x := &truncater{}
		e, rewind, vm := threeBlocks(t, dir, x)
		failed := errors.New("disk gone")
		chains.SetStage(e.Manager, func(b *storage.Batch) (func() error, error) {
			b.Close() // never applied
			return func() error { return failed }, nil
		})
		rewindToFirst(t, rewind, vm, true)
		time.Sleep(chains.RewindSyncDelay)
		synctest.Wait()
		_, err := e.Manager.Health(t.Context(), chainA)
		require.ErrorIs(t, err, chains.ErrHalted)
		require.ErrorIs(t, err, failed)
		e.Close()

		requireRestartsAt(t, dir, x, 3)
	})
}

// The background timer applies every roll-back staged before it fires, one staged while it was
// armed included (one timer covers them all), each once, before its sync.
func TestRewindDeferredAppliedByOneTimer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		x := &truncater{}
		e, rewind, vm := threeBlocks(t, dir, x)
		var applied atomic.Int32
		chains.SetStage(e.Manager, func(b *storage.Batch) (func() error, error) {
			d, err := b.CommitDeferred()
			if err != nil {
				return nil, err
			}
			return func() error { applied.Add(1); return d.Apply() }, nil
		})
		for _, h := range []uint64{2, 1} {
			to, from := idAt(t, vm, h), idAt(t, vm, h+1)
			require.NoError(t, rewind(t.Context(), chains.Rewind{To: blockOf(t, vm, to), FirstDropped: from, Unsynced: true, Stage: func(b *storage.Batch) ([]ids.ID, error) {
				return []ids.ID{from}, vm.View().Wrap(b).Put(chainstest.LastKey(), to[:])
			}}))
		}
		synctest.Wait()
		require.Zero(t, applied.Load(), "not before the timer")
		time.Sleep(chains.RewindSyncDelay)
		synctest.Wait()
		require.Equal(t, int32(2), applied.Load())
		require.False(t, e.DB.Unsynced(), "applied and synced")
		e.Close()

		requireRestartsAt(t, dir, x, 1)
	})
}

// A roll-back made with Rewind.Later leaves the arming of its timer to its caller, who runs it
// once it has answered: until then the timer does not apply the batch; from then, within
// RewindSyncDelay.
func TestRewindLater(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e, rewind, vm := threeBlocks(t, filepath.Join(t.TempDir(), "db"), &truncater{})
		defer e.Close()
		var applied atomic.Int32
		chains.SetStage(e.Manager, func(b *storage.Batch) (func() error, error) {
			d, err := b.CommitDeferred()
			if err != nil {
				return nil, err
			}
			return func() error { applied.Add(1); return d.Apply() }, nil
		})
		first, second := idAt(t, vm, 1), idAt(t, vm, 2)
		var arm func()
		require.NoError(t, rewind(t.Context(), chains.Rewind{To: blockOf(t, vm, first), FirstDropped: second, Unsynced: true,
			Later: func(f func()) { arm = f },
			Stage: func(b *storage.Batch) ([]ids.ID, error) {
				return []ids.ID{second}, vm.View().Wrap(b).Put(chainstest.LastKey(), first[:])
			}}))
		require.NotNil(t, arm)
		time.Sleep(2 * chains.RewindSyncDelay)
		synctest.Wait()
		require.Zero(t, applied.Load(), "no timer before the caller arms it")
		arm()
		time.Sleep(chains.RewindSyncDelay)
		synctest.Wait()
		require.Equal(t, int32(1), applied.Load())
	})
}

// An indexed chain whose index cannot be truncated is not rolled back.
func TestRewindNeedsTruncater(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := chainstest.NewEnv(t, filepath.Join(t.TempDir(), "db"), plainIndexer{}, nil)
		defer e.Close()
		rewind := createWithContext(t, e).Rewind
		vm := e.VM(chainA)
		require.NoError(t, vm.SubmitBlocks(oneTx("a", "1"), oneTx("b", "2")))
		synctest.Wait()
		first := idAt(t, vm, 1)
		err := rewind(t.Context(), chains.Rewind{To: blockOf(t, vm, first), Stage: func(*storage.Batch) ([]ids.ID, error) { return nil, nil }})
		require.ErrorContains(t, err, "its index cannot be truncated")
		e.RequireHeight(chainA, 2)
	})
}

// Purge commits what the VM stages with the index's removal of the IDs it names, in one batch;
// a stage that fails commits nothing.
func TestPurge(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		x := &truncater{}
		e := chainstest.NewEnv(t, filepath.Join(t.TempDir(), "db"), x, nil)
		defer e.Close()
		purge := createWithContext(t, e).Purge
		view := e.VM(chainA).View()
		key := []byte("left behind")
		require.NoError(t, view.Put(key, []byte{1}))

		err := purge(t.Context(), func(b *storage.Batch) ([]ids.ID, error) {
			return nil, errors.Join(view.Wrap(b).Delete(key), errors.New("boom"))
		})
		require.ErrorContains(t, err, "boom")
		ok, err := view.Has(key)
		require.NoError(t, err)
		require.True(t, ok, "a failed stage commits nothing")

		require.NoError(t, purge(t.Context(), func(b *storage.Batch) ([]ids.ID, error) {
			return []ids.ID{{7}}, view.Wrap(b).Delete(key)
		}))
		ok, err = view.Has(key)
		require.NoError(t, err)
		require.False(t, ok)
		require.Equal(t, []ids.ID{{7}}, x.forgotten)
	})
}

// oneTx is a block's worth of one transaction.
func oneTx(key, value string) []*chainstest.Tx { return []*chainstest.Tx{chainstest.NewTx(key, value)} }
