// Package chains holds the chain registry (IDs, aliases, subnet, VM,
// bootstrapped state), the VM interface and the acceptance pipeline.
//
// The [Registry] answers the alias questions of the info and admin
// services (reference/node-api.md §3.2, §3.3) and tells the HTTP router,
// through [Registry.OnRegister], when a chain's routes must be added
// (§2.3).
//
// # Chains and their pipelines
//
// Every chain's VM implements [VM]. The [Manager] creates a chain from a
// [Spec] (its VM gets the key space Spec.Prefix + chain ID), registers it,
// hands its handlers to [Routes] (served under /ext/bc/<chain ID>, each
// bc/<alias> and the Spec's API aliases, answering 503 until the chain is in
// NormalOperation) and runs one pipeline goroutine per chain. Chains run
// independently of each other.
//
// A pipeline waits for the VM's WorkReady signal (and the chain's minimum
// block gap, zero by default), builds a block, checks that it extends the
// last accepted block by one height, verifies it and accepts it at once:
// one validator needs no consensus round. Accepting writes everything the
// block changes into one [storage.Batch]: the VM's state ([Block.Accept]),
// the index entries ([Acceptor], for indexed chains) and the chain's
// last-accepted pointer (store.go). Only after the batch is committed are
// [VM.Accepted] and the subscribers ([Manager.Subscribe]) called, in height
// order. A crash therefore leaves the whole block or none of it. If a block
// cannot be accepted (an Accept, the index or the commit fails), the chain
// halts: it is logged at Error, its health check fails
// ([Manager.Health]), and nothing of the block is written.
//
// Start-up recovery: [Manager.Create] compares the stored pointer with
// [VM.LastAccepted]; they must agree (or, for a chain with no pointer yet,
// the VM must be at its genesis block), else the chain is refused with
// [ErrRecovery]: the VM wrote outside its block's batch. A VM whose library
// writes by itself (go-ethereum's trie database) implements [Recoverer]: its
// block's batch carries its intent (the block), its library writes after the
// commit, in VM.Accepted, and at start-up Recover redoes or discards those
// writes so that the VM ends at the stored pointer before the comparison.
//
// Concurrency: Registry and Manager are safe for concurrent use. A chain's
// VM methods other than WorkReady, Handlers and Close run on its pipeline
// goroutine only; subscribers run there too.
//
// Aliases. An alias names one chain ID; two IDs never share an alias. The
// node pre-aliases the Primary Network chains at start-up (P/platform,
// X/avm, C/evm) with the IDs from genesis, before the chains exist. A
// chain's ID string becomes an alias only when the chain is registered, as
// in the reference. Aliases added through [Registry.Alias] (admin.aliasChain)
// are persisted and come back after a restart; the others are set up again
// by the node at every start.
//
// An ID's aliases are kept in this order, and the first is its primary
// alias: those given to PreAlias and Register, in call order (Register adds
// its given aliases, then the ID string), followed by those added with
// Alias, in the order they were added. The index and the router use the
// primary alias ("P", "X", "C"; the ID string for a chain without one).
//
// Slices: those the Registry returns are new and belong to the caller. A
// Block's Bytes and a Container's Bytes belong to the block.
package chains
