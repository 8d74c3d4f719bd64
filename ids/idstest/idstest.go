// Package idstest gives tests identities written as text: parsers that panic on a malformed
// text, for package-level test values, and the local network's well-known identities
// (node-api.md §3.3 and §4.1), so that tests do not each copy them.
package idstest

import "github.com/cornice-node/cornice/ids"

// Identities of the local network, as the reference's local genesis makes them.
var (
	// XChainID and CChainID are the local network's X- and C-Chain IDs (node-api.md §3.3).
	XChainID = ID("2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed")
	CChainID = ID("2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC")

	// Staker1 to Staker5 are the node IDs of the local network's five stakers (node-api.md §4.1).
	Staker1 = NodeID("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")
	Staker2 = NodeID("NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ")
	Staker3 = NodeID("NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN")
	Staker4 = NodeID("NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu")
	Staker5 = NodeID("NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5")
)

// ID parses s (CB58) and panics when it is not an ID.
func ID(s string) ids.ID {
	id, err := ids.FromString(s)
	if err != nil {
		panic(err)
	}
	return id
}

// NodeID parses s ("NodeID-" and CB58) and panics when it is not a node ID.
func NodeID(s string) ids.NodeID {
	id, err := ids.NodeIDFromString(s)
	if err != nil {
		panic(err)
	}
	return id
}
