package evm

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/cornice-node/cornice/clock"
)

// filterTimeout is how long a filter lives without being polled
// (go-ethereum's default).
const filterTimeout = 5 * time.Minute

// filterKind is what a filter collects.
type filterKind uint8

const (
	logsFilter filterKind = iota
	blocksFilter
	pendingTxFilter
)

// installedFilter is a filter of eth_newFilter, eth_newBlockFilter or
// eth_newPendingTransactionFilter, with what it collected since it was last
// polled.
type installedFilter struct {
	kind     filterKind
	crit     filterCriteria // logsFilter only
	fullTx   bool           // pendingTxFilter only
	lastUsed time.Time
	hashes   []common.Hash // block or transaction hashes
	logs     []*types.Log
}

// filterSystem holds the installed filters. Accepted blocks and pooled
// transactions reach it through feeds, synchronously, so it needs no
// goroutine. A filter not polled for timeout is dropped the next time the
// system is used: the filters therefore hold at most timeout's worth of
// events.
type filterSystem struct {
	clock   clock.Clock
	timeout time.Duration

	mu      sync.Mutex // guards filters
	filters map[rpc.ID]*installedFilter
}

func newFilterSystem(c clock.Clock, timeout time.Duration) *filterSystem {
	return &filterSystem{clock: c, timeout: timeout, filters: make(map[rpc.ID]*installedFilter)}
}

// install adds f and returns its ID.
func (fs *filterSystem) install(f *installedFilter) rpc.ID {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	now := fs.clock.Now()
	fs.expireLocked(now)
	f.lastUsed = now
	id := rpc.NewID()
	fs.filters[id] = f
	return id
}

// expireLocked drops the filters not used since now − timeout.
func (fs *filterSystem) expireLocked(now time.Time) {
	for id, f := range fs.filters {
		if now.Sub(f.lastUsed) >= fs.timeout {
			delete(fs.filters, id)
		}
	}
}

// uninstall drops filter id and reports whether it was there.
func (fs *filterSystem) uninstall(id rpc.ID) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.expireLocked(fs.clock.Now())
	_, ok := fs.filters[id]
	delete(fs.filters, id)
	return ok
}

// take returns a copy of filter id with what it collected, empties it and
// marks it used.
func (fs *filterSystem) take(id rpc.ID) (installedFilter, error) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	now := fs.clock.Now()
	fs.expireLocked(now)
	f, ok := fs.filters[id]
	if !ok {
		return installedFilter{}, errFilterNotFound
	}
	f.lastUsed = now
	out := *f
	f.hashes, f.logs = nil, nil
	return out, nil
}

// criteria returns the criteria of log filter id and marks it used.
func (fs *filterSystem) criteria(id rpc.ID) (filterCriteria, error) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	now := fs.clock.Now()
	fs.expireLocked(now)
	f, ok := fs.filters[id]
	if !ok || f.kind != logsFilter {
		return filterCriteria{}, errFilterNotFound
	}
	f.lastUsed = now
	return f.crit, nil
}

// onHead gives an accepted block's hash and logs to the filters.
func (fs *filterSystem) onHead(hash common.Hash, number uint64, logs []*types.Log) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.expireLocked(fs.clock.Now())
	for _, f := range fs.filters {
		switch f.kind {
		case blocksFilter:
			f.hashes = append(f.hashes, hash)
		case logsFilter:
			if !f.crit.inRange(number) {
				continue
			}
			for _, l := range logs {
				if f.crit.matchesAddressAndTopics(l) {
					f.logs = append(f.logs, l)
				}
			}
		}
	}
}

// onPending gives the hash of a transaction the mempool took to the
// filters.
func (fs *filterSystem) onPending(hash common.Hash) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.expireLocked(fs.clock.Now())
	for _, f := range fs.filters {
		if f.kind == pendingTxFilter {
			f.hashes = append(f.hashes, hash)
		}
	}
}

// inRange reports whether logs of block number pass c's numeric bounds; a
// tag bound (latest and the others) lets every new block in, as in
// go-ethereum.
func (c *filterCriteria) inRange(number uint64) bool {
	if c.FromBlock != nil && *c.FromBlock >= 0 && uint64(*c.FromBlock) > number {
		return false
	}
	if c.ToBlock != nil && *c.ToBlock >= 0 && uint64(*c.ToBlock) < number {
		return false
	}
	return true
}

// filterAPI is the eth namespace's log and filter methods.
type filterAPI struct{ vm *VM }

// GetLogs is eth_getLogs: the logs of accepted blocks that match crit.
func (a *filterAPI) GetLogs(ctx context.Context, crit filterCriteria) ([]*types.Log, error) {
	return a.vm.findLogs(ctx, &crit)
}

// NewFilter is eth_newFilter: a filter that collects the logs of the next
// accepted blocks that match crit.
func (a *filterAPI) NewFilter(crit filterCriteria) rpc.ID {
	return a.vm.feeds.filters.install(&installedFilter{kind: logsFilter, crit: crit})
}

// NewBlockFilter is eth_newBlockFilter: a filter that collects the hashes of
// the next accepted blocks.
func (a *filterAPI) NewBlockFilter() rpc.ID {
	return a.vm.feeds.filters.install(&installedFilter{kind: blocksFilter})
}

// NewPendingTransactionFilter is eth_newPendingTransactionFilter: a filter
// that collects the transactions the mempool takes, as hashes or, with
// fullTx, as transaction objects.
func (a *filterAPI) NewPendingTransactionFilter(fullTx *bool) rpc.ID {
	return a.vm.feeds.filters.install(&installedFilter{kind: pendingTxFilter, fullTx: fullTx != nil && *fullTx})
}

// GetFilterChanges is eth_getFilterChanges: what filter id collected since
// it was last polled: logs, block hashes, or transaction hashes (objects
// for a full pending filter).
func (a *filterAPI) GetFilterChanges(ctx context.Context, id rpc.ID) (any, error) {
	f, err := a.vm.feeds.filters.take(id)
	if err != nil {
		return []any{}, err
	}
	switch {
	case f.kind == logsFilter:
		return nonNilLogs(f.logs), nil
	case f.kind == pendingTxFilter && f.fullTx:
		txs := make([]map[string]any, 0, len(f.hashes))
		eth := &ethAPI{vm: a.vm}
		for _, h := range f.hashes {
			tx, err := eth.GetTransactionByHash(ctx, h)
			if err != nil {
				return nil, err
			}
			if tx != nil {
				txs = append(txs, tx)
			}
		}
		return txs, nil
	}
	if f.hashes == nil {
		return []common.Hash{}, nil
	}
	return f.hashes, nil
}

// GetFilterLogs is eth_getFilterLogs: every log of accepted blocks that
// matches log filter id's criteria.
func (a *filterAPI) GetFilterLogs(ctx context.Context, id rpc.ID) ([]*types.Log, error) {
	crit, err := a.vm.feeds.filters.criteria(id)
	if err != nil {
		return nil, err
	}
	return a.vm.findLogs(ctx, &crit)
}

// UninstallFilter is eth_uninstallFilter.
func (a *filterAPI) UninstallFilter(id rpc.ID) bool {
	return a.vm.feeds.filters.uninstall(id)
}

// Logs is eth_subscribe("logs"): every log of each accepted block that
// matches crit (every log without criteria), one notification per log.
func (a *filterAPI) Logs(ctx context.Context, crit *filterCriteria) (*rpc.Subscription, error) {
	if crit == nil {
		crit = &filterCriteria{}
	}
	return subscribe(ctx, &a.vm.feeds.logs, func(n *rpc.Notifier, id rpc.ID, logs []*types.Log) error {
		for _, l := range logs {
			if !crit.inRange(l.BlockNumber) || !crit.matchesAddressAndTopics(l) {
				continue
			}
			if err := n.Notify(id, l); err != nil {
				return err
			}
		}
		return nil
	})
}

// findLogs returns the logs of accepted blocks that match crit, in chain
// order: the block crit.BlockHash names, or the blocks from crit.FromBlock
// to crit.ToBlock (latest by default), at most Config.LogsBlockRangeCap of
// them. Blocks whose bloom rules a match out are not read.
func (vm *VM) findLogs(ctx context.Context, crit *filterCriteria) ([]*types.Log, error) {
	c, release := vm.pinChain()
	defer release()
	if crit.BlockHash != nil {
		blk := c.blockByHash(*crit.BlockHash)
		if blk == nil {
			return nil, errUnknownLogsBlock
		}
		return c.blockLogs(blk, crit, nil), nil
	}
	top := c.head()
	head := top.NumberU64()
	from, to := logsBound(crit.FromBlock, head), logsBound(crit.ToBlock, head)
	switch {
	case from > to:
		return nil, errInvalidBlockRange
	case vm.cfg.LogsBlockRangeCap > 0 && to-from >= uint64(vm.cfg.LogsBlockRangeCap):
		return nil, blockRangeCapError(uint64(vm.cfg.LogsBlockRangeCap), from, to)
	case to > head:
		return nil, errBlockRangeIntoFuture
	}
	out := []*types.Log{}
	for n := from; n <= to; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The head is at hand (c.head): no read of its hash, header or body, for a subscriber's
		// one-block query of each new head, such as the relay's scan.
		blk := top
		if n != head {
			hash := rawdb.ReadCanonicalHash(c.db, n)
			header := rawdb.ReadHeader(c.db, hash, n)
			if header == nil {
				return nil, errUnknownLogsBlock
			}
			if !crit.mayContain(header.Bloom) {
				continue
			}
			if blk = rawdb.ReadBlock(c.db, hash, n); blk == nil {
				return nil, errUnknownLogsBlock
			}
		} else if !crit.mayContain(blk.Bloom()) {
			continue
		}
		out = c.blockLogs(blk, crit, out)
	}
	return out, nil
}

// logsBound resolves a bound of a log range: absent and every tag but
// earliest mean the last accepted block.
func logsBound(n *rpc.BlockNumber, head uint64) uint64 {
	switch {
	case n == nil:
		return head
	case *n == rpc.EarliestBlockNumber:
		return 0
	case *n < 0:
		return head
	}
	return uint64(*n)
}

// blockLogs appends to out the logs of blk that match crit's addresses and
// topics, and returns out, never nil.
func (c chainReader) blockLogs(blk *types.Block, crit *filterCriteria, out []*types.Log) []*types.Log {
	if out == nil {
		out = []*types.Log{}
	}
	for _, r := range c.receipts(blk) {
		for _, l := range r.Logs {
			if crit.matchesAddressAndTopics(l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// nonNilLogs returns logs, or an empty list for nil: go-ethereum answers
// [] rather than null.
func nonNilLogs(logs []*types.Log) []*types.Log {
	if logs == nil {
		return []*types.Log{}
	}
	return logs
}
