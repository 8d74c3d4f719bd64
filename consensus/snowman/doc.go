// Package snowman is the Snowman consensus algorithm alone: it adds blocks, records polls (a
// vote for a block counts for its ancestors), keeps the preferred chain and decides blocks
// (reference/network-consensus-warp.md §2.1, §2.5). It does no I/O and has no clock: a poll's
// result comes in as a bag of Votes and the decisions go out as a Decisions value, which the
// engine (chains/engine) applies through the chain's accept path, accepted blocks first and in
// order. It imports nothing of cornice but ids.
//
// Each processing block, and the last accepted one, holds a snowball instance over its
// children: the reference's snowball tree, which decides a child's ID bit by bit (tree.go says
// why that matters). A block is accepted only when the instance of the last accepted block
// finalizes (β consecutive polls with at least αc votes for the same child); its siblings and
// all their descendants are rejected in the same step, and the step repeats down the chain
// while the next instance has finalized too.
//
// Polls is the bookkeeping of the polls in flight: request IDs, the stake units each sampled
// validator holds, early termination (§2.6), and results given back in request order.
//
// A Consensus or a Polls is not safe for concurrent use: the engine owns it and calls it on its
// chain's goroutine. Parameters and Votes are values.
package snowman
