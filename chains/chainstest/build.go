package chainstest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// BuildChain accepts n blocks of one transaction each, whose value is valueSize bytes, on chain
// id (as Env.Spec makes it) in a new database, with the solo engine, and returns the database's
// directory, closed: tests copy it to give several nodes the same chain.
func BuildChain(t testing.TB, id ids.ID, n, valueSize int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "chain")
	env := NewEnv(t, dir, nil, nil)
	vm := env.Create(id, nil)
	blocks := make([][]*Tx, n)
	value := strings.Repeat("v", valueSize)
	for i := range blocks {
		blocks[i] = []*Tx{NewTx(fmt.Sprintf("key %d", i), value)}
	}
	require.NoError(t, vm.SubmitBlocks(blocks...))
	// Bounded generously: the machine may be loaded.
	require.Eventually(t, func() bool {
		_, h, _ := env.Manager.LastAccepted(id)
		return h == uint64(n)
	}, 5*time.Minute, time.Millisecond)
	env.Close()
	return dir
}
