package evm

import (
	"container/heap"
	"math/big"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
)

// priceBump is the percentage by which a replacement must raise both the
// fee cap and the tip cap (go-ethereum's default, issue #4 §2).
const priceBump = 10

// poolTx is a transaction in the mempool.
type poolTx struct {
	tx   *types.Transaction
	from common.Address
	seq  uint64 // arrival order, to break ties
}

// mempool holds pending transactions by sender and nonce. Transactions
// with future nonces wait until the gap is filled. It is safe for
// concurrent use.
type mempool struct {
	accountSlots, globalSlots int

	mu sync.Mutex // guards the fields below
	// byHash and bySender hold the same transactions.
	byHash   map[common.Hash]*poolTx
	bySender map[common.Address]map[uint64]*poolTx
	seq      uint64
}

func newMempool(accountSlots, globalSlots int) *mempool {
	return &mempool{
		accountSlots: accountSlots,
		globalSlots:  globalSlots,
		byHash:       make(map[common.Hash]*poolTx),
		bySender:     make(map[common.Address]map[uint64]*poolTx),
	}
}

// add adds tx, already validated against the state, from sender from. A
// transaction with the nonce of one already pooled replaces it when both of
// its fee caps are at least priceBump percent higher.
func (p *mempool) add(tx *types.Transaction, from common.Address) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.byHash[tx.Hash()]; ok {
		return txpool.ErrAlreadyKnown
	}
	txs := p.bySender[from]
	if old, ok := txs[tx.Nonce()]; ok {
		if !bumped(old.tx.GasFeeCap(), tx.GasFeeCap()) || !bumped(old.tx.GasTipCap(), tx.GasTipCap()) {
			return txpool.ErrReplaceUnderpriced
		}
		delete(p.byHash, old.tx.Hash())
	} else {
		if len(txs) >= p.accountSlots {
			return txpool.ErrAccountLimitExceeded
		}
		if len(p.byHash) >= p.globalSlots {
			return errTxPoolFull
		}
	}
	if txs == nil {
		txs = make(map[uint64]*poolTx)
		p.bySender[from] = txs
	}
	p.seq++
	ptx := &poolTx{tx: tx, from: from, seq: p.seq}
	txs[tx.Nonce()] = ptx
	p.byHash[tx.Hash()] = ptx
	return nil
}

// bumped reports whether next ≥ old·(100+priceBump)/100.
func bumped(old, next *big.Int) bool {
	need := new(big.Int).Mul(old, big.NewInt(100+priceBump))
	return new(big.Int).Mul(next, big.NewInt(100)).Cmp(need) >= 0
}

// get returns the pooled transaction with hash h, or nil.
func (p *mempool) get(h common.Hash) *poolTx {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byHash[h]
}

// len returns the number of pooled transactions.
func (p *mempool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byHash)
}

// executable returns, per sender, the pooled transactions that can run now:
// the run of consecutive nonces starting at the sender's state nonce.
func (p *mempool) executable(nonceOf func(common.Address) uint64) map[common.Address][]*poolTx {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[common.Address][]*poolTx)
	for from, txs := range p.bySender {
		n := nonceOf(from)
		var run []*poolTx
		for {
			ptx, ok := txs[n]
			if !ok {
				break
			}
			run = append(run, ptx)
			n++
		}
		if len(run) > 0 {
			out[from] = run
		}
	}
	return out
}

// remove drops the transaction with hash h.
func (p *mempool) remove(h common.Hash) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.removeLocked(h)
}

func (p *mempool) removeLocked(h common.Hash) {
	ptx, ok := p.byHash[h]
	if !ok {
		return
	}
	delete(p.byHash, h)
	txs := p.bySender[ptx.from]
	delete(txs, ptx.tx.Nonce())
	if len(txs) == 0 {
		delete(p.bySender, ptx.from)
	}
}

// prune drops the transactions whose nonces are below their sender's
// account nonce in nonces (sender → nonce after a block).
func (p *mempool) prune(nonces map[common.Address]uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for from, n := range nonces {
		for nonce, ptx := range p.bySender[from] {
			if nonce < n {
				p.removeLocked(ptx.tx.Hash())
			}
		}
	}
}

// txQueue yields the executable transactions of several senders, highest
// effective tip first, each sender's in nonce order (go-ethereum's miner
// orders the same way).
type txQueue struct {
	baseFee *big.Int
	heads   txHeap
	rest    map[common.Address][]*poolTx
}

func newTxQueue(pending map[common.Address][]*poolTx, baseFee *big.Int) *txQueue {
	q := &txQueue{baseFee: baseFee, rest: make(map[common.Address][]*poolTx, len(pending))}
	for from, txs := range pending {
		q.heads = append(q.heads, queued{ptx: txs[0], tip: effectiveTip(txs[0].tx, baseFee)})
		q.rest[from] = txs[1:]
	}
	heap.Init(&q.heads)
	return q
}

// peek returns the next transaction, or nil.
func (q *txQueue) peek() *poolTx {
	if len(q.heads) == 0 {
		return nil
	}
	return q.heads[0].ptx
}

// shift replaces the next transaction with its sender's following one.
func (q *txQueue) shift() {
	from := q.heads[0].ptx.from
	if rest := q.rest[from]; len(rest) > 0 {
		q.heads[0] = queued{ptx: rest[0], tip: effectiveTip(rest[0].tx, q.baseFee)}
		q.rest[from] = rest[1:]
		heap.Fix(&q.heads, 0)
		return
	}
	heap.Pop(&q.heads)
}

// pop drops the next transaction and the rest of its sender's.
func (q *txQueue) pop() {
	delete(q.rest, q.heads[0].ptx.from)
	heap.Pop(&q.heads)
}

// effectiveTip is min(tipCap, feeCap − baseFee); negative when the fee cap
// is below the base fee.
func effectiveTip(tx *types.Transaction, baseFee *big.Int) *big.Int {
	tip := new(big.Int).Sub(tx.GasFeeCap(), baseFee)
	if c := tx.GasTipCap(); c.Cmp(tip) < 0 {
		tip.Set(c)
	}
	return tip
}

type queued struct {
	ptx *poolTx
	tip *big.Int
}

type txHeap []queued

func (h txHeap) Len() int { return len(h) }
func (h txHeap) Less(i, j int) bool {
	if c := h[i].tip.Cmp(h[j].tip); c != 0 {
		return c > 0
	}
	return h[i].ptx.seq < h[j].ptx.seq
}
func (h txHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *txHeap) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *txHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = slices.Delete(old, len(old)-1, len(old))
	return x
}

// clear drops every transaction.
func (p *mempool) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.byHash)
	clear(p.bySender)
}
