// Package engine makes each chain's engine, which drives the chain from its creation through
// bootstrapping to normal operation (chains.Engine): solo while this node holds all of the
// chain's validator weight, and the Snowman engine (chains/engine/snowman) when other validators
// share it (reference/network-consensus-warp.md §2), connected to them through the router.
//
// It declares what the engines need from the rest of the node, so that it never imports the
// network: the validator weights (Validators) and the Router that carries a Snowman engine's
// messages. The choice of engine is made once, when the chain is created.
//
// Not done yet (issue #13 §2): this Factory does not make Consensus engines (the bootstrapper,
// then the Snowman engine: consensus.go), so a Snowman chain goes to normal operation from the
// blocks it has and catches up through Snowman's Get and Put. Consensus is built and tested behind
// in-process routers; making it here is the next step.
//
// A Factory is safe for concurrent use if its Validators and Router are.
package engine

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/snowman"
	"github.com/cornice-node/cornice/chains/engine/solo"
	consensus "github.com/cornice-node/cornice/consensus/snowman"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/router"
)

// Validators gives the weight of a subnet's validators (package validators implements it).
type Validators interface {
	// GetWeight returns nodeID's weight on subnetID: 0 when it does not validate it.
	GetWeight(subnetID ids.ID, nodeID ids.NodeID) uint64
	// TotalWeight returns the sum of subnetID's validators' weights.
	TotalWeight(subnetID ids.ID) (uint64, error)
	// Weights returns every validator of subnetID with its weight: what Snowman samples.
	Weights(subnetID ids.ID) (map[ids.NodeID]uint64, error)
}

// Router carries the messages of Snowman chains (*router.Router).
type Router interface {
	// Register routes chainID's inbound messages to c and returns the chain's Sender.
	Register(chainID ids.ID, c router.Chain) (*router.Sender, error)
	// Unregister stops routing chainID's messages.
	Unregister(chainID ids.ID)
}

var _ router.Handler = (*snowman.Engine)(nil)

// Factory makes the engine of each chain (chains.EngineFactory).
type Factory struct {
	// NodeID is this node's identity.
	NodeID ids.NodeID
	// Validators are the subnets' validator sets.
	Validators Validators
	// Solo makes every chain run solo whatever its validators: the lone development node, which
	// has no peer to agree with (docs/decisions.md, "One node or many"). Without a Router every
	// chain runs solo too.
	Solo bool
	// Router connects Snowman chains to their peers.
	Router Router
	// Params are the Snowman parameters (config.Snow).
	Params consensus.Parameters
}

var _ chains.EngineFactory = Factory{}

// NewEngine returns chain c's engine. It is solo when this node holds all of the chain's
// validator weight, or no weight is recorded (no one to bootstrap from either, §3.1 "No
// beacons"), or the factory is Solo; then a chain that other validators share logs a warning
// and accepts the blocks it builds, as a lone development node always did. Otherwise it is the
// Snowman engine, which samples the subnet's validators.
func (f Factory) NewEngine(_ context.Context, c chains.EngineContext) (chains.Engine, error) {
	if f.Validators == nil {
		return nil, fmt.Errorf("engine of chain %s: no Validators", c.Chain.ID)
	}
	subnetID := c.Chain.SubnetID
	total, err := f.Validators.TotalWeight(subnetID)
	if err != nil {
		return nil, fmt.Errorf("engine of chain %s: weight of subnet %s: %w", c.Chain.ID, subnetID, err)
	}
	own := f.Validators.GetWeight(subnetID, f.NodeID)
	if own == total {
		return solo.New(c), nil
	}
	if f.Solo || f.Router == nil {
		c.Log.Warn("this node does not hold all of the chain's validator weight, but it runs alone (no bootstrap peers): the chain runs solo, accepting the blocks it builds",
			"subnetID", subnetID.String(), "weight", own, "totalWeight", total)
		return solo.New(c), nil
	}
	return f.snowman(c)
}

// snowman returns chain c's Snowman engine, registered with the router.
func (f Factory) snowman(c chains.EngineContext) (chains.Engine, error) {
	ch := &routedChain{}
	sender, err := f.Router.Register(c.Chain.ID, ch)
	if err != nil {
		return nil, fmt.Errorf("engine of chain %s: %w", c.Chain.ID, err)
	}
	var seed [32]byte
	_, _ = crand.Read(seed[:]) // never fails (crypto/rand)
	e, err := snowman.New(snowman.Config{
		SubnetID:    c.Chain.SubnetID,
		Params:      f.Params,
		MinBlockGap: c.MinBlockGap,
	}, snowman.Deps{
		VM:         c.VM,
		Acceptor:   c.Acceptor,
		Sender:     sender,
		Validators: f.Validators,
		Rand:       rand.New(rand.NewChaCha8(seed)),
		Log:        c.Log,
		Clock:      c.Clock,
	})
	if err != nil {
		f.Router.Unregister(c.Chain.ID)
		return nil, fmt.Errorf("engine of chain %s: %w", c.Chain.ID, err)
	}
	r := snowman.NewRunner(e, c.SetState, c.Clock)
	ch.r.Store(r)
	c.Log.Info("the chain runs Snowman with its validators", "subnetID", c.Chain.SubnetID.String())
	return &routedEngine{Runner: r, unregister: func() { f.Router.Unregister(c.Chain.ID) }}, nil
}

// routedChain is a Snowman chain as the router sees it: its Runner's queue. Messages that come
// before the Runner is made are refused.
type routedChain struct {
	r atomic.Pointer[snowman.Runner]
}

func (c *routedChain) TryDeliver(m router.Message) bool {
	r := c.r.Load()
	return r != nil && r.TryDeliver(engineMessage(m))
}

func (c *routedChain) Deliver(ctx context.Context, m router.Message) error {
	r := c.r.Load()
	if r == nil {
		return fmt.Errorf("chain not running yet")
	}
	return r.Deliver(ctx, engineMessage(m))
}

// engineMessage runs a routed message on the engine.
func engineMessage(m router.Message) snowman.Message {
	return func(ctx context.Context, e *snowman.Engine) error { return m(ctx, e) }
}

// routedEngine is a Snowman chain's engine: its Runner, unregistered from the router once it
// stops.
type routedEngine struct {
	*snowman.Runner
	unregister func()
}

func (e *routedEngine) Run(ctx context.Context) error {
	defer e.unregister()
	return e.Runner.Run(ctx)
}
