package evm

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// Limits of eth_feeHistory (go-ethereum's defaults: eth/ethconfig and
// eth/gasprice).
const (
	maxFeeHistoryBlocks      = 1024
	maxFeeHistoryPercentiles = 100
)

// feeHistoryResult is eth_feeHistory's answer, with go-ethereum's field
// names. BaseFee and BlobBaseFee have one entry more than the blocks: the
// block after the newest.
type feeHistoryResult struct {
	OldestBlock      *hexutil.Big     `json:"oldestBlock"`
	Reward           [][]*hexutil.Big `json:"reward,omitempty"`
	BaseFee          []*hexutil.Big   `json:"baseFeePerGas,omitempty"`
	GasUsedRatio     []float64        `json:"gasUsedRatio"`
	BlobBaseFee      []*hexutil.Big   `json:"baseFeePerBlobGas,omitempty"`
	BlobGasUsedRatio []float64        `json:"blobGasUsedRatio,omitempty"`
}

// FeeHistory is eth_feeHistory: for up to blockCount blocks ending at
// lastBlock, each block's base fee, gas used ratio, and the requested
// percentiles of the effective tips its transactions paid, weighted by gas
// used (go-ethereum's definition). The base fee after the newest block is
// this chain's (l1-evm.md §3.6): the next block's at the node's time when
// the newest is the last accepted block. Blocks carry no blobs: the blob
// base fee is 1 wei and the blob gas used ratio 0.
//
// The percentiles may be null or absent, which go-ethereum refuses
// although its own ethclient sends null for no percentiles.
func (a *ethAPI) FeeHistory(ctx context.Context, blockCount math.HexOrDecimal64, lastBlock blockNumber, percentiles *[]float64) (*feeHistoryResult, error) {
	var rewardPercentiles []float64
	if percentiles != nil {
		rewardPercentiles = *percentiles
	}
	if len(rewardPercentiles) > maxFeeHistoryPercentiles {
		return nil, fmt.Errorf("%w: over the query limit %d", errInvalidPercentile, maxFeeHistoryPercentiles)
	}
	for i, p := range rewardPercentiles {
		if p < 0 || p > 100 {
			return nil, fmt.Errorf("%w: %f", errInvalidPercentile, p)
		}
		if i > 0 && p <= rewardPercentiles[i-1] {
			return nil, fmt.Errorf("%w: #%d:%f >= #%d:%f", errInvalidPercentile, i-1, rewardPercentiles[i-1], i, p)
		}
	}
	c, release := a.vm.pinChain()
	defer release()
	head := c.head()
	last := head.NumberU64()
	switch n := rpc.BlockNumber(lastBlock); {
	case n == rpc.EarliestBlockNumber:
		last = 0
	case n >= 0:
		if uint64(n) > last {
			return nil, fmt.Errorf("%w: requested %d, head %d", errRequestBeyondHead, n, last)
		}
		last = uint64(n)
	}
	blocks := min(uint64(blockCount), maxFeeHistoryBlocks, last+1)
	if blocks == 0 {
		return &feeHistoryResult{OldestBlock: (*hexutil.Big)(new(big.Int))}, nil
	}
	oldest := last + 1 - blocks
	res := &feeHistoryResult{
		OldestBlock:      (*hexutil.Big)(new(big.Int).SetUint64(oldest)),
		GasUsedRatio:     make([]float64, 0, blocks),
		BaseFee:          make([]*hexutil.Big, 0, blocks+1),
		BlobBaseFee:      make([]*hexutil.Big, 0, blocks+1),
		BlobGasUsedRatio: make([]float64, 0, blocks),
	}
	if len(rewardPercentiles) > 0 {
		res.Reward = make([][]*hexutil.Big, 0, blocks)
	}
	for n := oldest; n <= last; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		blk := c.blockByNumber(n)
		if blk == nil {
			return nil, errUnknownBlock
		}
		baseFee := blk.BaseFee()
		if baseFee == nil {
			baseFee = new(big.Int)
		}
		res.BaseFee = append(res.BaseFee, (*hexutil.Big)(baseFee))
		res.BlobBaseFee = append(res.BlobBaseFee, (*hexutil.Big)(big.NewInt(1)))
		res.GasUsedRatio = append(res.GasUsedRatio, float64(blk.GasUsed())/float64(blk.GasLimit()))
		res.BlobGasUsedRatio = append(res.BlobGasUsedRatio, 0)
		if len(rewardPercentiles) > 0 {
			res.Reward = append(res.Reward, c.blockRewards(blk, rewardPercentiles))
		}
	}
	next := a.vm.nextBaseFee(head)
	if last < head.NumberU64() {
		next = c.blockByNumber(last + 1).BaseFee()
	}
	res.BaseFee = append(res.BaseFee, (*hexutil.Big)(next))
	res.BlobBaseFee = append(res.BlobBaseFee, (*hexutil.Big)(big.NewInt(1)))
	return res, nil
}

// blockRewards returns, for each percentile p, the effective tip of the
// transaction at which the gas used, counted in ascending tip order,
// reaches p% of the block's gas used; zeros for a block without
// transactions.
func (c chainReader) blockRewards(blk *types.Block, percentiles []float64) []*hexutil.Big {
	out := make([]*hexutil.Big, len(percentiles))
	txs := blk.Transactions()
	if len(txs) == 0 {
		for i := range out {
			out[i] = (*hexutil.Big)(new(big.Int))
		}
		return out
	}
	receipts := c.receipts(blk)
	type gasAndTip struct {
		gas uint64
		tip *big.Int
	}
	sorted := make([]gasAndTip, len(txs))
	for i, tx := range txs {
		tip, _ := tx.EffectiveGasTip(blk.BaseFee())
		var gas uint64
		if i < len(receipts) {
			gas = receipts[i].GasUsed
		}
		sorted[i] = gasAndTip{gas: gas, tip: tip}
	}
	slices.SortStableFunc(sorted, func(a, b gasAndTip) int { return a.tip.Cmp(b.tip) })
	idx, sum := 0, sorted[0].gas
	for i, p := range percentiles {
		threshold := uint64(float64(blk.GasUsed()) * p / 100)
		for sum < threshold && idx < len(sorted)-1 {
			idx++
			sum += sorted[idx].gas
		}
		out[i] = (*hexutil.Big)(sorted[idx].tip)
	}
	return out
}

// BaseFee is eth_baseFee (a C-Chain and Subnet-EVM extra, l1-evm.md §1.6):
// the base fee a block built now on the last accepted block would have.
func (a *ethAPI) BaseFee() *hexutil.Big {
	return (*hexutil.Big)(a.vm.nextBaseFee(a.vm.currentHead()))
}
