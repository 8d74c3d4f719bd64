package chains_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/ids/idstest"
	"github.com/cornice-node/cornice/storage"
)

// Chains of the tests: IDs of the local network (node-api.md §3.3) and others.
var (
	pID    = ids.Empty
	xID    = idstest.XChainID
	cID    = idstest.CChainID
	lID    = ids.FromName("an L1 chain")
	chainA = ids.FromName("chain A")
	chainB = ids.FromName("chain B")
)

var errBoom = errors.New("boom")

// newEnv is chainstest.NewEnv with the solo engine.
func newEnv(t testing.TB, dir string, indexer chains.Indexer) *chainstest.Env {
	t.Helper()
	return chainstest.NewEnv(t, dir, indexer, nil)
}

// inEnv runs body in a synctest bubble over a fresh environment on a new database, indexed by
// indexer (nil for none), and closes the environment after it.
func inEnv(t *testing.T, indexer chains.Indexer, body func(t *testing.T, e *chainstest.Env)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), indexer)
		defer e.Close()
		body(t, e)
	})
}

// submit queues one block writing each key/value pair of kvs.
func submit(t testing.TB, vm *chainstest.VM, kvs ...string) {
	t.Helper()
	var txs []*chainstest.Tx
	for i := 0; i < len(kvs); i += 2 {
		txs = append(txs, chainstest.NewTx(kvs[i], kvs[i+1]))
	}
	require.NoError(t, vm.Submit(txs...))
}

// pointer reads chain id's stored last-accepted pointer.
func pointer(t testing.TB, e *chainstest.Env, id ids.ID) (ids.ID, uint64, bool) {
	t.Helper()
	blkID, height, ok, err := chains.LoadPointer(e.Manager, id)
	require.NoError(t, err)
	return blkID, height, ok
}

// requireHeight checks every view of chain id's last accepted height, the stored pointer too.
func requireHeight(t testing.TB, e *chainstest.Env, id ids.ID, want uint64) {
	t.Helper()
	e.RequireHeight(id, want)
	lastID, _, _ := e.Manager.LastAccepted(id)
	stored, storedHeight, ok := pointer(t, e, id)
	if want == 0 {
		require.False(t, ok, "no pointer before the first block")
		return
	}
	require.True(t, ok)
	require.Equal(t, lastID, stored)
	require.Equal(t, want, storedHeight)
}

// recordingIndexer writes one entry per block under the index's prefix, and fails when fail is
// set (after writing).
type recordingIndexer struct {
	view *storage.View
	fail error

	mu     sync.Mutex
	blocks []chains.Container
	txs    [][]chains.Container
}

func (a *recordingIndexer) Accept(_ context.Context, batch *storage.Batch, chainID ids.ID, block chains.Container, txs []chains.Container) error {
	if err := a.view.Wrap(batch).Put(append(chainID[:], block.ID[:]...), block.Bytes); err != nil {
		return err
	}
	a.mu.Lock()
	a.blocks = append(a.blocks, block)
	a.txs = append(a.txs, txs)
	a.mu.Unlock()
	return a.fail
}

// got returns the blocks and transactions the indexer was given.
func (a *recordingIndexer) got() ([]chains.Container, [][]chains.Container) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.blocks), slices.Clone(a.txs)
}

func (a *recordingIndexer) has(t testing.TB, chainID, blkID ids.ID) bool {
	t.Helper()
	ok, err := a.view.Has(append(chainID[:], blkID[:]...))
	require.NoError(t, err)
	return ok
}

// oneEntryIndexer writes one small entry per block, as the cheapest index.
type oneEntryIndexer struct{ view *storage.View }

func (a *oneEntryIndexer) Accept(_ context.Context, batch *storage.Batch, chainID ids.ID, block chains.Container, _ []chains.Container) error {
	return a.view.Wrap(batch).Put(append(chainID[:], block.ID[:]...), binary.BigEndian.AppendUint64(nil, 1))
}

func TestNewManagerValidates(t *testing.T) {
	t.Parallel()
	_, err := chains.NewManager(chains.ManagerConfig{}, chains.ManagerDeps{})
	require.ErrorIs(t, err, chains.ErrInvalidSpec)
	for _, what := range []string{"no DB", "no Registry", "no Routes", "no Engines", "no Clock", "no Log"} {
		require.ErrorContains(t, err, what, "every problem is reported at once")
	}
}

func TestCreateErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.Close()
	require.NoError(t, e.Registry.PreAlias(xID, "X", "avm"))
	e.Create(chainA, nil)

	failing := chains.FactoryFunc(func(context.Context, chains.Context) (chains.VM, error) { return nil, errBoom })
	tests := []struct {
		name    string
		adjust  func(*chains.Spec)
		wantErr error
		wantMsg string
	}{
		{"no factory", func(s *chains.Spec) { s.Factory = nil }, chains.ErrInvalidSpec, "no Factory"},
		{"no prefix", func(s *chains.Spec) { s.Prefix = 0 }, chains.ErrInvalidSpec, "is no VM's"},
		{"index prefix", func(s *chains.Spec) { s.Prefix = storage.PrefixIndex }, chains.ErrInvalidSpec, "is no VM's"},
		{"chains prefix", func(s *chains.Spec) { s.Prefix = storage.PrefixChains }, chains.ErrInvalidSpec, "is no VM's"},
		{"negative gap", func(s *chains.Spec) { s.MinBlockGap = -1 }, chains.ErrInvalidSpec, "negative MinBlockGap"},
		{"created twice", func(s *chains.Spec) { s.Chain.ID = chainA }, chains.ErrCreated, "chain already created"},
		{"factory fails", func(s *chains.Spec) { s.Factory = failing }, errBoom, "make VM of chain"},
		{"alias of another chain", func(s *chains.Spec) { s.Aliases = []string{"X"} }, chains.ErrAliasInUse, "register chain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := ids.FromName("failing " + tt.name)
			spec := e.Spec(id)
			tt.adjust(&spec)
			err := e.Manager.Create(t.Context(), spec)
			require.ErrorIs(t, err, tt.wantErr)
			require.ErrorContains(t, err, tt.wantMsg)
			if spec.Chain.ID == id {
				_, ok := e.Manager.VM(id)
				require.False(t, ok)
				_, ok = e.Registry.Chain(id)
				require.False(t, ok, "a chain that failed before registering is not registered")
				if vm := e.VM(id); vm != nil {
					require.True(t, vm.IsClosed(), "the VM made is closed")
				}
			}
		})
	}
}

// An engine that cannot be made or started fails Create, and the VM is closed.
func TestCreateEngineErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		engines chains.EngineFactory
		wantMsg string
	}{
		{"factory fails", chains.EngineFactoryFunc(func(context.Context, chains.EngineContext) (chains.Engine, error) {
			return nil, errBoom
		}), "make engine of chain"},
		{"start fails", chains.EngineFactoryFunc(func(context.Context, chains.EngineContext) (chains.Engine, error) {
			return failingEngine{}, nil
		}), "start engine of chain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := chainstest.NewEnv(t, filepath.Join(t.TempDir(), "db"), nil, tt.engines)
			defer e.Close()
			err := e.Manager.Create(t.Context(), e.Spec(chainA))
			require.ErrorIs(t, err, errBoom)
			require.ErrorContains(t, err, tt.wantMsg)
			require.True(t, e.VM(chainA).IsClosed())
			state, ok := e.Registry.State(chainA)
			require.True(t, ok)
			require.Equal(t, chains.Created, state)
		})
	}
}

// failingEngine fails to start.
type failingEngine struct{}

func (failingEngine) Start(context.Context) error { return errBoom }
func (failingEngine) Run(context.Context) error   { return nil }

func TestCreateAfterClose(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	vm := e.Create(chainA, nil)
	e.Close()
	require.True(t, vm.IsClosed())
	require.ErrorIs(t, e.Manager.Create(t.Context(), e.Spec(chainB)), chains.ErrManagerClosed)
	require.NoError(t, e.Manager.Close(), "Close is idempotent")
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.Close()
	require.NoError(t, e.Registry.PreAlias(xID, "X", "avm"))
	// A persisted alias (admin.aliasChain in an earlier run) gets its route too.
	require.NoError(t, e.Registry.Alias(xID, "exchange"))

	e.Create(xID, func(s *chains.Spec) { s.APIAliases = []string{"X", "avm"} })
	e.Create(cID, func(s *chains.Spec) { s.Aliases = []string{"C", "evm"}; s.APIAliases = []string{"C", "evm"} })
	e.Create(lID, nil)

	tests := []struct {
		name  string
		id    ids.ID
		bases []string
	}{
		{"pre-aliased X", xID, []string{"bc/X", "bc/avm", "bc/exchange", "X", "avm"}},
		{"C aliased at creation", cID, []string{"bc/C", "bc/evm", "C", "evm"}},
		{"L1 without aliases", lID, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := e.Routes.Call(t, tt.id)
			require.Equal(t, tt.bases, c.Bases)
			require.Equal(t, []string{"/rpc"}, c.Exts)
			require.False(t, c.ReadyAtAdd, "routes are added before normal operation")
			require.True(t, c.Ready(), "ready once Create returned")
			state, ok := e.Registry.State(tt.id)
			require.True(t, ok)
			require.Equal(t, chains.NormalOperation, state)
			ok, err := e.Registry.IsBootstrapped(tt.id.String())
			require.NoError(t, err)
			require.True(t, ok)
		})
	}

	// Ready follows the registry's state.
	c := e.Routes.Call(t, lID)
	require.NoError(t, e.Registry.SetState(lID, chains.Bootstrapping))
	require.False(t, c.Ready())
	require.NoError(t, e.Registry.SetState(lID, chains.NormalOperation))
	require.True(t, c.Ready())
}

func TestRoutesFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.Close()
	e.Routes.Err = errBoom
	err := e.Manager.Create(t.Context(), e.Spec(chainA))
	require.ErrorIs(t, err, errBoom)
	require.True(t, e.VM(chainA).IsClosed())
	_, ok := e.Manager.VM(chainA)
	require.False(t, ok)
	// Registered before its routes failed: it stays, never bootstrapped.
	state, ok := e.Registry.State(chainA)
	require.True(t, ok)
	require.Equal(t, chains.Created, state)
	e.Routes.Err = nil
	require.ErrorIs(t, e.Manager.Create(t.Context(), e.Spec(chainA)), chains.ErrRegistered)
}

func TestRouteBases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		aliases    []string
		apiAliases []string
		want       []string
	}{
		{"none", nil, nil, []string{}},
		{"ID string skipped", []string{"P", "platform", pID.String()}, []string{"P", "platform"},
			[]string{"bc/P", "bc/platform", "P", "platform"}},
		{"duplicates dropped", []string{"X"}, []string{"X", "X", "bc/X"}, []string{"bc/X", "X"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, chains.RouteBases(pID, tt.aliases, tt.apiAliases))
		})
	}
}

func TestRestartResumes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		acc := &recordingIndexer{}
		e := newEnv(t, dir, nil)
		vm := e.Create(chainA, nil)
		for i := range 3 {
			submit(t, vm, "k", string(rune('a'+i)))
		}
		synctest.Wait()
		requireHeight(t, e, chainA, 3)
		third, _, _ := e.Manager.LastAccepted(chainA)
		e.Close()

		e = newEnv(t, dir, acc)
		defer e.Close()
		acc.view = e.DB.Prefixed(storage.PrefixIndex)
		vm = e.Create(chainA, nil)
		requireHeight(t, e, chainA, 3)
		last, err := vm.GetBlock(t.Context(), third)
		require.NoError(t, err)
		at, ok := e.Manager.LastAcceptedTime(chainA)
		require.True(t, ok)
		require.Equal(t, last.Timestamp(), at, "the last accepted block's time, read back at start-up")
		vm.RequireState(t, "k", "c")

		submit(t, vm, "k", "d")
		synctest.Wait()
		requireHeight(t, e, chainA, 4)
		id, err := vm.GetBlockIDAtHeight(t.Context(), 4)
		require.NoError(t, err)
		blk, err := vm.GetBlock(t.Context(), id)
		require.NoError(t, err)
		require.Equal(t, third, blk.Parent())
		blocks, _ := acc.got()
		require.Len(t, blocks, 1, "the index continues with the new block only")
	})
}

func TestRecovery(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		e := newEnv(t, dir, nil)
		vm := e.Create(chainA, nil)
		submit(t, vm, "k", "1")
		submit(t, vm, "k", "2")
		synctest.Wait()
		requireHeight(t, e, chainA, 2)
		first, err := vm.GetBlockIDAtHeight(t.Context(), 1)
		require.NoError(t, err)
		second, _, _ := e.Manager.LastAccepted(chainA)

		// The VM of chain B writes a block by itself, outside the accept path.
		vmB := e.Create(chainB, nil)
		require.NoError(t, vmB.View().Put(chainstest.BlockKey(first), mustBytes(t, vm, first)))
		require.NoError(t, vmB.Rewind(first))
		e.Close()

		// Chain A's VM moves its last-accepted record back: it wrote outside the batch.
		e = newEnv(t, dir, nil)
		defer e.Close()
		vmView := e.DB.Prefixed(storage.PrefixEVM).Prefixed(chainA[:])
		require.NoError(t, vmView.Put(chainstest.LastKey(), first[:]))
		err = e.Manager.Create(t.Context(), e.Spec(chainA))
		require.ErrorIs(t, err, chains.ErrRecovery)
		require.ErrorContains(t, err, "the accept path last accepted "+second.String()+" at height 2")
		require.True(t, e.VM(chainA).IsClosed())

		err = e.Manager.Create(t.Context(), e.Spec(chainB))
		require.ErrorIs(t, err, chains.ErrRecovery)
		require.ErrorContains(t, err, "no block was accepted through the accept path")

		// A Recoverer is brought back to the pointer before the check.
		var recovered []uint64
		e.Setup = func(vm *chainstest.VM) {
			vm.RecoverF = func(_ context.Context, lastAccepted ids.ID, height uint64) error {
				recovered = append(recovered, height)
				return vm.Rewind(lastAccepted)
			}
		}
		require.NoError(t, e.Manager.Create(t.Context(), e.Spec(chainA)))
		require.Equal(t, []uint64{2}, recovered)
		got, height, ok := e.Manager.LastAccepted(chainA)
		require.True(t, ok)
		require.Equal(t, second, got)
		require.Equal(t, uint64(2), height)
	})
}

func mustBytes(t *testing.T, vm *chainstest.VM, id ids.ID) []byte {
	t.Helper()
	blk, err := vm.GetBlock(t.Context(), id)
	require.NoError(t, err)
	return blk.Bytes()
}

func TestRecoveryCorruptPointer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.Close()
	require.NoError(t, e.DB.Prefixed(storage.PrefixChains).Put(chains.LastAcceptedKey(chainA), []byte("short")))
	err := e.Manager.Create(t.Context(), e.Spec(chainA))
	require.ErrorIs(t, err, chains.ErrBadPointerRecord)
}

func TestSubscribe(t *testing.T) {
	t.Parallel()
	inEnv(t, nil, func(t *testing.T, e *chainstest.Env) {

		var got, late chainstest.Recorder[uint64]
		// Subscribed before the chain exists.
		unsubscribe := e.Manager.Subscribe(chainA, func(b chains.Block) {
			// Called after the commit: the pointer on disk is this block.
			stored, height, ok := pointer(t, e, chainA)
			require.True(t, ok)
			require.Equal(t, b.ID(), stored)
			require.Equal(t, b.Height(), height)
			got.Add(b.Height())
		})
		var unsubscribeSelf func()
		unsubscribeSelf = e.Manager.Subscribe(chainA, func(b chains.Block) {
			late.Add(b.Height())
			unsubscribeSelf() // from inside fn
		})
		other := e.Manager.Subscribe(chainB, func(chains.Block) { t.Error("chain B has no blocks") })
		defer other()

		vm := e.Create(chainA, nil)
		for i := range 5 {
			submit(t, vm, "k", string(rune('a'+i)))
		}
		synctest.Wait()
		require.Equal(t, []uint64{1, 2, 3, 4, 5}, got.Get())
		require.Equal(t, []uint64{1}, late.Get())

		unsubscribe()
		unsubscribe() // twice is harmless
		submit(t, vm, "k", "f")
		synctest.Wait()
		requireHeight(t, e, chainA, 6)
		require.Equal(t, []uint64{1, 2, 3, 4, 5}, got.Get())
	})
}

func TestHealth(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.Close()
	e.Create(chainA, nil)
	details, err := e.Manager.Health(t.Context(), chainA)
	require.NoError(t, err)
	genesis, err := e.VM(chainA).GetBlockIDAtHeight(t.Context(), 0)
	require.NoError(t, err)
	require.Equal(t, chains.Status{LastAccepted: genesis, Height: 0}, details)

	_, err = e.Manager.Health(t.Context(), chainB)
	require.ErrorIs(t, err, chains.ErrNoChain)
	_, _, ok := e.Manager.LastAccepted(chainB)
	require.False(t, ok)
}

// progressEngine is an idle engine that tells its bootstrapping progress.
type progressEngine struct{ chains.Engine }

func (progressEngine) Progress() (any, bool) { return map[string]int{"fetched": 7}, true }

// A chain that is not in normal operation fails its health check with ErrBootstrapping, and
// shows its engine's progress.
func TestHealthWhileBootstrapping(t *testing.T) {
	t.Parallel()
	idle := &chainstest.Idle{}
	engines := chains.EngineFactoryFunc(func(ctx context.Context, c chains.EngineContext) (chains.Engine, error) {
		e, err := idle.NewEngine(ctx, c)
		if c.Chain.ID == chainB {
			return progressEngine{e}, err
		}
		return e, err
	})
	e := chainstest.NewEnv(t, t.TempDir(), nil, engines)
	defer e.Close()
	e.Create(chainA, nil)
	e.Create(chainB, nil)
	genesis := e.VM(chainA).Genesis().ID()
	details, err := e.Manager.Health(t.Context(), chainA)
	require.ErrorIs(t, err, chains.ErrBootstrapping)
	require.Equal(t, chains.Status{LastAccepted: genesis}, details)
	details, err = e.Manager.Health(t.Context(), chainB)
	require.ErrorIs(t, err, chains.ErrBootstrapping)
	require.Equal(t, chains.Status{LastAccepted: e.VM(chainB).Genesis().ID(), Bootstrapping: map[string]int{"fetched": 7}}, details)
	b, err := json.Marshal(details)
	require.NoError(t, err)
	require.Contains(t, string(b), `"bootstrapping":{"fetched":7}`)
}

// TestContextFiles checks that a Spec's upgrade and config files reach the VM's Context.
func TestContextFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t.TempDir(), nil)
	defer e.Close()
	tests := []struct {
		name            string
		upgrade, config []byte
	}{
		{name: "none"},
		{name: "both", upgrade: []byte(`{"precompileUpgrades":[]}`), config: []byte(`{"a":1}`)},
		{name: "config only", config: []byte(`{}`)},
	}
	for i, tt := range tests {
		var got chains.Context
		e.Create(ids.ID{byte(i + 1)}, func(s *chains.Spec) {
			s.Upgrade, s.Config = tt.upgrade, tt.config
			s.Factory = chains.FactoryFunc(func(ctx context.Context, c chains.Context) (chains.VM, error) {
				got = c
				return e.Factory().New(ctx, c)
			})
		})
		require.Equal(t, tt.upgrade, got.Upgrade, tt.name)
		require.Equal(t, tt.config, got.Config, tt.name)
	}
}

// TestContextSharedMemory checks that each VM's Context holds its own chain's handle on the one
// shared memory: what chain A exports to B, B reads from A.
func TestContextSharedMemory(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t.TempDir(), nil)
	defer e.Close()
	got := make(map[ids.ID]chains.Context)
	for _, id := range []ids.ID{chainA, chainB} {
		e.Create(id, func(s *chains.Spec) {
			s.Factory = chains.FactoryFunc(func(ctx context.Context, c chains.Context) (chains.VM, error) {
				got[id] = c
				return e.Factory().New(ctx, c)
			})
		})
	}
	key := ids.ID{42}
	b := e.DB.NewBatch()
	require.NoError(t, got[chainA].SharedMemory.Apply(b, map[ids.ID]*atomic.Requests{
		chainB: {Put: []atomic.Element{{Key: key, Value: []byte("utxo")}}},
	}))
	require.NoError(t, b.Commit())
	values, err := got[chainB].SharedMemory.Get(chainA, []ids.ID{key})
	require.NoError(t, err)
	require.Equal(t, [][]byte{[]byte("utxo")}, values)
	require.Same(t, e.Registry, got[chainB].Chains, "the registry resolves the other chains")
}

// layer is a VM wrapped around another, as the proposer windows wrap a chain's VM.
type layer struct{ chains.VM }

func (l layer) Unwrap() chains.VM { return l.VM }

// Manager.VM returns the chain's own VM beneath the layers wrapped around it, which callers ask
// for the capabilities of its kind.
func TestVMUnwraps(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.Close()
	inner := e.Create(chainA, func(s *chains.Spec) {
		f := s.Factory
		s.Factory = chains.FactoryFunc(func(ctx context.Context, c chains.Context) (chains.VM, error) {
			vm, err := f.New(ctx, c)
			return layer{layer{vm}}, err
		})
	})
	vm, ok := e.Manager.VM(chainA)
	require.True(t, ok)
	require.Same(t, inner, vm)
}
