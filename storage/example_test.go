package storage_test

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/cornice-node/cornice/storage"
)

// Two components write one block's changes in one atomic batch, each in its
// own key space.
func Example() {
	dir, err := os.MkdirTemp("", "cornice-storage-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	db, err := storage.Open(filepath.Join(dir, "db"), slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	defer db.Close()

	index := db.Prefixed(storage.PrefixIndex)
	state := db.Prefixed(storage.PrefixEVM).Prefixed(make([]byte, 32)) // one chain's space

	batch := db.NewBatch()
	_ = state.Wrap(batch).Put([]byte("head"), []byte("block 1"))
	_ = index.Wrap(batch).Put([]byte("height/1"), []byte("block 1 ID"))
	if err := batch.Commit(); err != nil {
		panic(err)
	}

	head, err := state.Get([]byte("head"))
	fmt.Println(string(head), err)
	_, err = index.Get([]byte("head"))
	fmt.Println(err)
	// Output:
	// block 1 <nil>
	// storage: not found
}
