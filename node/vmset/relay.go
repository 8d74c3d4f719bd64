package vmset

import (
	"fmt"

	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/relay"
	"github.com/cornice-node/cornice/wallet"
)

// Relay is the node.RelayFactory of the binary: package relay over the node's aggregator and
// database (node.AttachRelay).
func Relay(d node.RelayDeps) (node.Relay, error) {
	cfg := relay.Config{DB: d.DB, Aggregator: d.Aggregator, Subnets: d.Subnets, Log: d.Log}
	if d.Funder != "" {
		k, err := wallet.ParseKey(d.Funder)
		if err != nil {
			return nil, fmt.Errorf("relay: funder key: %w", err)
		}
		cfg.Funder = k.PrivateKey()
	}
	return relay.New(cfg)
}
