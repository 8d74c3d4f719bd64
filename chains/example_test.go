package chains_test

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// The node's start-up: the Primary Network chains are pre-aliased, then
// registered as they are created.
func Example() {
	dir, err := os.MkdirTemp("", "cornice-chains-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db, err := storage.Open(filepath.Join(dir, "db"), slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	defer db.Close()

	r, err := chains.NewRegistry(db.Prefixed(storage.PrefixChains), slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	pChain := ids.Empty
	_ = r.PreAlias(pChain, "P", "platform")

	_, err = r.IsBootstrapped(pChain.String())
	fmt.Println(err) // the ID string is no alias until the chain exists

	_ = r.Register(chains.Chain{ID: pChain, Name: "P-Chain"})
	_ = r.SetState(pChain, chains.NormalOperation)
	ok, _ := r.IsBootstrapped(pChain.String())
	aliases, _ := r.Aliases(pChain)
	fmt.Println(ok, aliases)
	// Output:
	// there is no chain with alias/ID '11111111111111111111111111111111LpoYY'
	// true [P platform 11111111111111111111111111111111LpoYY]
}
