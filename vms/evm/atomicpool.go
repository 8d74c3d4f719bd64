package evm

import (
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common/lru"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/atomic"
)

// Sizes of the atomic mempool.
const (
	// atomicPoolSize is how many atomic txs wait at most.
	atomicPoolSize = 4096
	// droppedAtomicTxs is how many dropped atomic txs getAtomicTxStatus remembers (the
	// reference's discarded-tx cache).
	droppedAtomicTxs = 50
)

// pooledAtomicTx is a pending atomic tx and what orders it.
type pooledAtomicTx struct {
	tx *atomic.Tx
	// gasPrice is the nAVAX it burns per gas, which orders the pool, highest first.
	gasPrice uint64
	seq      uint64
}

// atomicPool holds the atomic txs waiting for a block, at most one spender of each input. It is
// safe for concurrent use.
type atomicPool struct {
	mu      sync.Mutex // guards the fields below
	byID    map[ids.ID]*pooledAtomicTx
	spender map[ids.ID]ids.ID // input ID -> the pending tx that spends it
	seq     uint64
	// dropped remembers txs that failed verification when a block was built.
	dropped *lru.Cache[ids.ID, *atomic.Tx]
}

func newAtomicPool() *atomicPool {
	return &atomicPool{
		byID:    make(map[ids.ID]*pooledAtomicTx),
		spender: make(map[ids.ID]ids.ID),
		dropped: lru.NewCache[ids.ID, *atomic.Tx](droppedAtomicTxs),
	}
}

// add adds tx, which burns gasPrice per gas. A tx already pending is not an error (the
// reference's local issue). A tx that spends what pending ones spend replaces them only if it
// pays a higher gas price than each.
func (p *atomicPool) add(tx *atomic.Tx, gasPrice uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	id := tx.ID()
	if _, ok := p.byID[id]; ok {
		return nil
	}
	var conflicts []ids.ID
	var highest uint64
	var highestID ids.ID
	for _, in := range tx.InputIDs() {
		other, ok := p.spender[in]
		if !ok || slices.Contains(conflicts, other) {
			continue
		}
		conflicts = append(conflicts, other)
		if gp := p.byID[other].gasPrice; gp > highest || len(conflicts) == 1 {
			highest, highestID = gp, other
		}
	}
	if len(conflicts) > 0 {
		if highest >= gasPrice {
			return conflictingAtomicTxError(id, gasPrice, highestID, highest, len(conflicts))
		}
		for _, c := range conflicts {
			p.removeLocked(c)
		}
	}
	if len(p.byID) >= atomicPoolSize {
		return errTooManyAtomicTxs
	}
	p.seq++
	p.byID[id] = &pooledAtomicTx{tx: tx, gasPrice: gasPrice, seq: p.seq}
	for _, in := range tx.InputIDs() {
		p.spender[in] = id
	}
	p.dropped.Remove(id)
	return nil
}

// pending returns the pending txs, highest gas price first, then in arrival order.
func (p *atomicPool) pending() []*atomic.Tx {
	p.mu.Lock()
	all := make([]*pooledAtomicTx, 0, len(p.byID))
	for _, ptx := range p.byID {
		all = append(all, ptx)
	}
	p.mu.Unlock()
	slices.SortFunc(all, func(a, b *pooledAtomicTx) int {
		if a.gasPrice != b.gasPrice {
			if a.gasPrice > b.gasPrice {
				return -1
			}
			return 1
		}
		return int(a.seq) - int(b.seq)
	})
	txs := make([]*atomic.Tx, len(all))
	for i, ptx := range all {
		txs[i] = ptx.tx
	}
	return txs
}

// get returns a pending tx, or a dropped one with dropped true.
func (p *atomicPool) get(id ids.ID) (tx *atomic.Tx, dropped, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ptx, ok := p.byID[id]; ok {
		return ptx.tx, false, true
	}
	if tx, ok := p.dropped.Get(id); ok {
		return tx, true, true
	}
	return nil, false, false
}

// remove forgets the txs of an accepted block.
func (p *atomicPool) remove(txs []*atomic.Tx) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, tx := range txs {
		p.removeLocked(tx.ID())
	}
}

// drop removes a tx that failed verification, remembering it as dropped.
func (p *atomicPool) drop(tx *atomic.Tx) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.removeLocked(tx.ID())
	p.dropped.Add(tx.ID(), tx)
}

func (p *atomicPool) removeLocked(id ids.ID) {
	ptx, ok := p.byID[id]
	if !ok {
		return
	}
	delete(p.byID, id)
	for _, in := range ptx.tx.InputIDs() {
		if p.spender[in] == id {
			delete(p.spender, in)
		}
	}
}

func (p *atomicPool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byID)
}
