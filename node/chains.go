package node

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/validators"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Chain is a chain the node creates at start-up: its spec and the indexes it gets.
type Chain struct {
	// Spec says what the chain is and which VM runs it. Spec.Indexed is set by the node from
	// --index-enabled.
	Spec chains.Spec
	// IndexKinds are the chain's indexes when indexing is on. Nil means a block index only; the
	// X-Chain has block, tx and vtx (node-api.md §5.1).
	IndexKinds []index.Kind
	// MinDelay is the chain's minimum block delay among other validators (networkedBlockGap on P
	// and X): in proposer windows the least time between a block's timestamp and its parent's,
	// without them the engine's least time between two blocks it builds.
	MinDelay time.Duration
}

var (
	_ chains.Routes     = chainRoutes{}
	_ chains.Indexer    = (*index.Indexer)(nil)
	_ engine.Validators = (*validators.Set)(nil)
)

// createChains applies the index start-up rules to every chain before anything is written
// (node-api.md §5.7: a refused start writes nothing), then registers each chain's indexes and
// creates it: VM, routes, engine.
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
	wrap, err := n.wrapped(spec.Chain.SubnetID)
	if err != nil {
		return err
	}
	switch {
	case wrap:
		if spec, err = n.withProposer(spec, c.MinDelay); err != nil {
			return err
		}
	case n.networked && c.MinDelay > 0:
		// Among validators without proposer windows, the delay counts from the last block
		// this node built (the engine's gap).
		spec.MinBlockGap = c.MinDelay
	}
	if spec.Upgrade == nil && spec.Config == nil {
		spec.Upgrade, spec.Config, err = chainFiles(n.cfg.ChainConfigPath(), id, spec.Aliases)
		if err != nil {
			return err
		}
	}
	if err := n.manager.Create(ctx, spec); err != nil {
		return err
	}
	n.startTxGossip(id)
	// The chain runs from here on: a relay that cannot watch it is logged, not fatal.
	n.relayChain(id)
	if id == ids.Empty && n.networked {
		n.watchPChain()
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
// answering the reference's 503 until the chain is in normal operation (node-api.md §2.3). On the
// node's manager it adds the proposervm API (withProposerVM).
func (r chainRoutes) AddChainRoutes(chainID ids.ID, handlers map[string]http.Handler, aliasBases []string, ready func() bool) error {
	if r.n != nil {
		var err error
		if handlers, err = r.n.withProposerVM(chainID, handlers); err != nil {
			return err
		}
	}
	base := "bc/" + chainID.String()
	for ext, h := range handlers {
		if err := r.srv.AddRoute(base+ext, api.RequireBootstrapped(ready, h)); err != nil {
			return err
		}
	}
	return r.srv.AddAliases(base, aliasBases...)
}

// platformVMID is the P-Chain's VM, `rWhpuQPF…` (node-api.md §3.10).
var platformVMID = ids.FromName("platformvm")

// VMs maps a VM's ID to the factory of its chains: the VMs this node can run besides the P-Chain's,
// which is built in. Package node links no go-ethereum VM; vmset.For (node/vmset) builds the map of
// every VM the binary links (see docs/decisions.md).
type VMs map[ids.ID]chains.Factory

// primaryNetwork builds the local network's genesis, aliases the X and C chains to the IDs it
// gives (the reference's local IDs, platform-exchange.md §7.7) and returns the chains among P, X
// and C to run: always the P-Chain, and X and C when their VM is in vms. Networks other than local
// have no built-in genesis yet and run no Primary Network chain.
func (n *Node) primaryNetwork(vms VMs) ([]Chain, error) {
	if n.cfg.NetworkID != config.LocalID {
		n.log.Warn("cornice has a genesis for the local network only: on this network no chain runs, and /ext/bc/P, /ext/bc/X and /ext/bc/C answer 404 (the Info, Index, health and metrics APIs do run); use --network-id local",
			"networkID", n.cfg.NetworkID, "networkName", config.NetworkName(n.cfg.NetworkID))
		return nil, nil
	}
	cfg, err := genesis.Local()
	if err != nil {
		return nil, fmt.Errorf("load the local genesis: %w", err)
	}
	g, err := genesis.Build(cfg, n.clock.Now())
	if err != nil {
		return nil, fmt.Errorf("build the local genesis: %w", err)
	}
	if n.networked {
		n.genesisStakers = genesisStakers(g)
	}
	if err := n.chains.PreAlias(g.XChainID, "X", "avm"); err != nil {
		return nil, fmt.Errorf("alias the X-Chain: %w", err)
	}
	if err := n.chains.PreAlias(g.CChainID, "C", "evm"); err != nil {
		return nil, fmt.Errorf("alias the C-Chain: %w", err)
	}

	// The P-Chain is the node's own: it defines the network, and its VM is pure Go and already
	// linked through the genesis, so it runs whatever vms holds. It is created first, so that the
	// X- and C-Chains it lists resolve from the start.
	run := []Chain{{Spec: chains.Spec{
		Chain:      chains.Chain{ID: ids.Empty, SubnetID: ids.Empty, VMID: platformVMID, Name: "P-Chain"},
		Aliases:    []string{"P", "platform"},
		APIAliases: []string{"P", "platform"},
		Prefix:     storage.PrefixPlatform,
		Factory: platform.Factory{
			NodeID:  n.nodeID,
			Signer:  &txs.ProofOfPossession{PublicKey: n.pop.PublicKey, Signature: n.pop.ProofOfPossession},
			Weight:  config.LocalGenesisStake,
			Aliases: n.chains,
			Uptimes: n.primaryUptime,
		},
		Genesis: g.PGenesis,
	}, MinDelay: networkedBlockGap}}
	if factory, ok := vms[genesis.AVMID]; ok {
		run = append(run, Chain{
			Spec: chains.Spec{
				Chain:      chains.Chain{ID: g.XChainID, SubnetID: ids.Empty, VMID: genesis.AVMID, Name: genesis.XChainName},
				Aliases:    []string{"X", "avm"},
				APIAliases: []string{"X", "avm"},
				Prefix:     storage.PrefixExchange,
				Factory:    factory,
				Genesis:    g.XGenesis,
			},
			MinDelay: networkedBlockGap,
			// The X-Chain has a transaction index, and a vertex index that stays empty
			// (reference/README.md).
			IndexKinds: []index.Kind{index.Block, index.Tx, index.Vtx},
		})
	}
	if factory, ok := vms[genesis.EVMID]; ok {
		run = append(run, Chain{Spec: chains.Spec{
			Chain:      chains.Chain{ID: g.CChainID, SubnetID: ids.Empty, VMID: genesis.EVMID, Name: "C-Chain"},
			Aliases:    []string{"C", "evm"},
			APIAliases: []string{"C", "evm"},
			Prefix:     storage.PrefixEVM,
			Factory:    factory,
			Genesis:    g.CGenesis,
			// --evm-block-time is the C-Chain's: interval building is the engine's minimum gap
			// between blocks, and the EVM never builds an empty block. L1 chains take the same gap
			// (node/l1.go).
			MinBlockGap: n.cfg.EVMBlockTime,
		}})
	}
	return run, nil
}

// genesisStakers returns the Primary Network's validators the genesis g names, with their
// stake: the validators of a node that runs among others (docs/decisions.md, "One node or
// many"). This is the one place they are derived.
func genesisStakers(g *genesis.Genesis) map[ids.NodeID]uint64 {
	out := make(map[ids.NodeID]uint64, len(g.P.Validators))
	for _, tx := range g.P.Validators {
		if v, ok := tx.Unsigned().(*txs.AddPermissionlessValidatorTx); ok {
			out[v.Validator.NodeID] += v.Validator.Weight
		}
	}
	return out
}
