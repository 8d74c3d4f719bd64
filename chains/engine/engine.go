// Package engine makes each chain's engine, which drives the chain from its creation through
// bootstrapping to normal operation (chains.Engine): solo while this node holds all of the
// chain's validator weight, and Consensus — the bootstrapper (chains/engine/bootstrap), then the
// Snowman engine (chains/engine/snowman) — when other validators share it
// (reference/network-consensus-warp.md §2–3).
//
// It declares what the engines need from the rest of the node, so that it never imports the
// network or the router: the validator weights (Validators), the Sender of a chain's messages,
// and the Handler and Message through which the router hands them over (Consensus.TryDeliver
// and Deliver). This Factory does not make Consensus engines yet (issue #13: the node's wiring
// to the router). The choice of engine is made once, when the chain is created.
//
// A Factory is safe for concurrent use if its Validators is; so is a Consensus's delivery.
package engine

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine/solo"
	"github.com/cornice-node/cornice/ids"
)

// Validators gives the weight of a subnet's validators (package validators implements it).
type Validators interface {
	// GetWeight returns nodeID's weight on subnetID: 0 when it does not validate it.
	GetWeight(subnetID ids.ID, nodeID ids.NodeID) uint64
	// TotalWeight returns the sum of subnetID's validators' weights.
	TotalWeight(subnetID ids.ID) (uint64, error)
}

// Factory makes the engine of each chain (chains.EngineFactory).
type Factory struct {
	// NodeID is this node's identity.
	NodeID ids.NodeID
	// Validators are the subnets' validator sets.
	Validators Validators
}

var _ chains.EngineFactory = Factory{}

// NewEngine returns chain c's engine: solo. A chain whose subnet has no validator weight
// recorded has no one to bootstrap from either (§3.1 "No beacons"), so it runs solo too. When
// other validators hold part of the weight the chain still runs solo, and a warning says so:
// cornice has no consensus engine yet, and its chains accept what they build, as they always
// did.
func (f Factory) NewEngine(_ context.Context, c chains.EngineContext) (chains.Engine, error) {
	if f.Validators == nil {
		return nil, fmt.Errorf("engine of chain %s: no Validators", c.Chain.ID)
	}
	subnetID := c.Chain.SubnetID
	total, err := f.Validators.TotalWeight(subnetID)
	if err != nil {
		return nil, fmt.Errorf("engine of chain %s: weight of subnet %s: %w", c.Chain.ID, subnetID, err)
	}
	if own := f.Validators.GetWeight(subnetID, f.NodeID); own != total {
		c.Log.Warn("this node does not hold all of the chain's validator weight, but cornice has no consensus engine yet: the chain runs solo, accepting the blocks it builds",
			"subnetID", subnetID.String(), "weight", own, "totalWeight", total)
	}
	return solo.New(c), nil
}
