package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// The uncle methods of go-ethereum's API. Blocks of these chains have no
// uncles (their uncle hash is the empty list's, and Verify refuses any
// other), so a known block has 0 and every index is null, as go-ethereum
// answers for a block without uncles; an unknown block is null.

// GetUncleCountByBlockNumber is eth_getUncleCountByBlockNumber.
func (a *ethAPI) GetUncleCountByBlockNumber(_ context.Context, n blockNumber) (*hexutil.Uint, error) {
	blk, err := a.vm.blockByTag(rpc.BlockNumber(n))
	if blk == nil || err != nil {
		return nil, err
	}
	c := hexutil.Uint(len(blk.Uncles()))
	return &c, nil
}

// GetUncleCountByBlockHash is eth_getUncleCountByBlockHash.
func (a *ethAPI) GetUncleCountByBlockHash(_ context.Context, h common.Hash) (*hexutil.Uint, error) {
	blk := a.vm.blockByHash(h)
	if blk == nil {
		return nil, nil
	}
	c := hexutil.Uint(len(blk.Uncles()))
	return &c, nil
}

// GetUncleByBlockNumberAndIndex is eth_getUncleByBlockNumberAndIndex:
// always null (no block has uncles).
func (a *ethAPI) GetUncleByBlockNumberAndIndex(_ context.Context, n blockNumber, _ hexutil.Uint) (map[string]any, error) {
	_, err := a.vm.blockByTag(rpc.BlockNumber(n))
	return nil, err
}

// GetUncleByBlockHashAndIndex is eth_getUncleByBlockHashAndIndex: always
// null.
func (a *ethAPI) GetUncleByBlockHashAndIndex(context.Context, common.Hash, hexutil.Uint) (map[string]any, error) {
	return nil, nil
}
