package index

import (
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// pinCycles is how many times TestAnswersReadOneState accepts a container and rolls it back.
// Without the pin, readers running alongside were torn within the first few hundred cycles.
const pinCycles = 1000

// An answer that reads the counter and then the containers below it reads both from one state:
// while a container is accepted and rolled back (a developer's 1-block revert) over and over,
// getLastAccepted never names a container the roll-back has just removed (`no container at
// index 1`), and a range from the last index is never answered empty. Commits are unsynced
// (published at once) so that many land while the readers run; the number of cycles bounds the
// test, not a clock.
func TestAnswersReadOneState(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	ix := &index{view: db.Prefixed(storage.PrefixIndex)}
	s := &service{ix: ix, log: slog.New(slog.DiscardHandler)}
	commit := func(stage func(w *storage.Batch) error) error {
		b := ix.view.NewBatch()
		defer b.Close()
		if err := stage(b); err != nil {
			return err
		}
		return b.CommitUnsynced()
	}
	first := chains.Container{ID: ids.ID{1}, Bytes: []byte("first")}
	second := chains.Container{ID: ids.ID{2}, Bytes: []byte("second")}
	require.NoError(t, commit(func(w *storage.Batch) error { return ix.stage(w, 1, first) }))

	var (
		wg   sync.WaitGroup
		done = make(chan struct{})
		torn = make(chan string, 2)
	)
	ctx := t.Context()
	wg.Add(2)
	go func() { // getLastAccepted: the container the counter names is there
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			c, err := s.GetLastAccepted(ctx, &GetLastAcceptedArgs{Encoding: ids.Hex})
			if err != nil {
				torn <- "getLastAccepted: " + err.Error()
				return
			}
			if c.Index != "0" && c.Index != "1" {
				torn <- "getLastAccepted at index " + c.Index
				return
			}
		}
	}()
	go func() { // getContainerRange from index 1: the container, or a start past the last
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			r, err := s.GetContainerRange(ctx, &GetContainerRangeArgs{StartIndex: 1, NumToFetch: 2, Encoding: ids.Hex})
			switch {
			case err != nil && err.Error() != errStartIndex(1, 0).Error():
				torn <- "getContainerRange: " + err.Error()
				return
			case err == nil && len(r.Containers) != 1:
				torn <- "getContainerRange: an empty range from a start below the counter"
				return
			}
		}
	}()
	for range pinCycles {
		require.NoError(t, commit(func(w *storage.Batch) error { return ix.stage(w, 2, second) }))
		require.NoError(t, commit(func(w *storage.Batch) error {
			_, err := ix.truncate(w, second.ID, []ids.ID{second.ID})
			return err
		}))
	}
	close(done)
	wg.Wait()
	close(torn)
	for msg := range torn {
		t.Error(msg)
	}
}
