package node

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/cornice-node/cornice/api/proposervm"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	pvm "github.com/cornice-node/cornice/vms/proposervm"
)

// proposerVMChain is one chain's last accepted block, as the proposervm API reads it.
type proposerVMChain struct {
	n  *Node
	id ids.ID
}

// LastAcceptedTime implements proposervm.Chain.
func (c proposerVMChain) LastAcceptedTime() (time.Time, bool) {
	if c.n.manager == nil {
		return time.Time{}, false
	}
	return c.n.manager.LastAcceptedTime(c.id)
}

// withProposerVM returns handlers with the proposervm API at "/proposervm" added for a chain the
// reference runs inside its proposer VM: every chain but the X-Chain's AVM (node-api.md §2.3). A
// VM that serves that route itself keeps it.
func (n *Node) withProposerVM(chainID ids.ID, handlers map[string]http.Handler) (map[string]http.Handler, error) {
	const ext = "/proposervm"
	c, ok := n.chains.Chain(chainID)
	if _, served := handlers[ext]; served || !ok || c.VMID == genesis.AVMID {
		return handlers, nil
	}
	s, err := proposervm.New(proposervm.Config{
		Chain:  proposerVMChain{n: n, id: chainID},
		PChain: warpValidators{n},
		Proposer: func() (proposervm.Proposer, bool) {
			vm, ok := n.proposer(chainID)
			if !ok {
				return nil, false
			}
			return proposerAPI{vm}, true
		},
		Log: n.log.With("service", "proposervm", "chainID", chainID.String()),
	})
	if err != nil {
		return nil, fmt.Errorf("proposervm API of chain %s: %w", chainID, err)
	}
	out := maps.Clone(handlers)
	out[ext] = s.Handler()
	return out, nil
}

// proposerAPI is a chain's proposer layer as the proposervm API reads it.
type proposerAPI struct{ vm *pvm.VM }

// ProposedHeight implements proposervm.Proposer.
func (p proposerAPI) ProposedHeight(ctx context.Context) (uint64, error) {
	return p.vm.ProposedHeight(ctx)
}

// CurrentEpoch implements proposervm.Proposer.
func (p proposerAPI) CurrentEpoch(ctx context.Context) (proposervm.Epoch, error) {
	e, err := p.vm.NextEpoch(ctx)
	return proposervm.Epoch{Number: e.Number, StartTime: e.StartTime, PChainHeight: e.PChainHeight}, err
}
