package chains_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// The accept path's tests run chains under the solo engine, in synctest bubbles: synctest.Wait
// returns once every engine has nothing left to do, and time is virtual.

func TestAcceptsAtOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		clk := clock.Real{}
		acc := &recordingIndexer{}
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), acc)
		defer e.Close()
		acc.view = e.DB.Prefixed(storage.PrefixIndex)
		vm := e.Create(chainA, nil)
		requireHeight(t, e, chainA, 0)

		var acceptedAt chainstest.Recorder[time.Time]
		e.Manager.Subscribe(chainA, func(chains.Block) { acceptedAt.Add(clk.Now()) })
		start := clk.Now()
		submit(t, vm, "k", "v", "k2", "v2")
		synctest.Wait()

		requireHeight(t, e, chainA, 1)
		require.Equal(t, []time.Time{start}, acceptedAt.Get(), "accepted with no delay")
		for k, want := range map[string]string{"k": "v", "k2": "v2"} {
			vm.RequireState(t, k, want)
		}
		// The index got the block and its transactions, in the same batch.
		blkID, _, _ := e.Manager.LastAccepted(chainA)
		require.True(t, acc.has(t, chainA, blkID))
		blocks, txs := acc.got()
		require.Len(t, blocks, 1)
		require.Equal(t, blkID, blocks[0].ID)
		require.Equal(t, mustBytes(t, vm, blkID), blocks[0].Bytes)
		require.Len(t, txs[0], 2)
		require.Equal(t, chainstest.NewTx("k", "v").Bytes(), txs[0][0].Bytes)
	})
}

func TestNotIndexed(t *testing.T) {
	t.Parallel()
	acc := &recordingIndexer{}
	inEnv(t, acc, func(t *testing.T, e *chainstest.Env) {
		vm := e.Create(lID, func(s *chains.Spec) { s.Indexed = false })
		submit(t, vm, "k", "v")
		synctest.Wait()
		requireHeight(t, e, lID, 1)
		blocks, _ := acc.got()
		require.Empty(t, blocks, "the Indexer sees indexed chains only")
	})
}

func TestHeightOrder(t *testing.T) {
	t.Parallel()
	inEnv(t, nil, func(t *testing.T, e *chainstest.Env) {
		vm := e.Create(chainA, nil)
		var seen chainstest.Recorder[uint64]
		e.Manager.Subscribe(chainA, func(b chains.Block) { seen.Add(b.Height()) })

		// Ten pending blocks, one signal: built one after another.
		var blocks [][]*chainstest.Tx
		for i := range 10 {
			blocks = append(blocks, []*chainstest.Tx{chainstest.NewTx("n", strconv.Itoa(i))})
		}
		require.NoError(t, vm.SubmitBlocks(blocks...))
		synctest.Wait()

		want := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		require.Equal(t, want, seen.Get())
		require.Equal(t, want, vm.AcceptedHeights())
		requireHeight(t, e, chainA, 10)
		prev, err := vm.GetBlockIDAtHeight(t.Context(), 0)
		require.NoError(t, err)
		for h := uint64(1); h <= 10; h++ {
			id, err := vm.GetBlockIDAtHeight(t.Context(), h)
			require.NoError(t, err)
			blk, err := vm.GetBlock(t.Context(), id)
			require.NoError(t, err)
			require.Equal(t, prev, blk.Parent(), "height %d", h)
			prev = id
		}
		vm.RequireState(t, "n", "9")
	})
}

// The accept path refuses a block that does not extend the last accepted one, whatever the
// engine and the VM's verification let through, and the chain halts.
func TestOutOfOrderBlockHalts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mangle func(parent ids.ID, height uint64) (ids.ID, uint64)
	}{
		{"height skipped", func(p ids.ID, h uint64) (ids.ID, uint64) { return p, h + 1 }},
		{"height repeated", func(p ids.ID, h uint64) (ids.ID, uint64) { return p, h - 1 }},
		{"wrong parent", func(_ ids.ID, h uint64) (ids.ID, uint64) { return ids.FromName("elsewhere"), h }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			inEnv(t, nil, func(t *testing.T, e *chainstest.Env) {
				vm := e.Create(chainA, nil)
				submit(t, vm, "k", "1")
				synctest.Wait()
				vm.VerifyF = func(context.Context, *chainstest.Block) error { return nil }
				vm.BuildBlockF = func(ctx context.Context) (chains.Block, error) {
					b, err := vm.Build(ctx)
					if err != nil {
						return nil, err
					}
					parent, height := tt.mangle(b.Parent(), b.Height())
					return vm.NewBlock(parent, height, b.Timestamp().UnixNano(), b.Transactions()), nil
				}
				submit(t, vm, "k", "2")
				synctest.Wait()

				requireHeight(t, e, chainA, 1)
				_, err := e.Manager.Health(t.Context(), chainA)
				require.ErrorIs(t, err, chains.ErrHalted)
				require.ErrorIs(t, err, chains.ErrBlockOrder)
				vm.RequireState(t, "k", "1")
			})
		})
	}
}

func TestChainsIndependent(t *testing.T) {
	t.Parallel()
	acc := &recordingIndexer{}
	inEnv(t, acc, func(t *testing.T, e *chainstest.Env) {
		acc.view = e.DB.Prefixed(storage.PrefixIndex)

		// Chain 0's builder is stuck until release is closed.
		release := make(chan struct{})
		const n = 8
		vms := make([]*chainstest.VM, n)
		chainIDs := make([]ids.ID, n)
		for i := range n {
			chainIDs[i] = ids.FromName(fmt.Sprint("parallel chain ", i))
			e.Setup = func(vm *chainstest.VM) {
				if i == 0 {
					vm.BuildBlockF = func(ctx context.Context) (chains.Block, error) {
						select {
						case <-release:
							return vm.Build(ctx)
						case <-ctx.Done():
							return nil, ctx.Err()
						}
					}
				}
			}
			vms[i] = e.Create(chainIDs[i], nil)
		}
		done := make(chan struct{})
		for i, vm := range vms {
			go func() {
				defer func() { done <- struct{}{} }()
				for j := range 5 {
					submit(t, vm, "k", fmt.Sprint(i, "/", j))
				}
			}()
		}
		for range vms {
			<-done
		}
		synctest.Wait()
		requireHeight(t, e, chainIDs[0], 0)
		for i := 1; i < n; i++ {
			require.Equal(t, []uint64{1, 2, 3, 4, 5}, vms[i].AcceptedHeights(), "chain %d", i)
			v, err := vms[i].State("k")
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint(i, "/4"), v, "each chain writes its own key space")
		}

		close(release)
		synctest.Wait()
		require.Equal(t, []uint64{1, 2, 3, 4, 5}, vms[0].AcceptedHeights())
		requireHeight(t, e, chainIDs[0], 5)
	})
}

// A failed acceptance writes nothing of the block, whether it waits for the disk (Accept) or not
// (AcceptUnsynced, a bootstrapping chain's and a developer's batch of blocks): both commit
// through the manager's one seam, which the "commit fails" cases break.
func TestFailedAcceptanceWritesNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// breakIt makes the next acceptance fail with errBoom.
		breakIt func(vm *chainstest.VM, acc *recordingIndexer, commitFails *atomic.Bool)
	}{
		{"indexer fails", func(_ *chainstest.VM, acc *recordingIndexer, _ *atomic.Bool) { acc.fail = errBoom }},
		{"block accept fails", func(vm *chainstest.VM, _ *recordingIndexer, _ *atomic.Bool) {
			vm.AcceptF = func(context.Context, *chainstest.Block) error { return errBoom }
		}},
		{"commit fails", func(_ *chainstest.VM, _ *recordingIndexer, commitFails *atomic.Bool) { commitFails.Store(true) }},
	}
	for _, tt := range tests {
		for _, synced := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/synced=%t", tt.name, synced), func(t *testing.T) {
				t.Parallel()
				testFailedAcceptance(t, synced, tt.breakIt)
			})
		}
	}
}

// testFailedAcceptance accepts one block, breaks the chain with breakIt, and checks that the
// next block left nothing behind; synced says whether the blocks wait for the disk.
func testFailedAcceptance(t *testing.T, synced bool, breakIt func(*chainstest.VM, *recordingIndexer, *atomic.Bool)) {
	acc := &recordingIndexer{}
	inEnv(t, acc, func(t *testing.T, e *chainstest.Env) {
		acc.view = e.DB.Prefixed(storage.PrefixIndex)
		var commitFails atomic.Bool
		var commits chainstest.Recorder[bool]
		chains.SetCommit(e.Manager, func(b *storage.Batch, synced bool) error {
			commits.Add(synced)
			if commitFails.Load() {
				b.Close()
				return errBoom
			}
			if synced {
				return b.Commit()
			}
			return b.CommitUnsynced()
		})
		e.Setup = func(vm *chainstest.VM) { vm.DeferSync = !synced }
		vm := e.Create(chainA, nil)
		var notified chainstest.Recorder[uint64]
		e.Manager.Subscribe(chainA, func(b chains.Block) { notified.Add(b.Height()) })
		submit(t, vm, "k", "1")
		synctest.Wait()
		requireHeight(t, e, chainA, 1)

		breakIt(vm, acc, &commitFails)
		submit(t, vm, "k", "2", "new", "x")
		synctest.Wait()

		// Nothing of block 2: VM state, block record, index entry, pointer.
		requireHeight(t, e, chainA, 1)
		vm.RequireState(t, "k", "1")
		_, err := vm.State("new")
		require.ErrorIs(t, err, storage.ErrNotFound)
		_, err = vm.GetBlockIDAtHeight(t.Context(), 2)
		require.ErrorIs(t, err, chains.ErrBlockNotFound)
		blocks, _ := acc.got()
		require.True(t, acc.has(t, chainA, blocks[0].ID))
		for _, c := range blocks[1:] {
			require.False(t, acc.has(t, chainA, c.ID), "index entry of the failed block")
		}
		require.Equal(t, []uint64{1}, vm.AcceptedHeights(), "VM.Accepted not called")
		require.Equal(t, []uint64{1}, notified.Get(), "subscribers not called")
		for _, s := range commits.Get() {
			require.Equal(t, synced, s, "every block is committed through the seam, synced or not")
		}

		// The chain halted, and stays halted.
		details, err := e.Manager.Health(t.Context(), chainA)
		require.ErrorIs(t, err, chains.ErrHalted)
		require.ErrorIs(t, err, errBoom)
		require.Equal(t, uint64(1), details.(chains.Status).Height)
		submit(t, vm, "k", "3")
		synctest.Wait()
		requireHeight(t, e, chainA, 1)
	})
}

// After a failed commit, synced or not, a restart finds the chain where it was, and it runs.
func TestCommitFailureRestart(t *testing.T) {
	t.Parallel()
	for _, synced := range []bool{true, false} {
		t.Run(fmt.Sprintf("synced=%t", synced), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "db")
				e := newEnv(t, dir, nil)
				chains.SetCommit(e.Manager, func(b *storage.Batch, _ bool) error {
					b.Close()
					return fmt.Errorf("disk full: %w", errBoom)
				})
				e.Setup = func(vm *chainstest.VM) { vm.DeferSync = !synced }
				vm := e.Create(chainA, nil)
				submit(t, vm, "k", "1")
				synctest.Wait()
				_, err := e.Manager.Health(t.Context(), chainA)
				require.ErrorIs(t, err, errBoom)
				require.ErrorContains(t, err, "chain halted: commit block")
				e.Close()

				e = newEnv(t, dir, nil)
				defer e.Close()
				vm = e.Create(chainA, nil)
				requireHeight(t, e, chainA, 0)
				_, err = vm.State("k")
				require.ErrorIs(t, err, storage.ErrNotFound)
				submit(t, vm, "k", "1")
				synctest.Wait()
				requireHeight(t, e, chainA, 1)
				_, err = e.Manager.Health(t.Context(), chainA)
				require.NoError(t, err)
			})
		})
	}
}

func TestVMAcceptedFailureHalts(t *testing.T) {
	t.Parallel()
	inEnv(t, nil, func(t *testing.T, e *chainstest.Env) {
		vm := e.Create(chainA, nil)
		vm.AcceptedF = func(context.Context, *chainstest.Block) error { return errBoom }
		var notified chainstest.Recorder[uint64]
		e.Manager.Subscribe(chainA, func(b chains.Block) { notified.Add(b.Height()) })
		submit(t, vm, "k", "1")
		submit(t, vm, "k", "2")
		synctest.Wait()
		// Block 1 is on disk and announced; the chain stops after it.
		requireHeight(t, e, chainA, 1)
		require.Equal(t, []uint64{1}, notified.Get())
		_, err := e.Manager.Health(t.Context(), chainA)
		require.ErrorIs(t, err, chains.ErrHalted)
		require.ErrorIs(t, err, errBoom)
	})
}

// An engine that stops with an error halts its chain, even if no acceptance failed.
func TestEngineErrorHalts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		engines := chains.EngineFactoryFunc(func(_ context.Context, c chains.EngineContext) (chains.Engine, error) {
			return stoppingEngine{c}, nil
		})
		e := chainstest.NewEnv(t, filepath.Join(t.TempDir(), "db"), nil, engines)
		defer e.Close()
		e.Create(chainA, nil)
		synctest.Wait()
		_, err := e.Manager.Health(t.Context(), chainA)
		require.ErrorIs(t, err, chains.ErrHalted)
		require.ErrorIs(t, err, errBoom)
	})
}

// stoppingEngine enters normal operation and stops at once with errBoom.
type stoppingEngine struct{ c chains.EngineContext }

func (s stoppingEngine) Start(context.Context) error { return s.c.SetState(chains.NormalOperation) }
func (stoppingEngine) Run(context.Context) error     { return errBoom }

func TestCloseFinishesCommit(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		vm := e.Create(chainA, nil)
		entered, release := make(chan struct{}), make(chan struct{})
		var ctxErr error
		vm.AcceptF = func(ctx context.Context, _ *chainstest.Block) error {
			close(entered)
			<-release
			ctxErr = ctx.Err()
			return nil
		}
		var notified atomic.Bool
		e.Manager.Subscribe(chainA, func(chains.Block) { notified.Store(true) })
		submit(t, vm, "k", "v")
		<-entered

		closed := make(chan error)
		go func() { closed <- e.Manager.Close() }()
		synctest.Wait()
		select {
		case <-closed:
			t.Fatal("Close returned while a block was being accepted")
		default:
		}
		close(release)
		require.NoError(t, <-closed)
		require.NoError(t, ctxErr, "acceptance does not run under a cancelled context")
		require.True(t, notified.Load())
		require.True(t, vm.IsClosed())
		requireHeight(t, e, chainA, 1)
		require.NoError(t, e.DB.Close())
	})
}

// BenchmarkAccept measures the blocks per second of the solo engine and the accept path with
// the fake VM: each iteration signals work and waits until the block's subscribers hear of it.
// The VM's checks are skipped and every block carries the same writes, so that the figure is
// the engine's, the accept path's and one synced Pebble commit per block.
func BenchmarkAccept(b *testing.B) {
	for _, index := range []string{"none", "one-entry"} {
		for _, writes := range []int{1, 64} {
			b.Run(fmt.Sprintf("index=%s/writes=%d", index, writes), func(b *testing.B) {
				var indexer chains.Indexer
				idx := &oneEntryIndexer{}
				if index != "none" {
					indexer = idx
				}
				e := newEnv(b, filepath.Join(b.TempDir(), "db"), indexer)
				defer e.Close()
				idx.view = e.DB.Prefixed(storage.PrefixIndex)
				txs := make([]*chainstest.Tx, writes)
				for i := range txs {
					txs[i] = chainstest.NewTx(strconv.Itoa(i), "value")
				}
				// wanted counts the blocks signalled and not yet built.
				var wanted atomic.Int64
				e.Setup = func(vm *chainstest.VM) {
					vm.VerifyF = func(context.Context, *chainstest.Block) error { return nil }
					vm.BuildBlockF = func(context.Context) (chains.Block, error) {
						if wanted.Load() == 0 {
							return nil, chains.ErrNoWork
						}
						wanted.Add(-1)
						last := vm.LastAcceptedBlock()
						return vm.NewBlock(last.ID(), last.Height()+1, last.Timestamp().UnixNano()+1, txs), nil
					}
				}
				done := make(chan struct{}, 1)
				e.Manager.Subscribe(chainA, func(chains.Block) { done <- struct{}{} })
				vm := e.Create(chainA, nil)
				b.ReportAllocs()
				for b.Loop() {
					wanted.Add(1)
					vm.Signal()
					<-done
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
			})
		}
	}
}
