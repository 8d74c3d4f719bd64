// Package infotest provides in-memory implementations of the interfaces package info declares,
// for tests of info and of the packages that wire it.
//
// The fakes are plain data: build them with literals and do not change them once a Service reads
// them. Reads are safe for concurrent use.
package infotest

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/ids"
)

// Chain is one chain of a Chains registry.
type Chain struct {
	ID ids.ID
	// Aliases name the chain; the first is its primary alias. The ID's text resolves too.
	Aliases      []string
	Bootstrapped bool
}

// Chains is a fixed chain registry with the reference's error texts (node-api.md §3.2, §3.3,
// §3.11).
type Chains []Chain

var (
	_ info.Chains  = Chains(nil)
	_ info.Aliases = Chains(nil)
)

// find returns the chain named alias, by one of its aliases or its ID's text.
func (c Chains) find(alias string) (Chain, bool) {
	for _, ch := range c {
		if ch.ID.String() == alias {
			return ch, true
		}
		for _, a := range ch.Aliases {
			if a == alias {
				return ch, true
			}
		}
	}
	return Chain{}, false
}

// Lookup returns the ID of the chain named alias.
func (c Chains) Lookup(alias string) (ids.ID, error) {
	ch, ok := c.find(alias)
	if !ok {
		return ids.ID{}, fmt.Errorf("there is no ID with alias: %s", alias)
	}
	return ch.ID, nil
}

// IsBootstrapped reports the Bootstrapped field of the chain named alias.
func (c Chains) IsBootstrapped(alias string) (bool, error) {
	ch, ok := c.find(alias)
	if !ok {
		return false, fmt.Errorf("there is no chain with alias/ID '%s'", alias)
	}
	return ch.Bootstrapped, nil
}

// PrimaryAlias returns the first alias of the chain with chainID.
func (c Chains) PrimaryAlias(chainID ids.ID) (string, error) {
	for _, ch := range c {
		if ch.ID == chainID && len(ch.Aliases) > 0 {
			return ch.Aliases[0], nil
		}
	}
	return "", fmt.Errorf("there is no alias for ID: %s", chainID)
}

// Peers is a fixed set of connected peers, in order.
type Peers []info.Peer

var _ info.Peers = Peers(nil)

// Connected returns the peers.
func (p Peers) Connected() []info.Peer { return p }

// NodeIP returns a Deps.NodeIP that always reports ap.
func NodeIP(ap netip.AddrPort) func() netip.AddrPort {
	return func() netip.AddrPort { return ap }
}

// SubnetValidators holds fixed validator weights per subnet, or fails with Err when it is set.
type SubnetValidators struct {
	Weights map[ids.ID]map[ids.NodeID]uint64
	Err     error
}

var _ info.SubnetValidators = (*SubnetValidators)(nil)

// SubnetWeights returns v.Weights[subnetID], or v.Err.
func (v *SubnetValidators) SubnetWeights(_ context.Context, subnetID ids.ID) (map[ids.NodeID]uint64, error) {
	if v.Err != nil {
		return nil, v.Err
	}
	return v.Weights[subnetID], nil
}
