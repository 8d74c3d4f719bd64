// Package proposervm is Snowman++ for chains that run among several validators: a layer around
// a chain's VM whose blocks wrap the VM's own in the reference's proposervm block
// (network-consensus-warp.md §2.8), byte for byte: the parent, a timestamp, the P-Chain height
// the block was built at, its ACP-181 epoch, and the proposer's staking certificate and
// signature. Only the slot's proposer may build (the windower), and verification rejects blocks
// from outside their window, too far in the future or before their parent, closer to the parent
// than the minimum block delay, or pinned to a P-Chain height this node does not have yet or
// below the parent's. A lone node does not use it (docs/decisions.md, "Proposer windows").
//
// Blocks accepted before the chain was wrapped stay bare inner blocks ("pre-fork"): the first
// wrapped block's parent is the last of them.
//
// A VM is used as its inner VM is: by the chain's engine goroutine, except WorkReady, Handlers,
// Close and BlockHeader, which are safe for concurrent use.
package proposervm
