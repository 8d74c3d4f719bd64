package node_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
)

// The crash test of issue #3: a node process is killed with SIGKILL at random moments while its
// chains accept blocks, and restarted on the same data dir. After every restart each index must
// be dense and hold every accepted block (and X transaction) exactly once, with its ID and bytes,
// its last container being the chain's last accepted block (DESIGN.md: a crash leaves the whole
// block or none of it).

// Environment of the node process TestCrash starts, besides its data dir: the L1's chain and
// subnet IDs, which must stay the same across restarts.
const (
	crashL1Env     = "CORNICE_CRASH_CHILD_L1"
	crashSubnetEnv = "CORNICE_CRASH_CHILD_SUBNET"
	// crashSeedEnv replays a run: TestCrash logs its seed.
	crashSeedEnv = "CORNICE_CRASH_SEED"
)

// TestCrashChild is not a test on its own: it is the node process of TestCrash, which starts it
// with nodetest and the environment above. It runs a node with the test chains and serves until
// TestCrash stops or kills it.
func TestCrashChild(t *testing.T) {
	dir := nodetest.Dir(t)
	var tn testNet
	var err error
	tn.l1ID, err = ids.FromString(os.Getenv(crashL1Env))
	require.NoError(t, err)
	tn.l1Subnet, err = ids.FromString(os.Getenv(crashSubnetEnv))
	require.NoError(t, err)

	n, err := node.New(nodeConfig(dir), nodetest.Logger(), nil, tn.chains(true)...)
	require.NoError(t, err)
	nodetest.Serve(t, n)
}

// startCrashChild starts a node process over dir and waits for it to serve.
func startCrashChild(t *testing.T, dir string, tn testNet) *nodetest.Child {
	t.Helper()
	return nodetest.Start(t, nodetest.Config{
		Test: "TestCrashChild",
		Dir:  dir,
		Env:  []string{crashL1Env + "=" + tn.l1ID.String(), crashSubnetEnv + "=" + tn.l1Subnet.String()},
	})
}

// drive submits transactions to every chain of the node at url, one after another on each chain,
// until ctx is done or the node stops answering. Keys are unique to the run, so no transaction
// repeats one accepted before.
func drive(ctx context.Context, wg *sync.WaitGroup, url string, tn testNet, run int) {
	for _, chain := range []string{"X", "P", "C", tn.l1ID.String()} {
		wg.Go(func() {
			for j := 0; ctx.Err() == nil; j++ {
				params := fmt.Sprintf(`{"key":"r%d-%s-%d","value":"%d"}`, run, chain[:1], j, j)
				if err := callRPC(url+"/ext/bc/"+chain+"/rpc", "kv.put", params, nil); err != nil {
					return // killed
				}
			}
		})
	}
}

// crashState is what TestCrash has seen of the node: each chain's accepted blocks from genesis
// on (by kv service path) and each index (by index path), all checked against one another.
type crashState struct {
	chains  map[string][]*chainstest.Block
	indexes map[string][]gotContainer
}

// check reads the node at url after a restart. Each chain must still lead to the blocks seen
// before (block IDs chain by hash, so the last one vouches for all before it), and each index must
// be dense and hold every block (or X transaction) accepted so far exactly once, with its ID and
// bytes, in order, its entries from before the crash unchanged, acceptance times included.
func (st *crashState) check(t *testing.T, url string, tn testNet) {
	t.Helper()
	for _, target := range tn.targets() {
		if target.kind != index.Block {
			continue // X's blocks are read once, for its block index
		}
		known := st.chains[target.rpc]
		blocks, last, err := fetchBlocks(url+target.rpc, uint64(len(known)))
		require.NoError(t, err, target.rpc)
		for _, b := range blocks {
			if len(known) == 0 {
				require.Zero(t, b.Height(), "%s starts at genesis", target.rpc)
			} else {
				require.Equal(t, known[len(known)-1].ID(), b.Parent(), "%s: block at height %d", target.rpc, b.Height())
			}
			known = append(known, b)
		}
		require.Equal(t, known[len(known)-1].ID(), last, "%s: last accepted block", target.rpc)
		st.chains[target.rpc] = known
	}

	for _, target := range tn.targets() {
		chain := st.chains[target.rpc]
		blocks, txs := containers(chain[1:]) // genesis is never indexed
		var want []wantContainer
		switch target.kind {
		case index.Block:
			want = blocks
		case index.Tx:
			want = txs
		}
		entries, err := readIndex(url + target.path)
		require.NoError(t, err, target.path)
		// Lengths, not slices, in the message: the slices hold thousands of entries.
		require.Equal(t, len(want), len(entries), "%s: one entry per accepted container", target.path)
		old := st.indexes[target.path]
		require.GreaterOrEqual(t, len(entries), len(old), "%s: entries lost", target.path)
		seen := make(map[ids.ID]bool, len(entries))
		// Compared in a loop, with require only on a mismatch: there are thousands.
		for i, e := range entries {
			w := want[i]
			if e.Index != strconv.Itoa(i) || e.ID != w.id || e.Bytes != hexWithChecksum(w.bytes) || seen[e.ID] {
				require.FailNow(t, target.path+": wrong entry", "index %d: got %+v, want ID %s bytes %x (seen before: %t)",
					i, e, w.id, w.bytes, seen[e.ID])
			}
			seen[e.ID] = true
			if i < len(old) && old[i] != e {
				require.FailNow(t, target.path+": entry changed across the crash", "index %d: was %+v, is %+v", i, old[i], e)
			}
		}
		if target.kind == index.Block && len(entries) > 0 {
			require.Equal(t, chain[len(chain)-1].ID(), entries[len(entries)-1].ID,
				"%s: the last container is the last accepted block", target.path)
		}
		st.indexes[target.path] = entries
	}
}

// heights returns each chain's last accepted height, for the log.
func (st *crashState) heights() map[string]int {
	out := make(map[string]int)
	for rpc, blocks := range st.chains {
		out[strings.Split(rpc, "/")[3]] = len(blocks) - 1
	}
	return out
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a node process 25 times")
	}
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(crashSeedEnv); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
	}
	t.Logf("seed %d (replay the kill times with %s=%d)", seed, crashSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, seed>>32))

	const kills = 25
	tn := newTestNet()
	dir := t.TempDir()
	st := &crashState{chains: make(map[string][]*chainstest.Block), indexes: make(map[string][]gotContainer)}
	for run := 0; ; run++ {
		child := startCrashChild(t, dir, tn)
		st.check(t, child.URL(), tn)
		if run == kills {
			child.Stop(t)
			break
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		drive(ctx, &wg, child.URL(), tn, run)
		delay := time.Duration(rng.IntN(400)+1) * time.Millisecond
		time.Sleep(delay)
		child.Kill()
		cancel()
		wg.Wait()
		t.Logf("run %d: killed after %s; heights at its start: %v", run, delay, st.heights())
	}
	heights := st.heights()
	t.Logf("heights at the end: %v", heights)
	for chain, h := range heights {
		require.Positive(t, h, "%s accepted no block at all", chain)
	}
}
