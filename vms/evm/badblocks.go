package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// The debug methods of go-ethereum on bad blocks and on blocks given as
// RLP. This node keeps no block that failed verification (eth_getBadBlocks
// is always empty), so there is never a bad block to list or trace.

// GetBadBlocks is debug_getBadBlocks: always empty. go-ethereum's optional
// file argument (write the list to a file on the node) is taken and
// ignored, as there is nothing to write.
func (a *debugAPI) GetBadBlocks(context.Context, *string) ([]struct{}, error) {
	return []struct{}{}, nil
}

// TraceBadBlock is debug_traceBadBlock: go-ethereum's error for a bad
// block it does not have.
func (a *debugAPI) TraceBadBlock(_ context.Context, h common.Hash, _ *traceConfig) ([]*txTraceResult, error) {
	return nil, badBlockNotFoundError(h)
}

// TraceBlock is debug_traceBlock: the trace of each transaction of the
// block whose RLP is blob, re-executed on its parent's state, which must
// be an accepted block's. The block need not be accepted itself.
func (a *debugAPI) TraceBlock(ctx context.Context, blob hexutil.Bytes, cfg *traceConfig) ([]*txTraceResult, error) {
	blk := new(types.Block)
	if err := rlp.DecodeBytes(blob, blk); err != nil {
		return nil, decodeTraceBlockError(err)
	}
	return a.vm.traceBlock(ctx, blk, -1, cfg)
}

// IntermediateRoots is debug_intermediateRoots: the state root after each
// transaction of the accepted block h, re-executed on its parent's state.
// The config is taken and ignored, as go-ethereum does.
func (a *debugAPI) IntermediateRoots(ctx context.Context, h common.Hash, _ *traceConfig) ([]common.Hash, error) {
	blk := a.vm.blockByHash(h)
	if blk == nil {
		return nil, intermediateBlockNotFoundError(h)
	}
	if blk.NumberU64() == 0 {
		return nil, errGenesisNotTraceable
	}
	e, err := a.vm.replay(ctx, blk, 0)
	if err != nil {
		return nil, err
	}
	roots := make([]common.Hash, 0, len(blk.Transactions()))
	for _, tx := range blk.Transactions() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := e.apply(tx); err != nil {
			return nil, replayError(blk.Hash(), tx.Hash(), err)
		}
		roots = append(roots, e.state.IntermediateRoot(e.rules))
	}
	return roots, nil
}
