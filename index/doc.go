// Package index stores accepted containers in acceptance order and serves them.
//
// A container is what a chain accepted: a block, or a transaction inside an X-Chain block, with its
// ID and bytes (node-api.md §5.2). Each index (a chain and a [Kind]) numbers its containers densely
// from 0 in this node's acceptance order and records when this node accepted each one. Genesis
// blocks are never indexed: the pipeline accepts blocks after genesis only. The indexes are /ext/index/X/tx (every accepted X-Chain transaction),
// /ext/index/X/block, /ext/index/X/vtx (exists and stays empty), /ext/index/P/block,
// /ext/index/C/block and, beyond the reference, /ext/index/<alias or blockchainID>/block for every L1
// chain (reference/README.md, "Precedence").
//
// # Life cycle
//
// The node makes one [Indexer] with [New], calls [Indexer.Check] for every chain it knows, and
// refuses to start if any check fails (the rules of node-api.md §5.7; nothing has been written at
// that point). Then it calls [Indexer.Register] for each chain, which records the chain's markers
// and returns the handlers to mount. The acceptance pipeline calls [Indexer.Accept] for every
// accepted block, inside the block's batch: the index entries are committed atomically with the
// block, so a crash leaves the whole block indexed or none of it.
//
// # Storage
//
// Everything lives in the view of storage.PrefixIndex: per index, container by index, index by ID
// and the next index; per chain, the "incomplete" and "previously indexed" markers; and the "has
// run" marker (the key layouts are in indexer.go and index.go). A stored container is laid out as
// the reference's (node-api.md §5.3: codec version, ID, length-prefixed bytes, acceptance time in
// unix nanoseconds) with the hex checksum of the bytes after them, so that reads never hash.
//
// # Service
//
// Each index is served by its own JSON-RPC server, service "index", with the six methods of
// node-api.md §5.5 and their exact params, results, key order and error texts, except where our spec
// wins (reference/README.md): index.getContainerRange accepts numToFetch 0 and returns
// {"containers":[]}, even on an empty index, and its error for numToFetch above 1024 says
// [0,1024]. Timestamps are UTC with all their nanoseconds (§5.6). A range is read with one iterator,
// from one snapshot.
//
// # Concurrency and slices
//
// An Indexer is safe for concurrent use, and its handlers may run while blocks are accepted. Accept
// for one chain must come from one goroutine, each batch committed or discarded before the next
// call (see [Indexer.Accept]). Accept neither keeps nor changes the containers it is given.
package index
