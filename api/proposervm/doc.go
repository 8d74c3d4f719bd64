// Package proposervm is the proposervm API of a Snowman chain: proposervm.getProposedHeight and
// proposervm.getCurrentEpoch, served at /ext/bc/<chain>/proposervm under the JSON-RPC service
// name "proposervm", as the reference serves them for the P- and C-Chains and L1 chains (it has
// none for the X-Chain). Numbers are decimal strings, as the reference's.
//
// Cornice runs no proposer VM (Snowman++): its blocks carry no header with a P-Chain height or an
// ACP-181 epoch, and its chains verify what depends on validator sets (warp messages) at the
// P-Chain's height of the moment. The answers describe that truthfully:
//
//   - getProposedHeight is the P-Chain height this node would give a block it builds now: the
//     P-Chain's last accepted height, as the reference's --proposervm-use-current-height would.
//   - getCurrentEpoch is the epoch ACP-181 gives the next block of the chain: since no block of
//     the chain was assigned an epoch, the next one opens the chain's first, so number is 1,
//     startTime the chain's last accepted block's time (unix seconds), and pChainHeight the
//     P-Chain height that block would be built with (getProposedHeight's).
//
// A Service is safe for concurrent use when its Chain and PChain are.
package proposervm
