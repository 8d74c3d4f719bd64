package uptime_test

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/uptime"
)

// A single node tracks itself as an L1's validator: connected from the start, it is up the whole
// time.
func Example() {
	dir, err := os.MkdirTemp("", "cornice-uptime-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	defer db.Close()

	chainID := ids.FromName("my-l1")
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	tr, err := uptime.New(db.Prefixed(storage.PrefixUptime).Prefixed(chainID[:]), clk, nil)
	if err != nil {
		panic(err)
	}
	self := ids.NodeID{1}
	validationID := ids.FromName("validation")
	if err := tr.Sync([]uptime.Validator{{ValidationID: validationID, NodeID: self, StartTime: 1_700_000_000, Active: true}}); err != nil {
		panic(err)
	}
	tr.StartTracking([]ids.NodeID{self})

	clk.Advance(90 * time.Second)
	up, at, err := tr.Uptime(validationID)
	fmt.Println(up, at.Unix(), err)
	fmt.Println(tr.Close())
	// Output:
	// 1m30s 1700000090 <nil>
	// <nil>
}
