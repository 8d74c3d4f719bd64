package node

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/relay"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/warp/acp118"
)

// The built-in Interchain Messaging relay (package relay; --relay): made before the chains,
// given each EVM chain as it is created, started once the chains of start-up run, stopped
// before them.

// inProcDialer is a VM whose JSON-RPC server the relay can call in this process (*evm.VM).
type inProcDialer interface {
	DialInProc() *rpc.Client
}

// buildRelay makes the relay when --relay says so. Its signatures come from the node's
// aggregator; on the local network the well-known funded key tops the relayer up.
func (n *Node) buildRelay() error {
	if !n.cfg.RelayEnabled() {
		return nil
	}
	state := warpValidators{n}
	cfg := relay.Config{
		DB:         n.db.Prefixed(storage.PrefixRelay),
		Aggregator: acp118.NewAggregator(state, localSignatures{n}),
		Subnets:    state,
		Log:        n.log.With("component", "relay"),
	}
	if n.cfg.NetworkID == config.LocalID {
		b, err := ids.CB58Decode(strings.TrimPrefix(config.LocalFundedKey, "PrivateKey-"))
		if err != nil {
			return fmt.Errorf("relay: the local funded key: %w", err)
		}
		if cfg.Funder, err = crypto.ToECDSA(b); err != nil {
			return fmt.Errorf("relay: the local funded key: %w", err)
		}
	}
	r, err := relay.New(cfg)
	if err != nil {
		return err
	}
	n.relay = r
	return nil
}

// relayChain gives chain id to the relay, if there is one and the chain is an EVM chain.
func (n *Node) relayChain(id ids.ID) error {
	if n.relay == nil {
		return nil
	}
	vm, ok := n.manager.VM(id)
	if !ok {
		return nil
	}
	d, ok := vm.(inProcDialer)
	if !ok {
		return nil
	}
	return n.relay.AddChain(id, ethclient.NewClient(d.DialInProc()))
}

// startRelay starts the relay, if there is one.
func (n *Node) startRelay() error {
	if n.relay == nil {
		return nil
	}
	return n.relay.Start()
}
