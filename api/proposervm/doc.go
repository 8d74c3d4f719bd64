// Package proposervm is the proposervm API of a Snowman chain: proposervm.getProposedHeight and
// proposervm.getCurrentEpoch, served at /ext/bc/<chain>/proposervm under the JSON-RPC service
// name "proposervm", as the reference serves them for the P- and C-Chains and L1 chains (it has
// none for the X-Chain). Numbers are decimal strings, as the reference's.
//
// A chain that runs among other validators is wrapped in proposer windows (vms/proposervm):
// its blocks pin a P-Chain height and an ACP-181 epoch, and the answers are its layer's:
//
//   - getProposedHeight is the P-Chain height a block built now would pin: the larger of the last
//     accepted block's and the P-Chain's minimum height (the height just before the oldest
//     P-Chain block accepted in the last 30 s), as the reference's selectChildPChainHeight;
//   - getCurrentEpoch is the epoch ACP-181 gives a child of the last accepted block.
//
// A lone node runs no proposer layer: its blocks carry no header, and what depends on validator
// sets (warp messages) is verified at the P-Chain's height of the moment. The answers describe
// that truthfully: getProposedHeight is the P-Chain's last accepted height (what the reference's
// --proposervm-use-current-height gives), and getCurrentEpoch the first epoch, which the next
// block would open: number 1, startTime the chain's last accepted block's time (unix seconds),
// pChainHeight getProposedHeight's.
//
// A Service is safe for concurrent use when its Chain, PChain and Proposer are.
package proposervm
