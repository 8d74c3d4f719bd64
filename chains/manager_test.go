package chains

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// testEnv is a node's worth of chains machinery over one database.
type testEnv struct {
	t      testing.TB
	dir    string
	db     *storage.DB
	reg    *Registry
	routes *fakeRoutes
	m      *Manager

	mu sync.Mutex // guards vms
	// vms holds the VM made for each chain, last one made.
	vms map[ids.ID]*testVM
	// setup, if set, adjusts each VM before the manager sees it.
	setup func(vm *testVM)
}

// newEnv opens (or reopens) the database in dir with a new registry and
// manager. Call close when done (inside a synctest bubble, before f returns).
func newEnv(t testing.TB, dir string, acceptor Acceptor) *testEnv {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	if tt, ok := t.(*testing.T); ok {
		log = slog.New(slog.NewTextHandler(tt.Output(), nil))
	}
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	reg, err := NewRegistry(db.Prefixed(storage.PrefixChains), log)
	require.NoError(t, err)
	e := &testEnv{t: t, dir: dir, db: db, reg: reg, routes: &fakeRoutes{}, vms: map[ids.ID]*testVM{}}
	e.m, err = NewManager(ManagerConfig{NetworkID: 12345}, ManagerDeps{
		DB:       db,
		Registry: reg,
		Routes:   e.routes,
		Acceptor: acceptor,
		Clock:    clock.Real{},
		Log:      log,
	})
	require.NoError(t, err)
	return e
}

// close stops the manager and closes the database.
func (e *testEnv) close() {
	require.NoError(e.t, e.m.Close())
	require.NoError(e.t, e.db.Close())
}

// factory makes testVMs and remembers them.
func (e *testEnv) factory() Factory {
	return FactoryFunc(func(_ context.Context, c Context) (VM, error) {
		vm, err := newTestVM(c)
		if err != nil {
			return nil, err
		}
		if e.setup != nil {
			e.setup(vm)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		e.vms[c.Chain.ID] = vm
		return vm, nil
	})
}

// spec is the Spec of a test chain, indexed, with no aliases.
func (e *testEnv) spec(id ids.ID) Spec {
	return Spec{
		Chain:   Chain{ID: id, Name: "test chain"},
		Prefix:  storage.PrefixEVM,
		Factory: e.factory(),
		Genesis: []byte("genesis of " + id.String()),
		Indexed: true,
	}
}

// create creates chain id from spec (e.spec(id) if nil) and returns its VM.
func (e *testEnv) create(id ids.ID, adjust func(*Spec)) *testVM {
	e.t.Helper()
	spec := e.spec(id)
	if adjust != nil {
		adjust(&spec)
	}
	require.NoError(e.t, e.m.Create(context.Background(), spec))
	return e.vm(id)
}

func (e *testEnv) vm(id ids.ID) *testVM {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.vms[id]
}

// pointer reads chain id's stored last-accepted pointer.
func (e *testEnv) pointer(id ids.ID) (ids.ID, uint64, bool) {
	e.t.Helper()
	blkID, height, ok, err := e.m.loadPointer(id)
	require.NoError(e.t, err)
	return blkID, height, ok
}

// requireHeight checks every view of chain id's last accepted height.
func (e *testEnv) requireHeight(id ids.ID, want uint64) {
	e.t.Helper()
	lastID, height, ok := e.m.LastAccepted(id)
	require.True(e.t, ok)
	require.Equal(e.t, want, height, "pipeline height")
	vm := e.vm(id)
	vmLast, err := vm.LastAccepted(context.Background())
	require.NoError(e.t, err)
	require.Equal(e.t, lastID, vmLast, "VM's last accepted")
	stored, storedHeight, ok := e.pointer(id)
	if want == 0 {
		require.False(e.t, ok, "no pointer before the first block")
		return
	}
	require.True(e.t, ok)
	require.Equal(e.t, lastID, stored)
	require.Equal(e.t, want, storedHeight)
}

// fakeRoutes records AddChainRoutes calls.
type fakeRoutes struct {
	mu    sync.Mutex
	calls []routeCall
	err   error
}

type routeCall struct {
	chainID    ids.ID
	exts       []string
	bases      []string
	ready      func() bool
	readyAtAdd bool
}

func (r *fakeRoutes) AddChainRoutes(chainID ids.ID, handlers map[string]http.Handler, bases []string, ready func() bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	r.calls = append(r.calls, routeCall{
		chainID:    chainID,
		exts:       slices.Sorted(maps.Keys(handlers)),
		bases:      bases,
		ready:      ready,
		readyAtAdd: ready(),
	})
	return nil
}

func (r *fakeRoutes) call(t testing.TB, id ids.ID) routeCall {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		if c.chainID == id {
			return c
		}
	}
	t.Fatalf("no routes for chain %s", id)
	return routeCall{}
}

// recordingAcceptor writes one entry per block under the index's prefix,
// and fails when fail is set (after writing).
type recordingAcceptor struct {
	view *storage.View
	fail error

	mu     sync.Mutex
	blocks []Container
	txs    [][]Container
}

func (a *recordingAcceptor) Accept(_ context.Context, batch *storage.Batch, chainID ids.ID, block Container, txs []Container) error {
	if err := a.view.Wrap(batch).Put(append(chainID[:], block.ID[:]...), block.Bytes); err != nil {
		return err
	}
	a.mu.Lock()
	a.blocks = append(a.blocks, block)
	a.txs = append(a.txs, txs)
	a.mu.Unlock()
	return a.fail
}

// got returns the blocks and transactions the acceptor was given.
func (a *recordingAcceptor) got() ([]Container, [][]Container) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.blocks), slices.Clone(a.txs)
}

// recorder collects values from a pipeline goroutine for the test to read:
// synctest.Wait does not order memory for the race detector, a mutex does.
type recorder[T any] struct {
	mu sync.Mutex
	v  []T
}

func (r *recorder[T]) add(v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.v = append(r.v, v)
}

func (r *recorder[T]) get() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.v)
}

func (a *recordingAcceptor) has(t testing.TB, chainID, blkID ids.ID) bool {
	t.Helper()
	ok, err := a.view.Has(append(chainID[:], blkID[:]...))
	require.NoError(t, err)
	return ok
}

// Chains of the tests.
var (
	chainA = ids.FromName("chain A")
	chainB = ids.FromName("chain B")
)

var errBoom = errors.New("boom")

func TestNewManagerValidates(t *testing.T) {
	t.Parallel()
	_, err := NewManager(ManagerConfig{}, ManagerDeps{})
	require.ErrorIs(t, err, ErrInvalidSpec)
	for _, what := range []string{"no DB", "no Registry", "no Routes", "no Clock", "no Log"} {
		require.ErrorContains(t, err, what, "every problem is reported at once")
	}
}

func TestCreateErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.close()
	require.NoError(t, e.reg.PreAlias(xID, "X", "avm"))
	e.create(chainA, nil)

	failing := FactoryFunc(func(context.Context, Context) (VM, error) { return nil, errBoom })
	tests := []struct {
		name    string
		adjust  func(*Spec)
		wantErr error
		wantMsg string
	}{
		{"no factory", func(s *Spec) { s.Factory = nil }, ErrInvalidSpec, "no Factory"},
		{"no prefix", func(s *Spec) { s.Prefix = 0 }, ErrInvalidSpec, "is no VM's"},
		{"index prefix", func(s *Spec) { s.Prefix = storage.PrefixIndex }, ErrInvalidSpec, "is no VM's"},
		{"chains prefix", func(s *Spec) { s.Prefix = storage.PrefixChains }, ErrInvalidSpec, "is no VM's"},
		{"negative gap", func(s *Spec) { s.MinBlockGap = -1 }, ErrInvalidSpec, "negative MinBlockGap"},
		{"created twice", func(s *Spec) { s.Chain.ID = chainA }, ErrCreated, "chain already created"},
		{"factory fails", func(s *Spec) { s.Factory = failing }, errBoom, "make VM of chain"},
		{"alias of another chain", func(s *Spec) { s.Aliases = []string{"X"} }, ErrAliasInUse, "register chain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := ids.FromName("failing " + tt.name)
			spec := e.spec(id)
			tt.adjust(&spec)
			err := e.m.Create(t.Context(), spec)
			require.ErrorIs(t, err, tt.wantErr)
			require.ErrorContains(t, err, tt.wantMsg)
			if spec.Chain.ID == id {
				_, ok := e.m.VM(id)
				require.False(t, ok)
				_, ok = e.reg.Chain(id)
				require.False(t, ok, "a chain that failed before registering is not registered")
				if vm := e.vm(id); vm != nil {
					require.True(t, vm.isClosed(), "the VM made is closed")
				}
			}
		})
	}
}

func TestCreateAfterClose(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	vm := e.create(chainA, nil)
	e.close()
	require.True(t, vm.isClosed())
	require.ErrorIs(t, e.m.Create(t.Context(), e.spec(chainB)), ErrManagerClosed)
	require.NoError(t, e.m.Close(), "Close is idempotent")
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.close()
	require.NoError(t, e.reg.PreAlias(xID, "X", "avm"))
	// A persisted alias (admin.aliasChain in an earlier run) gets its route too.
	require.NoError(t, e.reg.Alias(xID, "exchange"))

	e.create(xID, func(s *Spec) { s.APIAliases = []string{"X", "avm"} })
	e.create(cID, func(s *Spec) { s.Aliases = []string{"C", "evm"}; s.APIAliases = []string{"C", "evm"} })
	e.create(lID, nil)

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
			c := e.routes.call(t, tt.id)
			require.Equal(t, tt.bases, c.bases)
			require.Equal(t, []string{"", "/rpc"}, c.exts)
			require.False(t, c.readyAtAdd, "routes are added before normal operation")
			require.True(t, c.ready(), "ready once Create returned")
			state, ok := e.reg.State(tt.id)
			require.True(t, ok)
			require.Equal(t, NormalOperation, state)
			ok, err := e.reg.IsBootstrapped(tt.id.String())
			require.NoError(t, err)
			require.True(t, ok)
		})
	}

	// ready follows the registry's state.
	c := e.routes.call(t, lID)
	require.NoError(t, e.reg.SetState(lID, Bootstrapping))
	require.False(t, c.ready())
	require.NoError(t, e.reg.SetState(lID, NormalOperation))
	require.True(t, c.ready())
}

func TestRoutesFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.close()
	e.routes.err = errBoom
	err := e.m.Create(t.Context(), e.spec(chainA))
	require.ErrorIs(t, err, errBoom)
	require.True(t, e.vm(chainA).isClosed())
	_, ok := e.m.VM(chainA)
	require.False(t, ok)
	// Registered before its routes failed: it stays, never bootstrapped.
	state, ok := e.reg.State(chainA)
	require.True(t, ok)
	require.Equal(t, Created, state)
	e.routes.err = nil
	require.ErrorIs(t, e.m.Create(t.Context(), e.spec(chainA)), ErrRegistered)
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
			require.Equal(t, tt.want, routeBases(pID, tt.aliases, tt.apiAliases))
		})
	}
}

func TestRestartResumes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "db")
		acc := &recordingAcceptor{}
		e := newEnv(t, dir, nil)
		vm := e.create(chainA, nil)
		for i := range 3 {
			vm.submit(kv{Key: "k", Value: string(rune('a' + i))})
		}
		synctest.Wait()
		e.requireHeight(chainA, 3)
		third, _, _ := e.m.LastAccepted(chainA)
		e.close()

		e = newEnv(t, dir, acc)
		defer e.close()
		acc.view = e.db.Prefixed(storage.PrefixIndex)
		vm = e.create(chainA, nil)
		e.requireHeight(chainA, 3)
		v, err := vm.state("k")
		require.NoError(t, err)
		require.Equal(t, "c", v)

		vm.submit(kv{Key: "k", Value: "d"})
		synctest.Wait()
		e.requireHeight(chainA, 4)
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
		vm := e.create(chainA, nil)
		vm.submit(kv{Key: "k", Value: "1"})
		vm.submit(kv{Key: "k", Value: "2"})
		synctest.Wait()
		e.requireHeight(chainA, 2)
		first, err := vm.GetBlockIDAtHeight(t.Context(), 1)
		require.NoError(t, err)
		second, _, _ := e.m.LastAccepted(chainA)

		// The VM of chain B writes a block by itself, outside the pipeline.
		vmB := e.create(chainB, nil)
		require.NoError(t, vmB.db.Put([]byte("last"), first[:]))
		require.NoError(t, vmB.db.Put(append([]byte("b"), first[:]...), mustBytes(t, vm, first)))
		e.close()

		// Chain A's VM moves its last-accepted record back: it wrote
		// outside the batch.
		e = newEnv(t, dir, nil)
		defer e.close()
		vmView := e.db.Prefixed(storage.PrefixEVM).Prefixed(chainA[:])
		require.NoError(t, vmView.Put([]byte("last"), first[:]))
		err = e.m.Create(t.Context(), e.spec(chainA))
		require.ErrorIs(t, err, ErrRecovery)
		require.ErrorContains(t, err, "the pipeline last accepted "+second.String()+" at height 2")
		require.True(t, e.vm(chainA).isClosed())

		err = e.m.Create(t.Context(), e.spec(chainB))
		require.ErrorIs(t, err, ErrRecovery)
		require.ErrorContains(t, err, "no block was accepted through the pipeline")

		// A Recoverer is brought back to the pointer before the check.
		var rvm *recoveringVM
		spec := e.spec(chainA)
		spec.Factory = FactoryFunc(func(_ context.Context, c Context) (VM, error) {
			tvm, err := newTestVM(c)
			rvm = &recoveringVM{testVM: tvm}
			return rvm, err
		})
		require.NoError(t, e.m.Create(t.Context(), spec))
		require.Equal(t, []uint64{2}, rvm.recovered)
		got, height, ok := e.m.LastAccepted(chainA)
		require.True(t, ok)
		require.Equal(t, second, got)
		require.Equal(t, uint64(2), height)
	})
}

func mustBytes(t *testing.T, vm *testVM, id ids.ID) []byte {
	t.Helper()
	blk, err := vm.GetBlock(t.Context(), id)
	require.NoError(t, err)
	return blk.Bytes()
}

func TestRecoveryCorruptPointer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.close()
	require.NoError(t, e.db.Prefixed(storage.PrefixChains).Put(lastAcceptedKey(chainA), []byte("short")))
	err := e.m.Create(t.Context(), e.spec(chainA))
	require.ErrorIs(t, err, errBadPointerRecord)
}

func TestSubscribe(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
		defer e.close()

		var got, late recorder[uint64]
		// Subscribed before the chain exists.
		unsubscribe := e.m.Subscribe(chainA, func(b Block) {
			// Called after the commit: the pointer on disk is this block.
			stored, height, ok := e.pointer(chainA)
			require.True(t, ok)
			require.Equal(t, b.ID(), stored)
			require.Equal(t, b.Height(), height)
			got.add(b.Height())
		})
		var unsubscribeSelf func()
		unsubscribeSelf = e.m.Subscribe(chainA, func(b Block) {
			late.add(b.Height())
			unsubscribeSelf() // from inside fn
		})
		other := e.m.Subscribe(chainB, func(Block) { t.Error("chain B has no blocks") })
		defer other()

		vm := e.create(chainA, nil)
		for range 5 {
			vm.submit(kv{Key: "k", Value: "v"})
		}
		synctest.Wait()
		require.Equal(t, []uint64{1, 2, 3, 4, 5}, got.get())
		require.Equal(t, []uint64{1}, late.get())

		unsubscribe()
		unsubscribe() // twice is harmless
		vm.submit(kv{Key: "k", Value: "v"})
		synctest.Wait()
		e.requireHeight(chainA, 6)
		require.Equal(t, []uint64{1, 2, 3, 4, 5}, got.get())
	})
}

func TestHealth(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "db"), nil)
	defer e.close()
	e.create(chainA, nil)
	details, err := e.m.Health(t.Context(), chainA)
	require.NoError(t, err)
	genesis, err := e.vm(chainA).GetBlockIDAtHeight(t.Context(), 0)
	require.NoError(t, err)
	require.Equal(t, Status{LastAccepted: genesis, Height: 0}, details)

	_, err = e.m.Health(t.Context(), chainB)
	require.ErrorIs(t, err, ErrNoChain)
	_, _, ok := e.m.LastAccepted(chainB)
	require.False(t, ok)
}

// TestContextFiles checks that a Spec's upgrade and config files reach the VM's Context.
func TestContextFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t.TempDir(), nil)
	defer e.close()
	tests := []struct {
		name            string
		upgrade, config []byte
	}{
		{name: "none"},
		{name: "both", upgrade: []byte(`{"precompileUpgrades":[]}`), config: []byte(`{"a":1}`)},
		{name: "config only", config: []byte(`{}`)},
	}
	for i, tt := range tests {
		var got Context
		e.create(ids.ID{byte(i + 1)}, func(s *Spec) {
			s.Upgrade, s.Config = tt.upgrade, tt.config
			s.Factory = FactoryFunc(func(ctx context.Context, c Context) (VM, error) {
				got = c
				return e.factory().New(ctx, c)
			})
		})
		require.Equal(t, tt.upgrade, got.Upgrade, tt.name)
		require.Equal(t, tt.config, got.Config, tt.name)
	}
}
