package node

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/proposervm"
)

// networkedBlockGap is the minimum block delay of the P- and X-Chains among other validators:
// a block's timestamp is at least this long after its parent's (network-consensus-warp.md §2.8).
// The C-Chain and L1s have none; a lone node builds the moment a transaction arrives.
const networkedBlockGap = time.Second

// proposers are the node's chains wrapped in proposer windows (docs/decisions.md, "Proposer
// windows"), and what they share: the P-Chain's recently accepted heights.
type proposers struct {
	window proposervm.HeightWindow

	mu  sync.Mutex // guards vms
	vms map[ids.ID]*proposervm.VM
}

// proposer returns chain id's proposer layer; false when the chain runs unwrapped (alone).
// Warp verification reads a block's P-Chain height from it (VM.WarpPChainHeight).
func (n *Node) proposer(id ids.ID) (*proposervm.VM, bool) {
	n.proposers.mu.Lock()
	defer n.proposers.mu.Unlock()
	vm, ok := n.proposers.vms[id]
	return vm, ok
}

// wrapped reports whether a chain of subnetID runs in proposer windows: with --proposer-windows,
// when the node runs among other validators and they share the subnet's weight, the condition
// under which its engine is Snowman rather than solo (chains/engine.Factory).
func (n *Node) wrapped(subnetID ids.ID) (bool, error) {
	if !n.networked || !n.cfg.ProposerWindows {
		return false, nil
	}
	total, err := n.validators.TotalWeight(subnetID)
	if err != nil {
		return false, fmt.Errorf("weight of subnet %s: %w", subnetID, err)
	}
	return n.validators.GetWeight(subnetID, n.nodeID) != total, nil
}

// withProposer returns spec with its factory wrapping the chain's VM in proposer windows, with
// minimum block delay minDelay.
func (n *Node) withProposer(spec chains.Spec, minDelay time.Duration) (chains.Spec, error) {
	key, ok := n.tlsCert.PrivateKey.(crypto.Signer)
	if !ok {
		return spec, errors.New("the staking key cannot sign proposervm blocks")
	}
	inner := spec.Factory
	spec.Factory = chains.FactoryFunc(func(ctx context.Context, c chains.Context) (chains.VM, error) {
		vm, err := inner.New(ctx, c)
		if err != nil {
			return nil, err
		}
		wrapped, err := proposervm.New(proposervm.Config{
			Inner:       vm,
			ChainID:     c.Chain.ID,
			SubnetID:    c.Chain.SubnetID,
			DB:          n.db.Prefixed(storage.PrefixProposer).Prefixed(c.Chain.ID[:]),
			NodeID:      n.nodeID,
			Certificate: n.tlsCert.Certificate[0],
			Key:         key,
			PChain:      proposerPChain{n},
			MinDelay:    minDelay,
			Clock:       n.clock,
			Log:         c.Log,
		})
		if err != nil {
			return nil, errors.Join(err, vm.Close())
		}
		n.proposers.mu.Lock()
		n.proposers.vms[c.Chain.ID] = wrapped
		n.proposers.mu.Unlock()
		return wrapped, nil
	})
	return spec, nil
}

// watchPChain feeds the P-Chain's accepted heights to the proposers' height window.
func (n *Node) watchPChain() {
	n.manager.Subscribe(ids.Empty, func(blk chains.Block) {
		n.proposers.window.Accepted(blk.Height(), n.clock.Now())
	})
}

// proposerPChain is the P-Chain as the proposer layers read it.
type proposerPChain struct{ n *Node }

var _ proposervm.PChain = proposerPChain{}

// PChainHeight implements proposervm.PChain.
func (p proposerPChain) PChainHeight(ctx context.Context) (uint64, error) {
	return warpValidators(p).PChainHeight(ctx)
}

// MinimumHeight implements proposervm.PChain.
func (p proposerPChain) MinimumHeight(ctx context.Context) (uint64, error) {
	current, err := p.PChainHeight(ctx)
	if err != nil {
		return 0, err
	}
	return p.n.proposers.window.Minimum(p.n.clock.Now(), current), nil
}

// ValidatorsAt implements proposervm.PChain. The Primary Network's are the genesis's stakers at
// every height: the set the engines sample, since this node's P-Chain counts the genesis stake as
// its own (docs/decisions.md, "One node or many"); other subnets' come from the P-Chain.
func (p proposerPChain) ValidatorsAt(ctx context.Context, subnetID ids.ID, height uint64) ([]proposervm.Weighted, error) {
	if subnetID == ids.Empty && p.n.genesisStakers != nil {
		out := make([]proposervm.Weighted, 0, len(p.n.genesisStakers))
		for id, w := range p.n.genesisStakers {
			out = append(out, proposervm.Weighted{NodeID: id, Weight: w})
		}
		return out, nil
	}
	vs, err := warpValidators(p).ValidatorsAt(ctx, subnetID, height)
	if err != nil {
		return nil, err
	}
	out := make([]proposervm.Weighted, len(vs))
	for i, v := range vs {
		out[i] = proposervm.Weighted{NodeID: v.NodeID, Weight: v.Weight}
	}
	return out, nil
}
