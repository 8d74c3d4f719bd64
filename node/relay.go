package node

import (
	"log/slog"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
)

// The built-in Interchain Messaging relay (package relay; --relay). Package node links no
// go-ethereum (node/vmset's doc), so the relay is plugged in after New by whoever links it
// (AttachRelay with vmset.Relay): it gets every chain that runs then and each chain created
// later, and stops before the chains.

// Relay is the relay as the node drives it (*relay.Relay).
type Relay interface {
	// AddChain gives the relay chain id, run by vm; it passes over VMs it cannot talk to and
	// chains it has.
	AddChain(id ids.ID, vm chains.VM) error
	// Start resumes interrupted deliveries and watches the chains added.
	Start() error
	// Close stops it.
	Close()
}

// RelayDeps is what the node hands the relay.
type RelayDeps struct {
	// DB is the relay's part of the node's database.
	DB *storage.View
	// Aggregator signs messages by a subnet's validators: the node's aggregator.
	Aggregator *acp118.Aggregator
	// Subnets tells which subnet validates a chain.
	Subnets warp.ValidatorState
	// Funder is the key that tops the relayer up, in a form wallet.ParseKey reads: the local
	// network's funded key (config.LocalFundedKey) on the local network, "" elsewhere. It is
	// handed on unparsed because parsing it is go-ethereum's crypto, which node does not link.
	Funder string
	Log    *slog.Logger
}

// RelayFactory makes the relay (vmset.Relay).
type RelayFactory func(RelayDeps) (Relay, error)

// AttachRelay makes the relay with f, when --relay says so, gives it every chain running and
// starts it. Chains created after are given to it as they start. Call it once, before Run.
func (n *Node) AttachRelay(f RelayFactory) error {
	if !n.cfg.RelayEnabled() {
		return nil
	}
	state := warpValidators{n}
	deps := RelayDeps{
		DB:         n.db.Prefixed(storage.PrefixRelay),
		Aggregator: n.signatureAggregator(),
		Subnets:    state,
		Log:        n.log.With("component", "relay"),
	}
	if n.cfg.NetworkID == config.LocalID {
		deps.Funder = config.LocalFundedKey
	}
	r, err := f(deps)
	if err != nil {
		return err
	}
	n.relayMu.Lock()
	defer n.relayMu.Unlock()
	n.relay = r
	for _, c := range n.Chains() {
		n.relayChainLocked(c.ID)
	}
	return r.Start()
}

// relayChain gives chain id to the relay, if there is one.
func (n *Node) relayChain(id ids.ID) {
	n.relayMu.Lock()
	defer n.relayMu.Unlock()
	n.relayChainLocked(id)
}

// relayChainLocked gives chain id to the relay. The chain runs whether or not the relay can
// watch it: a relay that cannot costs the chain's messages their delivery, not its routes, its
// health check or the node's start, so the error is logged for the operator and the node goes on.
func (n *Node) relayChainLocked(id ids.ID) {
	if n.relay == nil {
		return
	}
	vm, ok := n.manager.VM(id)
	if !ok {
		return
	}
	if err := n.relay.AddChain(id, vm); err != nil {
		n.log.Error("the relay does not watch this chain: its messages are not delivered",
			"chainID", id.String(), "err", err)
	}
}

// closeRelay stops the relay, if there is one.
func (n *Node) closeRelay() {
	n.relayMu.Lock()
	r := n.relay
	n.relay = nil
	n.relayMu.Unlock()
	if r != nil {
		r.Close()
	}
}
