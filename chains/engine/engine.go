// Package engine makes each chain's engine, which drives the chain from its creation through
// bootstrapping to normal operation (chains.Engine): solo while this node holds all of the
// chain's validator weight, and Consensus (consensus.go) when other validators share it: the
// bootstrapper (chains/engine/bootstrap) catches the chain up with its beacons, then the Snowman
// engine (chains/engine/snowman) decides its blocks with the validators
// (reference/network-consensus-warp.md §2–3), connected to them through the router.
//
// The P-Chain bootstraps first, from the bootstrap IDs (--bootstrap-ids); every other chain
// waits for it (Factory.PChainBootstrapped), then bootstraps from its subnet's validators as the
// P-Chain knows them (§3.1). A node that was offline, or that never ran, catches up the same
// way: bootstrapping executes the blocks it lacks in height order through the chain's accept
// path, which indexes them.
//
// It declares what the engines need from the rest of the node, so that it never imports the
// network: the validator weights (Validators) and the Router that carries a Consensus chain's
// messages and tells it of peer connections (router.Connections). The choice of engine is made
// once, when the chain is created.
//
// Not done yet (issue #13 §2): the fetched blocks are kept in memory until executed (a restart
// fetches them again), and the bootstrapper asks every beacon rather than a sample of them.
//
// A Factory is safe for concurrent use if its Validators and Router are.
package engine

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
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

// Router carries the messages of Consensus chains and tells them of peer connections
// (*router.Router).
type Router interface {
	// Register routes chainID's inbound messages to c and returns the chain's Sender.
	Register(chainID ids.ID, c router.Chain) (*router.Sender, error)
	// Unregister stops routing chainID's messages.
	Unregister(chainID ids.ID)
}

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
	// Router connects Consensus chains to their peers.
	Router Router
	// Params are the Snowman parameters (config.Snow).
	Params consensus.Parameters
	// BootstrapIDs are the P-Chain's beacons (--bootstrap-ids), each of weight 1.
	BootstrapIDs []ids.NodeID
	// PChainBootstrapped, if not nil, is closed by the P-Chain's engine once the P-Chain is
	// bootstrapped (at once when it runs solo); every other Consensus chain waits for it before
	// it bootstraps, so that the P-Chain knows the chain's validators, its beacons (§3.1). The
	// P-Chain's engine is made once per channel.
	PChainBootstrapped chan struct{}
	// Metrics are the bootstrappers' (bootstrap.NewMetrics, once per node); nil records none.
	Metrics *bootstrap.Metrics
}

var _ chains.EngineFactory = Factory{}

// NewEngine returns chain c's engine. It is solo when this node holds all of the chain's
// validator weight, or no weight is recorded (no one to bootstrap from either, §3.1 "No
// beacons"), or the factory is Solo; then a chain that other validators share logs a warning
// and accepts the blocks it builds, as a lone development node always did. Otherwise it is a
// Consensus: bootstrapping, then the Snowman engine, which samples the subnet's validators.
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
	if alone := own == total || f.Solo || f.Router == nil; alone && isPChain(c.Chain) && f.PChainBootstrapped != nil {
		close(f.PChainBootstrapped) // a solo chain is bootstrapped at once
	}
	if own == total {
		return solo.New(c), nil
	}
	if f.Solo || f.Router == nil {
		c.Log.Warn("this node does not hold all of the chain's validator weight, but it runs alone (no bootstrap peers): the chain runs solo, accepting the blocks it builds",
			"subnetID", subnetID.String(), "weight", own, "totalWeight", total)
		return solo.New(c), nil
	}
	return f.consensus(c)
}

// consensus returns chain c's Consensus engine (the bootstrapper, then Snowman), registered
// with the router, which tells it of every peer connection (router.Connections).
func (f Factory) consensus(c chains.EngineContext) (chains.Engine, error) {
	pChain := isPChain(c.Chain)
	cfg := ConsensusConfig{
		Self: f.NodeID,
		Snowman: snowman.Config{
			SubnetID:    c.Chain.SubnetID,
			Params:      f.Params,
			MinBlockGap: c.MinBlockGap,
		},
	}
	if pChain {
		cfg.Bootstrapped = f.PChainBootstrapped
	} else {
		cfg.After = f.PChainBootstrapped
	}
	var seed [32]byte
	_, _ = crand.Read(seed[:]) // never fails (crypto/rand)
	// The Consensus sends through the Sender the router gives at registration, and registration
	// needs the Consensus: sender is filled in between, before any message can run (they run on
	// Run's goroutine, which starts after NewEngine returns).
	sender := &lateSender{}
	e := NewConsensus(c, cfg, ConsensusDeps{
		Sender:     sender,
		Beacons:    f.beacons(c.Chain),
		Validators: f.Validators,
		Rand:       rand.New(rand.NewChaCha8(seed)),
		Metrics:    f.Metrics,
	})
	s, err := f.Router.Register(c.Chain.ID, e)
	if err != nil {
		return nil, fmt.Errorf("engine of chain %s: %w", c.Chain.ID, err)
	}
	sender.Sender = s
	c.Log.Info("the chain bootstraps from its peers, then runs Snowman with its validators",
		"subnetID", c.Chain.SubnetID.String())
	return &routedConsensus{Consensus: e, unregister: func() { f.Router.Unregister(c.Chain.ID) }}, nil
}

// isPChain reports whether c is the P-Chain, whose ID is the all-zero ID on every network.
func isPChain(c chains.Chain) bool { return c.ID == ids.Empty && c.SubnetID == ids.Empty }

// beacons returns chain c's beacons (§3.1): the bootstrap IDs, each of weight 1, for the
// P-Chain; the subnet's validators, as the P-Chain knows them once it is bootstrapped, for the
// others.
func (f Factory) beacons(c chains.Chain) func() (map[ids.NodeID]uint64, error) {
	if isPChain(c) {
		return func() (map[ids.NodeID]uint64, error) {
			out := make(map[ids.NodeID]uint64, len(f.BootstrapIDs))
			for _, id := range f.BootstrapIDs {
				out[id] = 1
			}
			return out, nil
		}
	}
	return func() (map[ids.NodeID]uint64, error) { return f.Validators.Weights(c.SubnetID) }
}

// lateSender is the router's Sender of a chain, set once the chain is registered.
type lateSender struct{ *router.Sender }

// routedConsensus is a chain's Consensus, unregistered from the router once it stops.
type routedConsensus struct {
	*Consensus
	unregister func()
}

func (e *routedConsensus) Run(ctx context.Context) error {
	defer e.unregister()
	return e.Consensus.Run(ctx)
}
