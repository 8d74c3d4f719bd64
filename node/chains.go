package node

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
)

// Chain is a chain the node creates at start-up: its spec and the indexes it gets.
type Chain struct {
	// Spec says what the chain is and which VM runs it. Spec.Indexed is set by the node from
	// --index-enabled.
	Spec chains.Spec
	// IndexKinds are the chain's indexes when indexing is on. Nil means a block index only; the
	// X-Chain has block, tx and vtx (node-api.md §5.1).
	IndexKinds []index.Kind
}

var (
	_ chains.Routes   = chainRoutes{}
	_ chains.Acceptor = (*index.Indexer)(nil)
)

// createChains applies the index start-up rules to every chain before anything is written
// (node-api.md §5.7: a refused start writes nothing), then registers each chain's indexes and
// creates it: VM, routes, pipeline.
func (n *Node) createChains(ctx context.Context, all []Chain) error {
	var refusals []error
	for _, c := range all {
		if err := n.index.Check(c.Spec.Chain.ID); err != nil {
			refusals = append(refusals, fmt.Errorf("chain %s: %w", chainName(c.Spec), err))
		}
	}
	if err := errors.Join(refusals...); err != nil {
		return err
	}
	for _, c := range all {
		if err := n.createChain(ctx, c); err != nil {
			return fmt.Errorf("create chain %s: %w", chainName(c.Spec), err)
		}
	}
	return nil
}

func (n *Node) createChain(ctx context.Context, c Chain) error {
	spec := c.Spec
	id := spec.Chain.ID
	kinds := c.IndexKinds
	if kinds == nil {
		kinds = []index.Kind{index.Block}
	}
	handlers, err := n.index.Register(id, kinds...)
	if err != nil {
		return fmt.Errorf("register index: %w", err)
	}
	spec.Indexed = n.cfg.IndexEnabled
	if err := n.manager.Create(ctx, spec); err != nil {
		return err
	}

	// Index routes use the chain's primary alias (node-api.md §2.3); beyond the reference, a chain
	// outside the Primary Network is also served under its blockchain ID.
	alias, err := n.chains.PrimaryAlias(id)
	if err != nil {
		return err
	}
	bases := []string{"index/" + alias}
	if spec.Chain.SubnetID != ids.Empty && alias != id.String() {
		bases = append(bases, "index/"+id.String())
	}
	for kind, h := range handlers {
		for _, base := range bases {
			if err := n.http.AddRoute(base+"/"+kind.String(), h); err != nil {
				return fmt.Errorf("mount index: %w", err)
			}
		}
	}
	if n.health != nil {
		check := func(ctx context.Context) (any, error) { return n.manager.Health(ctx, id) }
		if err := n.health.Register(health.Health, "chain-"+alias, []string{id.String()}, check); err != nil {
			return fmt.Errorf("register chain health check: %w", err)
		}
	}
	return nil
}

// chainName names a chain in errors: its primary alias, else its ID.
func chainName(s chains.Spec) string {
	if len(s.Aliases) > 0 {
		return s.Aliases[0]
	}
	return s.Chain.ID.String()
}

// AddChainRoutes serves a chain's handlers at /ext/bc/<chainID><ext> and under each alias base,
// answering the reference's 503 until the chain is in normal operation (node-api.md §2.3).
func (r chainRoutes) AddChainRoutes(chainID ids.ID, handlers map[string]http.Handler, aliasBases []string, ready func() bool) error {
	base := "bc/" + chainID.String()
	for ext, h := range handlers {
		if err := r.srv.AddRoute(base+ext, api.RequireBootstrapped(ready, h)); err != nil {
			return err
		}
	}
	return r.srv.AddAliases(base, aliasBases...)
}
