// Package evm is the EVM chain used by the C-Chain and every L1: block
// building, fees, the mempool and the eth_* JSON-RPC API, on upstream
// go-ethereum v1.17 used as a library (DESIGN.md decision 1,
// reference/l1-evm.md §7).
//
// # What go-ethereum does and what this package does
//
// go-ethereum gives the EVM (core/vm), the state (core/state over triedb's
// hash-based scheme, archive: every root is kept), the types, rlp, rawdb's
// chain-data layout and the rpc server. This package writes the rest: the
// block builder and its header rules, the base fee (on L1s that of
// l1-evm.md §3.6, the 10-second window in the first 80 bytes of Extra; on
// the C-Chain ACP-176 from Fortuna on, its state in the first 24 bytes of
// Extra, cfees.go and package acp176), the transaction
// execution step (go-ethereum's ApplyMessage behind a StateDB that reports no
// refund counter, with the base fee paid to the coinbase too, so the
// coinbase gets the whole fee as §3.9 says), the mempool and the eth_*
// methods.
//
// # L1 chains
//
// New makes the C-Chain (a go-ethereum genesis, ACP-176 from the Fortuna
// time of Config.Upgrades and Config's fee config before it, the
// blackhole as coinbase, no stateful precompiles, the local network's
// rules: P256VERIFY from genesis; its config.json's gas-target is the
// ACP-176 target its blocks move toward, and with developer methods on
// they reach 1G gas a second at once, cfees.go). NewL1 (L1Factory) makes
// a Subnet-EVM chain from its genesis and upgrade file (package l1params,
// l1-evm.md §4), and the VM keeps its l1params.ChainConfig. Per block
// (built or verified) the rules of l1-evm.md §3.4–§3.9 follow the parent
// (chainrules.go): the fee config is the FeeManager's stored one when it
// is enabled at the parent's time, else the genesis feeConfig; the header's
// gas limit is its gasLimit; the coinbase is the RewardManager's, or any
// (the node's Config.Coinbase when building) when fee recipients are
// allowed, else the blackhole. Before Granite a block has the block gas
// cost of §3.7, from the parent's cost and fee config, which its fee must
// cover (gascost.go): it is not in the header, so each accepted block's
// cost is kept in a record beside it, and a block whose tips fall short is
// built only once the cost has come down (a retry timer on the VM's clock
// signals WorkReady). The chain's config.json (chainfile.go: feeRecipient,
// rpc-gas-cap, api-max-blocks-per-request) overrides Config. Precompile activations and disables due
// since the parent, then state upgrades, are applied before the first
// transaction; then, from Cancun, the EIP-4788 system call records the
// header's zero parent beacon root in the beacon roots contract, if a
// genesis alloc put it there. Every EVM the chain makes (blocks, eth_call,
// eth_estimateGas, eth_createAccessList, traces) carries the stateful
// precompiles in force at the block's time and, from Granite, P256VERIFY
// warm at every transaction's start (package precompile); the
// transaction allow list is checked at admission and in blocks, not in
// calls. eth_feeConfig, eth_getChainConfig, eth_getActivePrecompilesAt
// and eth_getActiveRulesAt are registered on L1s only (l1api.go). The
// chain config an L1 started with is stored; a restart with an upgrade
// file that changes what already applied is refused
// (l1params.CheckCompatible).
//
// # JSON-RPC
//
// The eth, net, web3, txpool and debug namespaces are served by
// go-ethereum's rpc server (api.go registers them), with go-ethereum's
// field names and encodings. Block parameters also take the tag
// "accepted" (blocktag.go). The reference's extras are there too
// (extras.go): eth_callDetailed, eth_getBadBlocks (always empty),
// eth_baseFee, the newAcceptedTransactions subscription and, on the
// C-Chain only, eth_suggestPriceOptions. Logs are found by scanning headers' blooms
// over at most Config.LogsBlockRangeCap blocks (filters.go); installed
// filters are fed synchronously by acceptance and expire after 5 minutes
// unpolled, on the VM's clock. Calls take go-ethereum's state and block
// overrides (overrides.go). Traces re-execute blocks with this chain's
// rules, through go-ethereum's struct logger and native tracers
// (tracing.go), which register themselves in go-ethereum's tracer
// directory when imported; JavaScript tracers are not linked.
// go-ethereum's other standard methods are hand-written with its
// semantics: raw forms (raw.go), uncles (always none, uncles.go),
// eth_fillTransaction (fill.go), eth_sendRawTransactionSync (sendsync.go),
// eth_getStorageValues and eth_capabilities; the node holds no keys, so
// the signing methods answer as a go-ethereum node without the sender's
// key (accounts.go).
//
// eth_call in its common form (a JSON content type, an id that is a
// number or a string, the call's arguments and at most a block) is
// answered in front of go-ethereum's server (fastcall.go, the
// jsonrpc.Gate's Front), byte for byte as that server answers it, without
// its reflective argument parsing and goroutine per call, whether it
// succeeds, reverts or fails; anything else goes to go-ethereum's server. The
// developer methods of a test suite's loop (evm_snapshot, evm_revert,
// evm_mine, anvil_mine, the time methods) are answered in front of it too
// (devfront.go), with the same bytes. Reads
// of the head's state (calls, balances, transaction admission) share one
// cache of the accounts and slots they found, kept for the head's state
// root (statecache.go): a root names its content for good, so a new
// block, a developer method's edit or a roll-back, which change the root,
// need no invalidation.
//
// # Storage and atomicity
//
// Chain data lives in the node's Pebble database under the VM's
// storage.View, through an ethdb.KeyValueStore adapter (db.go). The adapter
// refuses every write unless a sink batch is set: Block.Accept sets the
// pipeline's batch as the sink, then writes the block, its receipts, the tx
// lookups, the canonical and head pointers, the contract code and the trie
// nodes (StateDB.Commit, then triedb's Commit) through it. Everything a block
// changes is therefore in the pipeline's one batch, with the index entry and
// the last-accepted pointer: a crash leaves the whole block or none of it,
// and the VM needs no chains.Recoverer. The genesis is written the same way,
// in a batch of the VM's own, when the VM is made on an empty key space.
//
// An API answer made of several reads of that database (a block by number,
// a receipt by transaction hash, a block's receipts, logs, fee history)
// takes them from one chainReader pinned to one published state
// (chainread.go), so that a developer's roll-back between two reads cannot
// show it half of the change.
//
// # Block path
//
// Executing a block (BuildBlock, or Verify of a block from elsewhere) keeps
// its state, its receipts with every derived field, its senders and their
// new nonces until Accepted, which feeds newHeads, logs and the filters
// and prunes the mempool from them without reading anything back. Verify
// of a block this VM built on the current head does not check it again,
// and ParseBlock of its bytes returns it. Senders are cached by
// transaction hash for the RPC's "from" fields. go-ethereum's own log
// messages reach the node's log only if cmd/cornice routes its
// process-wide logger there (GethLogger).
//
// # Developer methods
//
// With Config.DevMethods the chain also serves anvil 1.x's developer
// methods (devapi.go: anvil_*, hardhat_*, evm_*, eth_sendUnsignedTransaction).
// Whatever changes the chain runs on the engine goroutine at the start of
// BuildBlock (dev.go): mining requests build blocks even when empty, state
// edits commit a new root recorded as the head's root in effect (rootOf),
// and evm_revert/anvil_reset roll the chain back through
// chains.Context.Rewind, which truncates the index in the same batch, in a
// time that does not grow with the blocks dropped: what a large roll-back
// leaves behind is swept later, a chunk per BuildBlock (rewind.go).
// Impersonated transactions carry a stand-in signature and a recorded
// sender (devSigner). docs/decisions.md, "Developer methods", says why.
//
// # Concurrency
//
// The pipeline goroutine builds, verifies and accepts; RPC handlers run
// concurrently and read the last accepted head under a lock, then read the
// database, which is only ever written by committed batches.
package evm
