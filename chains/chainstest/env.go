package chainstest

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
)

// Env is a node's worth of chains machinery over one database: a registry, a manager whose
// chains run the solo engine (unless NewEnv is given others), and Routes that record what they
// are given. Its chains run fake VMs.
type Env struct {
	t        testing.TB
	DB       *storage.DB
	Registry *chains.Registry
	Routes   *Routes
	Manager  *chains.Manager
	// Setup, if set, adjusts each VM before the manager sees it.
	Setup func(vm *VM)

	mu sync.Mutex // guards vms
	// vms holds the VM made for each chain, last one made.
	vms map[ids.ID]*VM
}

// NewEnv opens (or reopens) the database in dir with a new registry and manager. indexer may be
// nil (no index), engines too (solo). Call Close when done (inside a synctest bubble, before the
// bubble's function returns).
func NewEnv(t testing.TB, dir string, indexer chains.Indexer, engines chains.EngineFactory) *Env {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	if tt, ok := t.(*testing.T); ok {
		log = slog.New(slog.NewTextHandler(tt.Output(), nil))
	}
	return NewEnvLog(t, dir, indexer, engines, log)
}

// NewEnvLog is NewEnv with log for the database and the manager, for a test that reads the lines.
func NewEnvLog(t testing.TB, dir string, indexer chains.Indexer, engines chains.EngineFactory, log *slog.Logger) *Env {
	t.Helper()
	db, err := storage.Open(dir, log)
	require.NoError(t, err)
	reg, err := chains.NewRegistry(db.Prefixed(storage.PrefixChains), log)
	require.NoError(t, err)
	if engines == nil {
		engines = solo.Factory{}
	}
	e := &Env{t: t, DB: db, Registry: reg, Routes: &Routes{}, vms: map[ids.ID]*VM{}}
	e.Manager, err = chains.NewManager(chains.ManagerConfig{NetworkID: 12345}, chains.ManagerDeps{
		DB:       db,
		Registry: reg,
		Routes:   e.Routes,
		Indexer:  indexer,
		Engines:  engines,
		Clock:    clock.Real{},
		Log:      log,
	})
	require.NoError(t, err)
	return e
}

// Close stops the manager and closes the database.
func (e *Env) Close() {
	require.NoError(e.t, e.Manager.Close())
	require.NoError(e.t, e.DB.Close())
}

// Factory makes fake VMs, adjusted by Setup, and remembers them.
func (e *Env) Factory() chains.Factory {
	return chains.FactoryFunc(func(_ context.Context, c chains.Context) (chains.VM, error) {
		vm, err := New(c)
		if err != nil {
			return nil, err
		}
		if e.Setup != nil {
			e.Setup(vm)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		e.vms[c.Chain.ID] = vm
		return vm, nil
	})
}

// Spec is the Spec of a test chain id, indexed, with no aliases, whose genesis is
// "genesis of <id>".
func (e *Env) Spec(id ids.ID) chains.Spec {
	return chains.Spec{
		Chain:   chains.Chain{ID: id, Name: "test chain"},
		Prefix:  storage.PrefixEVM,
		Factory: e.Factory(),
		Genesis: []byte("genesis of " + id.String()),
		Indexed: true,
	}
}

// Create creates chain id from e.Spec(id), changed by adjust if not nil, and returns its VM.
func (e *Env) Create(id ids.ID, adjust func(*chains.Spec)) *VM {
	e.t.Helper()
	spec := e.Spec(id)
	if adjust != nil {
		adjust(&spec)
	}
	require.NoError(e.t, e.Manager.Create(context.Background(), spec))
	return e.VM(id)
}

// VM returns the last VM made for chain id, nil if none.
func (e *Env) VM(id ids.ID) *VM {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.vms[id]
}

// RequireHeight checks that the manager and the VM agree that chain id's last accepted block is
// at height want.
func (e *Env) RequireHeight(id ids.ID, want uint64) {
	e.t.Helper()
	lastID, height, ok := e.Manager.LastAccepted(id)
	require.True(e.t, ok)
	require.Equal(e.t, want, height, "accepted height")
	vmLast, err := e.VM(id).LastAccepted(context.Background())
	require.NoError(e.t, err)
	require.Equal(e.t, lastID, vmLast, "VM's last accepted")
}

// RequireState checks that the VM's accepted state holds want at key.
func (vm *VM) RequireState(t testing.TB, key, want string) {
	t.Helper()
	got, err := vm.State(key)
	require.NoError(t, err, "state %q", key)
	require.Equal(t, want, got, "state %q", key)
}

// Routes records AddChainRoutes calls; it fails them with Err when set.
type Routes struct {
	mu    sync.Mutex
	calls []RouteCall
	Err   error
}

// RouteCall is one AddChainRoutes call.
type RouteCall struct {
	ChainID ids.ID
	// Exts are the handlers' extensions, sorted.
	Exts  []string
	Bases []string
	Ready func() bool
	// ReadyAtAdd is what Ready said during the call.
	ReadyAtAdd bool
}

// AddChainRoutes implements chains.Routes.
func (r *Routes) AddChainRoutes(chainID ids.ID, handlers map[string]http.Handler, bases []string, ready func() bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Err != nil {
		return r.Err
	}
	r.calls = append(r.calls, RouteCall{
		ChainID:    chainID,
		Exts:       slices.Sorted(maps.Keys(handlers)),
		Bases:      bases,
		Ready:      ready,
		ReadyAtAdd: ready(),
	})
	return nil
}

// Call returns the AddChainRoutes call of chain id.
func (r *Routes) Call(t testing.TB, id ids.ID) RouteCall {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		if c.ChainID == id {
			return c
		}
	}
	t.Fatalf("no routes for chain %s", id)
	return RouteCall{}
}

// Recorder collects values from an engine goroutine for the test to read: synctest.Wait does not
// order memory for the race detector, a mutex does.
type Recorder[T any] struct {
	mu sync.Mutex
	v  []T
}

// Add records v.
func (r *Recorder[T]) Add(v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.v = append(r.v, v)
}

// Get returns what was recorded, in order.
func (r *Recorder[T]) Get() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.v)
}
