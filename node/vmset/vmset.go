// Package vmset lists the VMs the cornice binary links, configured for a node's config: the one
// node.VMs that `cornice run`, the integration tests and the benches hand to node.New, so that
// each runs the node a user runs.
//
// It sits beside package node rather than in it because node links no go-ethereum VM
// (docs/decisions.md): node's tests link the reference node's Go clients, whose C secp256k1
// symbols clash with go-ethereum's. Whatever imports vmset links go-ethereum.
//
// For returns a new map on every call; the caller owns it and may replace an entry (a bench
// swapping the C-Chain's fee config, a test wrapping a factory).
package vmset

import (
	"time"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/exchange"
)

// For returns the VMs the binary runs, configured for cfg's network: the X-Chain's AVM, the
// C-Chain's EVM and the Subnet-EVM VM of L1 chains (issue #6 §1), whose fee config, precompiles
// and upgrades come from each chain's genesis and upgrade file. The P-Chain is built into node.
func For(cfg config.Config) node.VMs {
	fees := config.TxFeesFor(cfg.NetworkID, cfg.TxFee, cfg.CreateAssetTxFee)
	// A limit's 0 (none) is evm.Config's negative value; so is a cap beyond any chain's height.
	evmCfg := evm.Config{
		LogsBlockRangeCap:    config.LimitValue(cfg.EVMLogsBlockRangeCap),
		BatchResponseMaxSize: config.LimitValue(cfg.HTTPBatchResponseMaxSize),
	}
	if cfg.DevMethodsEnabled() {
		// The developer methods (issue #16) on every EVM chain, with one snapshot numbering.
		evmCfg.DevMethods, evmCfg.DevIDs = true, new(evm.DevIDs)
	}
	return node.VMs{
		genesis.AVMID: exchange.Factory{
			CortinaTime:      cfg.Upgrades.CortinaTime,
			StopVertexID:     cfg.Upgrades.CortinaXChainStopVertexID,
			TxFee:            fees.TxFee,
			CreateAssetTxFee: fees.CreateAssetTxFee,
		},
		// The C-Chain: ACP-176 from the schedule's Fortuna on, its times in eth_getChainConfig.
		genesis.EVMID:    evm.Factory{Config: cChainConfig(evmCfg, cfg.Upgrades, cChainAtomic(cfg.NetworkID))},
		node.SubnetEVMID: evm.L1Factory{Config: evmCfg},
	}
}

// cChainConfig is c with the C-Chain's upgrade schedule u (an L1 takes its own from its genesis)
// and the Primary Network its atomic txs move AVAX within.
func cChainConfig(c evm.Config, u config.Upgrades, a *evm.AtomicConfig) evm.Config {
	c.Upgrades, c.Atomic = &u, a
	return c
}

// cChainAtomic is the local network's X-Chain and AVAX asset, from its genesis, which node builds
// too (their IDs do not depend on the genesis time); nil on other networks, where no Primary
// Network chain runs, or if the embedded genesis does not build, which node then reports.
func cChainAtomic(networkID uint32) *evm.AtomicConfig {
	if networkID != config.LocalID {
		return nil
	}
	gc, err := genesis.Local()
	if err != nil {
		return nil
	}
	g, err := genesis.Build(gc, time.Unix(int64(gc.StartTime), 0))
	if err != nil {
		return nil
	}
	return &evm.AtomicConfig{AVAXAssetID: g.AVAXAssetID, XChainID: g.XChainID}
}
