package chains

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// The pipeline tests run in synctest bubbles: synctest.Wait returns once
// every pipeline has nothing left to do, and time is virtual.

func TestBuildsAtOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		clk := clock.Real{}
		acc := &recordingAcceptor{}
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), acc)
		defer e.close()
		acc.view = e.db.Prefixed(storage.PrefixIndex)
		vm := e.create(chainA, nil)
		e.requireHeight(chainA, 0)

		var acceptedAt recorder[time.Time]
		e.m.Subscribe(chainA, func(Block) { acceptedAt.add(clk.Now()) })
		start := clk.Now()
		vm.submit(kv{Key: "k", Value: "v"}, kv{Key: "k2", Value: "v2"})
		synctest.Wait()

		e.requireHeight(chainA, 1)
		require.Equal(t, []time.Time{start}, acceptedAt.get(), "accepted with no delay")
		for k, want := range map[string]string{"k": "v", "k2": "v2", "genesis": "genesis of " + chainA.String()} {
			got, err := vm.state(k)
			require.NoError(t, err)
			require.Equal(t, want, got)
		}
		// The index got the block and its transactions, in the same batch.
		blkID, _, _ := e.m.LastAccepted(chainA)
		require.True(t, acc.has(t, chainA, blkID))
		blocks, txs := acc.got()
		require.Len(t, blocks, 1)
		require.Equal(t, blkID, blocks[0].ID)
		require.Equal(t, mustBytes(t, vm, blkID), blocks[0].Bytes)
		require.Len(t, txs[0], 2)
		require.Equal(t, []byte("k"), txs[0][0].Bytes)
	})
}

func TestNotIndexed(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		acc := &recordingAcceptor{}
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), acc)
		defer e.close()
		vm := e.create(lID, func(s *Spec) { s.Indexed = false })
		vm.submit(kv{Key: "k", Value: "v"})
		synctest.Wait()
		e.requireHeight(lID, 1)
		blocks, _ := acc.got()
		require.Empty(t, blocks, "the Acceptor sees indexed chains only")
	})
}

func TestHeightOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()
		vm := e.create(chainA, nil)
		var seen recorder[uint64]
		e.m.Subscribe(chainA, func(b Block) { seen.add(b.Height()) })

		// Ten pending blocks, one signal: built one after another.
		vm.mu.Lock()
		for i := range 10 {
			vm.pending = append(vm.pending, []kv{{Key: "n", Value: strconv.Itoa(i)}})
		}
		vm.mu.Unlock()
		vm.work <- struct{}{}
		synctest.Wait()

		want := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		require.Equal(t, want, seen.get())
		require.Equal(t, want, vm.heights())
		e.requireHeight(chainA, 10)
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
		v, err := vm.state("n")
		require.NoError(t, err)
		require.Equal(t, "9", v)
	})
}

func TestOutOfOrderBlockHalts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mangle func(*blockData)
	}{
		{"height skipped", func(d *blockData) { d.Height++ }},
		{"height repeated", func(d *blockData) { d.Height-- }},
		{"wrong parent", func(d *blockData) { d.Parent = ids.FromName("elsewhere") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
				defer e.close()
				vm := e.create(chainA, nil)
				vm.submit(kv{Key: "k", Value: "1"})
				synctest.Wait()
				vm.mangle = tt.mangle
				vm.submit(kv{Key: "k", Value: "2"})
				synctest.Wait()

				e.requireHeight(chainA, 1)
				_, err := e.m.Health(t.Context(), chainA)
				require.ErrorIs(t, err, ErrHalted)
				require.ErrorIs(t, err, ErrBlockOrder)
				v, err := vm.state("k")
				require.NoError(t, err)
				require.Equal(t, "1", v)
			})
		})
	}
}

func TestChainsIndependent(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		acc := &recordingAcceptor{}
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), acc)
		defer e.close()
		acc.view = e.db.Prefixed(storage.PrefixIndex)

		// Chain 0's builder is stuck until release is closed.
		release := make(chan struct{})
		const n = 8
		vms := make([]*testVM, n)
		chainIDs := make([]ids.ID, n)
		for i := range n {
			chainIDs[i] = ids.FromName(fmt.Sprint("parallel chain ", i))
			e.setup = func(vm *testVM) {
				if i == 0 {
					vm.build = func(ctx context.Context) error {
						select {
						case <-release:
							return nil
						case <-ctx.Done():
							return ctx.Err()
						}
					}
				}
			}
			vms[i] = e.create(chainIDs[i], nil)
		}
		var wg sync.WaitGroup
		for i, vm := range vms {
			wg.Go(func() {
				for j := range 5 {
					vm.submit(kv{Key: "k", Value: fmt.Sprint(i, "/", j)})
				}
			})
		}
		wg.Wait()
		synctest.Wait()
		e.requireHeight(chainIDs[0], 0)
		for i := 1; i < n; i++ {
			require.Equal(t, []uint64{1, 2, 3, 4, 5}, vms[i].heights(), "chain %d", i)
			v, err := vms[i].state("k")
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint(i, "/4"), v, "each chain writes its own key space")
		}

		close(release)
		synctest.Wait()
		require.Equal(t, []uint64{1, 2, 3, 4, 5}, vms[0].heights())
		e.requireHeight(chainIDs[0], 5)
	})
}

func TestFailedAcceptanceWritesNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// breakIt makes the next acceptance fail with errBoom.
		breakIt func(vm *testVM, acc *recordingAcceptor, commitFails *atomic.Bool)
	}{
		{"acceptor fails", func(_ *testVM, acc *recordingAcceptor, _ *atomic.Bool) { acc.fail = errBoom }},
		{"block accept fails", func(vm *testVM, _ *recordingAcceptor, _ *atomic.Bool) {
			vm.accept = func(context.Context, *testBlock) error { return errBoom }
		}},
		{"commit fails", func(_ *testVM, _ *recordingAcceptor, commitFails *atomic.Bool) { commitFails.Store(true) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				acc := &recordingAcceptor{}
				e := newEnv(t, filepath.Join(t.TempDir(), "db"), acc)
				defer e.close()
				acc.view = e.db.Prefixed(storage.PrefixIndex)
				var commitFails atomic.Bool
				e.m.commit = func(b *storage.Batch) error {
					if commitFails.Load() {
						b.Close()
						return errBoom
					}
					return b.Commit()
				}
				vm := e.create(chainA, nil)
				var notified recorder[uint64]
				e.m.Subscribe(chainA, func(b Block) { notified.add(b.Height()) })
				vm.submit(kv{Key: "k", Value: "1"})
				synctest.Wait()
				e.requireHeight(chainA, 1)

				tt.breakIt(vm, acc, &commitFails)
				vm.submit(kv{Key: "k", Value: "2"}, kv{Key: "new", Value: "x"})
				synctest.Wait()

				// Nothing of block 2: VM state, block record, index entry, pointer.
				e.requireHeight(chainA, 1)
				v, err := vm.state("k")
				require.NoError(t, err)
				require.Equal(t, "1", v)
				_, err = vm.state("new")
				require.ErrorIs(t, err, storage.ErrNotFound)
				_, err = vm.GetBlockIDAtHeight(t.Context(), 2)
				require.ErrorIs(t, err, ErrBlockNotFound)
				blocks, _ := acc.got()
				require.True(t, acc.has(t, chainA, blocks[0].ID))
				for _, c := range blocks[1:] {
					require.False(t, acc.has(t, chainA, c.ID), "index entry of the failed block")
				}
				require.Equal(t, []uint64{1}, vm.heights(), "VM.Accepted not called")
				require.Equal(t, []uint64{1}, notified.get(), "subscribers not called")

				// The chain halted, and stays halted.
				details, err := e.m.Health(t.Context(), chainA)
				require.ErrorIs(t, err, ErrHalted)
				require.ErrorIs(t, err, errBoom)
				require.Equal(t, uint64(1), details.(Status).Height)
				vm.submit(kv{Key: "k", Value: "3"})
				synctest.Wait()
				e.requireHeight(chainA, 1)
			})
		})
	}
}

func TestCommitFailureRestart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		e := newEnv(t, dir, nil)
		e.m.commit = func(b *storage.Batch) error {
			b.Close()
			return fmt.Errorf("disk full: %w", errBoom)
		}
		vm := e.create(chainA, nil)
		vm.submit(kv{Key: "k", Value: "1"})
		synctest.Wait()
		_, err := e.m.Health(t.Context(), chainA)
		require.ErrorIs(t, err, errBoom)
		require.ErrorContains(t, err, "chain halted: commit block")
		e.close()

		// After a restart the chain is where it was, and runs.
		e = newEnv(t, dir, nil)
		defer e.close()
		vm = e.create(chainA, nil)
		e.requireHeight(chainA, 0)
		vm.submit(kv{Key: "k", Value: "1"})
		synctest.Wait()
		e.requireHeight(chainA, 1)
		_, err = e.m.Health(t.Context(), chainA)
		require.NoError(t, err)
	})
}

func TestVMAcceptedFailureHalts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()
		vm := e.create(chainA, nil)
		vm.accepted = func(*testBlock) error { return errBoom }
		var notified recorder[uint64]
		e.m.Subscribe(chainA, func(b Block) { notified.add(b.Height()) })
		vm.submit(kv{Key: "k", Value: "1"})
		vm.submit(kv{Key: "k", Value: "2"})
		synctest.Wait()
		// Block 1 is on disk and announced; the chain stops after it.
		e.requireHeight(chainA, 1)
		require.Equal(t, []uint64{1}, notified.get())
		_, err := e.m.Health(t.Context(), chainA)
		require.ErrorIs(t, err, ErrHalted)
		require.ErrorIs(t, err, errBoom)
	})
}

func TestVerifyFailureDrops(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()
		vm := e.create(chainA, nil)
		var verified atomic.Int32
		vm.verify = func(b *testBlock) error {
			verified.Add(1)
			if b.data.Writes[0].Value == "bad" {
				return errBoom
			}
			return nil
		}
		synctest.Wait() // the start-up attempt is done
		// Two blocks pending, one signal: after the first fails, the
		// pipeline waits for the next signal.
		vm.mu.Lock()
		vm.pending = [][]kv{{{Key: "k", Value: "bad"}}, {{Key: "k", Value: "good"}}}
		vm.mu.Unlock()
		vm.work <- struct{}{}
		synctest.Wait()
		e.requireHeight(chainA, 0)
		require.Equal(t, int32(1), verified.Load(), "no retry until the VM signals")
		_, err := e.m.Health(t.Context(), chainA)
		require.NoError(t, err, "a dropped block does not halt the chain")

		vm.submit(kv{Key: "k2", Value: "later"})
		synctest.Wait()
		e.requireHeight(chainA, 2)
		v, err := vm.state("k")
		require.NoError(t, err)
		require.Equal(t, "good", v)
	})
}

func TestBuildErrorWaits(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()
		var calls atomic.Int32
		e.setup = func(vm *testVM) {
			vm.build = func(context.Context) error {
				if calls.Add(1) == 2 {
					return errBoom
				}
				return nil
			}
		}
		vm := e.create(chainA, nil)
		synctest.Wait() // call 1: the start-up attempt, no work
		vm.submit(kv{Key: "k", Value: "1"})
		synctest.Wait()
		e.requireHeight(chainA, 0) // call 2 failed: wait for a signal
		vm.submit(kv{Key: "k", Value: "2"})
		synctest.Wait()
		e.requireHeight(chainA, 2)
	})
}

func TestWorkPendingAtStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()
		// The VM has work before the pipeline starts, and never signals it.
		e.setup = func(vm *testVM) { vm.pending = [][]kv{{{Key: "k", Value: "restored"}}} }
		e.create(chainA, nil)
		synctest.Wait()
		e.requireHeight(chainA, 1)
	})
}

func TestMinBlockGap(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		clk := clock.Real{}
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()
		const gap = 2 * time.Second
		vm := e.create(chainA, func(s *Spec) { s.MinBlockGap = gap })
		start := clk.Now()
		var at recorder[time.Duration]
		e.m.Subscribe(chainA, func(Block) { at.add(clk.Now().Sub(start)) })

		for range 3 {
			vm.submit(kv{Key: "k", Value: "v"})
		}
		synctest.Wait()
		require.Equal(t, []time.Duration{0}, at.get(), "the first block at once")
		time.Sleep(gap - time.Millisecond)
		synctest.Wait()
		require.Len(t, at.get(), 1, "not before the gap")
		time.Sleep(time.Millisecond)
		synctest.Wait()
		require.Equal(t, []time.Duration{0, gap}, at.get())
		time.Sleep(gap)
		synctest.Wait()
		require.Equal(t, []time.Duration{0, gap, 2 * gap}, at.get())

		// Long after the last block: the next one is built at once.
		time.Sleep(time.Minute)
		vm.submit(kv{Key: "k", Value: "v"})
		synctest.Wait()
		require.Equal(t, []time.Duration{0, gap, 2 * gap, 2*gap + time.Minute}, at.get())
	})
}

func TestCloseFinishesCommit(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		vm := e.create(chainA, nil)
		entered, release := make(chan struct{}), make(chan struct{})
		var ctxErr error
		vm.accept = func(ctx context.Context, _ *testBlock) error {
			close(entered)
			<-release
			ctxErr = ctx.Err()
			return nil
		}
		var notified atomic.Bool
		e.m.Subscribe(chainA, func(Block) { notified.Store(true) })
		vm.submit(kv{Key: "k", Value: "v"})
		<-entered

		closed := make(chan error)
		go func() { closed <- e.m.Close() }()
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
		require.True(t, vm.isClosed())
		e.requireHeight(chainA, 1)
		require.NoError(t, e.db.Close())
	})
}

// oneEntryAcceptor writes one small entry per block, as the cheapest index.
type oneEntryAcceptor struct{ view *storage.View }

func (a oneEntryAcceptor) Accept(_ context.Context, batch *storage.Batch, chainID ids.ID, block Container, _ []Container) error {
	return a.view.Wrap(batch).Put(append(chainID[:], block.ID[:]...), binary.BigEndian.AppendUint64(nil, 1))
}

// BenchmarkAccept measures the pipeline's blocks per second with the test
// VM: each iteration submits one block and waits until its subscribers
// hear of it. Every block is one synced Pebble commit.
func BenchmarkAccept(b *testing.B) {
	for _, index := range []string{"none", "one-entry"} {
		for _, writes := range []int{1, 64} {
			b.Run(fmt.Sprintf("index=%s/writes=%d", index, writes), func(b *testing.B) {
				e := newEnv(b, filepath.Join(b.TempDir(), "db"), nil)
				defer e.close()
				if index != "none" {
					e.m.acceptor = oneEntryAcceptor{view: e.db.Prefixed(storage.PrefixIndex)}
				}
				vm := e.create(chainA, nil)
				done := make(chan struct{}, 1)
				e.m.Subscribe(chainA, func(Block) { done <- struct{}{} })
				block := make([]kv, writes)
				for i := range block {
					block[i] = kv{Key: strconv.Itoa(i), Value: "value"}
				}
				b.ReportAllocs()
				for b.Loop() {
					vm.submit(block...)
					<-done
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
			})
		}
	}
}
