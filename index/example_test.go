package index_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/storage"
)

// The node checks every chain, registers them, mounts the handlers; the pipeline stages each
// accepted block's entries into the block's batch and commits it.
func Example() {
	dir, err := os.MkdirTemp("", "cornice-index-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	log := slog.New(slog.DiscardHandler)
	db, err := storage.Open(filepath.Join(dir, "db"), log)
	if err != nil {
		panic(err)
	}
	defer db.Close()

	clk := clock.NewFake(time.Date(2026, time.November, 25, 21, 58, 10, 398452655, time.UTC))
	x, err := index.New(index.Config{Enabled: true}, db.Prefixed(storage.PrefixIndex), clk, log)
	if err != nil {
		panic(err)
	}
	chainID := ids.FromName("my-l1")
	if err := x.Check(chainID); err != nil {
		panic(err) // the node prints the reason and exits non-zero
	}
	handlers, err := x.Register(chainID, index.Block)
	if err != nil {
		panic(err)
	}

	batch := db.NewBatch()
	// ... the VM stages the block's state into batch ...
	block := chains.Container{ID: ids.ID{3}, Bytes: []byte{2, 1, 2, 3}}
	if err := x.Accept(context.Background(), batch, chainID, block, nil); err != nil {
		panic(err)
	}
	if err := batch.Commit(); err != nil {
		panic(err)
	}

	body := `{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hexnc"}}`
	req := httptest.NewRequest(http.MethodPost, "/ext/index/my-l1/block", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	handlers[index.Block].ServeHTTP(rec, req)
	fmt.Print(rec.Body.String())
	// Output:
	// {"jsonrpc":"2.0","result":{"id":"2KdbbWvpeAShCx5hGbtdF15FMMepq9kajsNTqVvvEbhiCRSxU","bytes":"0x02010203","timestamp":"2026-11-25T21:58:10.398452655Z","encoding":"hexnc","index":"0"},"id":1}
}
