package index

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/storage/storagetest"
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

	ctx := t.Context()
	lastAccepted := func() error { // the container the counter names is there
		c, err := s.GetLastAccepted(ctx, &GetLastAcceptedArgs{Encoding: ids.Hex})
		switch {
		case err != nil:
			return fmt.Errorf("getLastAccepted: %w", err)
		case c.Index != "0" && c.Index != "1":
			return fmt.Errorf("getLastAccepted at index %s", c.Index)
		}
		return nil
	}
	containerRange := func() error { // from index 1: the container, or a start past the last
		r, err := s.GetContainerRange(ctx, &GetContainerRangeArgs{StartIndex: 1, NumToFetch: 2, Encoding: ids.Hex})
		switch {
		case err != nil && err.Error() != errStartIndex(1, 0).Error():
			return fmt.Errorf("getContainerRange: %w", err)
		case err == nil && len(r.Containers) != 1:
			return errors.New("getContainerRange: an empty range from a start below the counter")
		}
		return nil
	}
	storagetest.ReadsWhole(t, pinCycles, func(int) {
		require.NoError(t, commit(func(w *storage.Batch) error { return ix.stage(w, 2, second) }))
		require.NoError(t, commit(func(w *storage.Batch) error {
			_, err := ix.truncate(w, second.ID, []ids.ID{second.ID})
			return err
		}))
	}, lastAccepted, containerRange)
}
