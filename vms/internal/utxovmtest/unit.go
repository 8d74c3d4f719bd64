package utxovmtest

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Unit is what a UTXO chain's VM is made with in a unit test, with no pipeline around it: the
// test drives the VM.
type Unit struct {
	// DB is the node's database, in a temp directory; it is closed when the test ends.
	DB *storage.DB
	// Context is the chain's: its key space, a discarding log, a fake clock, its shared memory
	// and a registry that knows the other UTXO chain.
	Context chains.Context
	// Memory is the node's shared memory, for the other chain's handle.
	Memory *atomic.Memory
}

// NewUnit returns the Unit of chain self of network networkID, its genesis bytes given, its key
// space under prefix, its clock at now; the registry knows peer by its alias.
func NewUnit(t testing.TB, networkID uint32, self ids.ID, genesisBytes []byte, prefix storage.Prefix, peer chains.Chain, peerAlias string, now time.Time) Unit {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	db, err := storage.Open(t.TempDir(), log)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	registry, err := chains.NewRegistry(db.Prefixed(storage.PrefixChains), log)
	require.NoError(t, err)
	require.NoError(t, registry.Register(peer, peerAlias))
	mem := atomic.New(db.Prefixed(storage.PrefixAtomic))
	return Unit{DB: db, Memory: mem, Context: chains.Context{
		NetworkID:    networkID,
		Chain:        chains.Chain{ID: self},
		Genesis:      genesisBytes,
		DB:           db.Prefixed(prefix),
		Log:          log,
		Clock:        clock.NewFake(now),
		SharedMemory: mem.For(self),
		Chains:       registry,
	}}
}
