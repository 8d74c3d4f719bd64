package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/warp"
)

// errNoPChain is returned by warpValidators on a node whose P-Chain is not (yet) the platform VM.
var errNoPChain = errors.New("the P-Chain is not running")

// errUnknownChain is returned by SubnetOf for a chain neither this node nor the P-Chain knows.
var errUnknownChain = errors.New("unknown chain")

// warpPChain is what warp verification reads from the P-Chain's VM. *platform.VM implements it.
type warpPChain interface {
	Height() uint64
	ValidatorsAt(subnetID ids.ID, height uint64) ([]platform.SetValidator, error)
	RecordedValidatorsAt(subnetID ids.ID, height uint64) ([]platform.SetValidator, error)
	Blockchains() ([]platform.Blockchain, error)
}

var _ warpPChain = (*platform.VM)(nil)

// warpValidators is the warp.ValidatorState every VM gets: the P-Chain's validator sets. The
// P-Chain is looked up at each call, since the chain manager that holds it is made with this.
type warpValidators struct{ n *Node }

var _ warp.ValidatorState = warpValidators{}

func (w warpValidators) pChain() (warpPChain, error) {
	if w.n.manager == nil {
		return nil, errNoPChain
	}
	vm, ok := w.n.manager.VM(ids.Empty)
	if !ok {
		return nil, errNoPChain
	}
	p, ok := vm.(warpPChain)
	if !ok {
		return nil, errNoPChain
	}
	return p, nil
}

// PChainHeight implements warp.ValidatorState.
func (w warpValidators) PChainHeight(context.Context) (uint64, error) {
	p, err := w.pChain()
	if err != nil {
		return 0, err
	}
	return p.Height(), nil
}

// ValidatorsAt implements warp.ValidatorState. The Primary Network of a node among other
// validators is the P-Chain's recorded set (the genesis stakers and later ones, with their BLS
// keys), the set the other nodes sign as: the view of a lone node, holding the genesis's whole
// stake itself, would let its own signature make a quorum (docs/decisions.md, "two views").
func (w warpValidators) ValidatorsAt(_ context.Context, subnetID ids.ID, height uint64) ([]warp.Validator, error) {
	p, err := w.pChain()
	if err != nil {
		return nil, err
	}
	if subnetID == ids.Empty && w.n.networked {
		return p.RecordedValidatorsAt(subnetID, height)
	}
	return p.ValidatorsAt(subnetID, height)
}

// SubnetOf implements warp.ValidatorState: the chains this node runs from its registry (the
// Primary Network's among them), any other from the P-Chain's records.
func (w warpValidators) SubnetOf(_ context.Context, chainID ids.ID) (ids.ID, error) {
	if chainID == ids.Empty {
		return ids.Empty, nil // the P-Chain
	}
	if c, ok := w.n.chains.Chain(chainID); ok {
		return c.SubnetID, nil
	}
	p, err := w.pChain()
	if err != nil {
		return ids.Empty, err
	}
	all, err := p.Blockchains()
	if err != nil {
		return ids.Empty, fmt.Errorf("read the P-Chain's blockchains: %w", err)
	}
	for _, c := range all {
		if c.ID == chainID {
			return c.SubnetID, nil
		}
	}
	return ids.Empty, fmt.Errorf("%w: %s", errUnknownChain, chainID)
}
