package evm

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// txpoolAPI is the txpool namespace, with go-ethereum's shapes: a
// transaction is pending when it can run now (its nonce continues the
// sender's state nonce without a gap) and queued otherwise.
type txpoolAPI struct{ vm *VM }

// senderTxs are one sender's pooled transactions, split at the first nonce
// gap.
type senderTxs struct {
	pending, queued []*types.Transaction
}

// poolContent returns the pooled transactions of every sender, in nonce
// order, split against the last accepted state.
func (vm *VM) poolContent() (map[common.Address]senderTxs, error) {
	st, err := vm.stateOfBlock(vm.currentHead())
	if err != nil {
		return nil, err
	}
	out := make(map[common.Address]senderTxs)
	for from, txs := range vm.pool.snapshot() {
		next := st.GetNonce(from)
		var s senderTxs
		for _, tx := range txs {
			if tx.Nonce() == next {
				s.pending = append(s.pending, tx)
				next++
			} else {
				s.queued = append(s.queued, tx)
			}
		}
		out[from] = s
	}
	return out, nil
}

// snapshot returns every sender's pooled transactions in nonce order.
func (p *mempool) snapshot() map[common.Address][]*types.Transaction {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[common.Address][]*types.Transaction, len(p.bySender))
	for from, byNonce := range p.bySender {
		txs := make([]*types.Transaction, 0, len(byNonce))
		for _, ptx := range byNonce {
			txs = append(txs, ptx.tx)
		}
		slices.SortFunc(txs, func(a, b *types.Transaction) int { return cmp.Compare(a.Nonce(), b.Nonce()) })
		out[from] = txs
	}
	return out
}

// Status is txpool_status: the numbers of pending and queued transactions.
func (a *txpoolAPI) Status() (map[string]hexutil.Uint, error) {
	content, err := a.vm.poolContent()
	if err != nil {
		return nil, err
	}
	var pending, queued int
	for _, s := range content {
		pending += len(s.pending)
		queued += len(s.queued)
	}
	return map[string]hexutil.Uint{"pending": hexutil.Uint(pending), "queued": hexutil.Uint(queued)}, nil
}

// Content is txpool_content: every pooled transaction, by sender (checksum
// hex) and nonce (decimal), under "pending" and "queued".
func (a *txpoolAPI) Content() (map[string]map[string]map[string]map[string]any, error) {
	content, err := a.vm.poolContent()
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]map[string]map[string]any{
		"pending": {},
		"queued":  {},
	}
	for from, s := range content {
		pending, queued, err := a.byNonce(s)
		if err != nil {
			return nil, err
		}
		if len(pending) > 0 {
			out["pending"][from.Hex()] = pending
		}
		if len(queued) > 0 {
			out["queued"][from.Hex()] = queued
		}
	}
	return out, nil
}

// ContentFrom is txpool_contentFrom: the pooled transactions of addr, by
// nonce, under "pending" and "queued".
func (a *txpoolAPI) ContentFrom(addr common.Address) (map[string]map[string]map[string]any, error) {
	content, err := a.vm.poolContent()
	if err != nil {
		return nil, err
	}
	pending, queued, err := a.byNonce(content[addr])
	if err != nil {
		return nil, err
	}
	return map[string]map[string]map[string]any{"pending": pending, "queued": queued}, nil
}

// Inspect is txpool_inspect: txpool_content with each transaction as
// go-ethereum's one-line summary.
func (a *txpoolAPI) Inspect() (map[string]map[string]map[string]string, error) {
	content, err := a.vm.poolContent()
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]map[string]string{"pending": {}, "queued": {}}
	summarize := func(txs []*types.Transaction) map[string]string {
		m := make(map[string]string, len(txs))
		for _, tx := range txs {
			to := "contract creation"
			if tx.To() != nil {
				to = tx.To().Hex()
			}
			m[strconv.FormatUint(tx.Nonce(), 10)] = fmt.Sprintf("%s: %v wei + %v gas × %v wei", to, tx.Value(), tx.Gas(), tx.GasPrice())
		}
		return m
	}
	for from, s := range content {
		if len(s.pending) > 0 {
			out["pending"][from.Hex()] = summarize(s.pending)
		}
		if len(s.queued) > 0 {
			out["queued"][from.Hex()] = summarize(s.queued)
		}
	}
	return out, nil
}

// byNonce marshals s's transactions as eth_getTransactionByHash does for a
// pooled one, keyed by decimal nonce.
func (a *txpoolAPI) byNonce(s senderTxs) (pending, queued map[string]map[string]any, err error) {
	marshal := func(txs []*types.Transaction) (map[string]map[string]any, error) {
		m := make(map[string]map[string]any, len(txs))
		for _, tx := range txs {
			j, err := a.vm.marshalTx(tx, nil, 0)
			if err != nil {
				return nil, err
			}
			m[strconv.FormatUint(tx.Nonce(), 10)] = j
		}
		return m, nil
	}
	if pending, err = marshal(s.pending); err != nil {
		return nil, nil, err
	}
	if queued, err = marshal(s.queued); err != nil {
		return nil, nil, err
	}
	return pending, queued, nil
}
