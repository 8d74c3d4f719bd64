// Package chains holds the chain registry (IDs, aliases, subnet, VM,
// bootstrapped state), the VM contract and the accept path: the only place
// that writes an accepted block.
//
// The [Registry] answers the alias questions of the info and admin
// services (reference/node-api.md §3.2, §3.3) and tells the HTTP router,
// through [Registry.OnRegister], when a chain's routes must be added
// (§2.3).
//
// # The VM contract
//
// Every chain's VM implements [VM], made of small interfaces, each for the
// part of the node that needs it: [Getter] (last accepted, blocks by ID,
// accepted or processing, and by height), [Parser], [Builder] (build on the
// preferred block, SetPreference, WorkReady) and [Lifecycle] (Accepted,
// handlers, Close). A [Block] is verified on its parent, the last accepted
// block or a processing one, and is then processing until it is accepted or
// rejected ([Block.Reject]): what a consensus engine needs to keep several
// blocks in flight (reference/network-consensus-warp.md §2.4–2.5).
//
// # Chains, engines and the accept path
//
// The [Manager] creates a chain from a [Spec] (its VM gets the key space
// Spec.Prefix + chain ID), registers it, hands its handlers to [Routes]
// (served under /ext/bc/<chain ID>, each bc/<alias> and the Spec's API
// aliases, answering 503 until the chain is in NormalOperation), and gives
// it an [Engine], made by the [EngineFactory] the node passes (package
// chains/engine). The engine drives the chain from Created through
// Bootstrapping to NormalOperation ([Engine.Start]) and then decides its
// blocks ([Engine.Run], on a goroutine the manager owns). Today every chain
// runs the solo engine (chains/engine/solo): this node holds all of the
// weight, so a block is accepted the moment it is built and verified.
// Chains run independently of each other.
//
// Whatever engine decided a block, it is accepted through the chain's
// [Acceptor], which writes everything the block changes into one
// [storage.Batch]: the VM's state ([Block.Accept]), the index entries
// ([Indexer], for indexed chains) and the chain's last-accepted pointer
// (store.go). Only after the batch is committed are [Lifecycle.Accepted]
// and the subscribers ([Manager.Subscribe]) called, in height order. A
// crash therefore leaves the whole block or none of it. If a block cannot
// be accepted (it does not extend the last accepted block, or an Accept,
// the index or the commit fails), or the engine stops with an error, the
// chain halts: it is logged at Error, its health check fails
// ([Manager.Health]), and nothing of the block is written.
//
// Start-up recovery: [Manager.Create] compares the stored pointer with
// [Getter.LastAccepted]; they must agree (or, for a chain with no pointer
// yet, the VM must be at its genesis block), else the chain is refused with
// [ErrRecovery]: the VM wrote outside its block's batch. A VM whose library
// writes by itself (go-ethereum's trie database) implements [Recoverer]: its
// block's batch carries its intent (the block), its library writes after the
// commit, in Accepted, and at start-up Recover redoes or discards those
// writes so that the VM ends at the stored pointer before the comparison.
//
// Concurrency: Registry and Manager are safe for concurrent use. A chain's
// VM and block methods other than WorkReady, Handlers and Close run on its
// engine goroutine only; subscribers run there too. Fakes of the VM and of
// the node's chains machinery are in package chainstest.
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
