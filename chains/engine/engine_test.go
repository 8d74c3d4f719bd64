package engine_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine"
	"github.com/cornice-node/cornice/chains/engine/solo"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/network/wire"
	"github.com/cornice-node/cornice/router"
	"github.com/cornice-node/cornice/validators"
)

var (
	_ engine.Validators = (*validators.Set)(nil)

	self   = ids.NodeID{1}
	other  = ids.NodeID{2}
	subnet = ids.FromName("subnet")
)

// failingValidators fails TotalWeight.
type failingValidators struct{ *validators.Set }

var errBoom = errors.New("boom")

func (failingValidators) TotalWeight(ids.ID) (uint64, error) { return 0, errBoom }

// noNetwork sends nothing, and counts what it was asked to send, by op.
type noNetwork struct {
	mu   sync.Mutex
	sent map[wire.Op]int
}

func (n *noNetwork) Send(_ ids.NodeID, m *wire.Message) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent[m.Op]++
	return false
}

func (n *noNetwork) count(op wire.Op) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.sent[op]
}

// recordingRouter is a router without peers that records the chains registered.
type recordingRouter struct {
	*router.Router
	net                      *noNetwork
	mu                       sync.Mutex
	registered, unregistered []ids.ID
}

func newRecordingRouter(t *testing.T) *recordingRouter {
	net := &noNetwork{sent: make(map[wire.Op]int)}
	r, err := router.New(router.Config{NodeID: self}, router.Deps{Network: net})
	require.NoError(t, err)
	t.Cleanup(r.Close)
	return &recordingRouter{Router: r, net: net}
}

func (r *recordingRouter) Register(chainID ids.ID, c router.Chain) (*router.Sender, error) {
	r.mu.Lock()
	r.registered = append(r.registered, chainID)
	r.mu.Unlock()
	return r.Router.Register(chainID, c)
}

func (r *recordingRouter) Unregister(chainID ids.ID) {
	r.mu.Lock()
	r.unregistered = append(r.unregistered, chainID)
	r.mu.Unlock()
	r.Router.Unregister(chainID)
}

func TestFactory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		weights     map[ids.NodeID]uint64
		solo        bool
		wantSnowman bool
		wantWarn    bool
	}{
		{"all the weight", map[ids.NodeID]uint64{self: 20}, false, false, false},
		{"no validator", nil, false, false, false},
		{"a share of the weight", map[ids.NodeID]uint64{self: 20, other: 5}, false, true, false},
		{"not a validator", map[ids.NodeID]uint64{other: 5}, false, true, false},
		{"a share of the weight, alone", map[ids.NodeID]uint64{self: 20, other: 5}, true, false, true},
		{"not a validator, alone", map[ids.NodeID]uint64{other: 5}, true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			set := validators.New()
			for id, w := range tt.weights {
				require.NoError(t, set.Add(subnet, id, w))
			}
			var logs bytes.Buffer
			r := newRecordingRouter(t)
			f := engine.Factory{NodeID: self, Validators: set, Solo: tt.solo, Router: r, Params: consensus.DefaultParameters()}
			var made chains.Engine
			env := chainstest.NewEnv(t, t.TempDir(), nil, chains.EngineFactoryFunc(func(ctx context.Context, c chains.EngineContext) (chains.Engine, error) {
				c.Log = slog.New(slog.NewTextHandler(&logs, nil))
				e, err := f.NewEngine(ctx, c)
				made = e
				return e, err
			}))
			chain := ids.FromName("chain")
			env.Create(chain, func(s *chains.Spec) { s.Chain.SubnetID = subnet })
			env.Close()
			if tt.wantSnowman {
				require.NotEqual(t, reflect.TypeOf(&solo.Engine{}), reflect.TypeOf(made))
				require.Implements(t, (*chains.Progresser)(nil), made, "a Consensus, which bootstraps")
				require.Equal(t, []ids.ID{chain}, r.registered)
				require.Equal(t, []ids.ID{chain}, r.unregistered, "a chain that stops leaves the router")
			} else {
				require.IsType(t, &solo.Engine{}, made)
				require.Empty(t, r.registered)
			}
			require.Equal(t, tt.wantWarn, bytes.Contains(logs.Bytes(), []byte("level=WARN")), logs.String())
		})
	}
}

func TestFactoryErrors(t *testing.T) {
	t.Parallel()
	c := chains.EngineContext{Chain: chains.Chain{ID: ids.FromName("chain")}, Log: slog.New(slog.DiscardHandler)}
	_, err := engine.Factory{NodeID: self}.NewEngine(t.Context(), c)
	require.ErrorContains(t, err, "no Validators")
	_, err = engine.Factory{NodeID: self, Validators: failingValidators{validators.New()}}.NewEngine(t.Context(), c)
	require.ErrorIs(t, err, errBoom)
}

// The P-Chain bootstraps first, from the bootstrap IDs; the other chains of the Primary Network
// wait for it (Factory.PChainBootstrapped), then bootstrap from the validators and enter normal
// operation.
func TestFactoryPChainFirst(t *testing.T) {
	t.Parallel()
	set := validators.New()
	require.NoError(t, set.Add(ids.Empty, self, 20))
	require.NoError(t, set.Add(ids.Empty, other, 5))
	pDone := make(chan struct{})
	f := engine.Factory{NodeID: self, Validators: set, Router: newRecordingRouter(t), Params: consensus.DefaultParameters(),
		BootstrapIDs: []ids.NodeID{self}, PChainBootstrapped: pDone}
	env := chainstest.NewEnv(t, t.TempDir(), nil, f)
	defer env.Close()
	x := ids.FromName("x")
	env.Create(x, func(s *chains.Spec) { s.Chain.SubnetID = ids.Empty })
	state, _ := env.Registry.State(x)
	require.Equal(t, chains.Bootstrapping, state, "the X-Chain waits for the P-Chain")
	select {
	case <-pDone:
		t.Fatal("bootstrapped without a P-Chain")
	default:
	}

	env.Create(ids.Empty, func(s *chains.Spec) { s.Chain.SubnetID = ids.Empty })
	waitClosed(t, pDone, "the P-Chain to bootstrap")
	require.Eventually(t, func() bool {
		state, _ := env.Registry.State(x)
		return state == chains.NormalOperation
	}, 2*time.Minute, time.Millisecond, "the X-Chain bootstraps once the P-Chain has")
}

// The router tells a Consensus chain of peer connections: the P-Chain, whose only beacon is a
// bootstrap peer, asks it for its accepted frontier once it connects, and not before.
func TestFactoryRoutesConnections(t *testing.T) {
	t.Parallel()
	set := validators.New()
	require.NoError(t, set.Add(ids.Empty, self, 20))
	require.NoError(t, set.Add(ids.Empty, other, 5))
	r := newRecordingRouter(t)
	f := engine.Factory{NodeID: self, Validators: set, Router: r, Params: consensus.DefaultParameters(),
		BootstrapIDs: []ids.NodeID{other}, PChainBootstrapped: make(chan struct{})}
	env := chainstest.NewEnv(t, t.TempDir(), nil, f)
	defer env.Close()
	env.Create(ids.Empty, func(s *chains.Spec) { s.Chain.SubnetID = ids.Empty })
	state, _ := env.Registry.State(ids.Empty)
	require.Equal(t, chains.Bootstrapping, state)
	require.Zero(t, r.net.count(wire.OpGetAcceptedFrontier), "no beacon connected yet")

	r.Connected(other)
	require.Eventually(t, func() bool { return r.net.count(wire.OpGetAcceptedFrontier) > 0 }, 2*time.Minute,
		time.Millisecond, "the connected beacon is asked for its frontier")
}
