package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"
)

// The binary forms of go-ethereum's API: transactions in their canonical
// encoding (MarshalBinary, what eth_sendRawTransaction takes), headers and
// blocks in RLP, receipts in their consensus encoding.

// GetRawTransactionByHash is eth_getRawTransactionByHash: an accepted or a
// pooled transaction, null if neither.
func (a *ethAPI) GetRawTransactionByHash(_ context.Context, h common.Hash) (hexutil.Bytes, error) {
	return a.vm.rawTx(h)
}

// GetRawTransactionByBlockNumberAndIndex is
// eth_getRawTransactionByBlockNumberAndIndex: null for an unknown block or
// an index past its transactions.
func (a *ethAPI) GetRawTransactionByBlockNumberAndIndex(_ context.Context, n blockNumber, index hexutil.Uint) hexutil.Bytes {
	blk, _ := a.vm.blockByTag(rpc.BlockNumber(n))
	return rawTxAt(blk, index)
}

// GetRawTransactionByBlockHashAndIndex is
// eth_getRawTransactionByBlockHashAndIndex.
func (a *ethAPI) GetRawTransactionByBlockHashAndIndex(_ context.Context, h common.Hash, index hexutil.Uint) hexutil.Bytes {
	return rawTxAt(a.vm.blockByHash(h), index)
}

// rawTxAt encodes transaction index of blk, nil when there is none.
func rawTxAt(blk *types.Block, index hexutil.Uint) hexutil.Bytes {
	if blk == nil || int(index) >= len(blk.Transactions()) {
		return nil
	}
	b, _ := blk.Transactions()[index].MarshalBinary()
	return b
}

// rawTx encodes the accepted or pooled transaction h, nil if neither.
func (vm *VM) rawTx(h common.Hash) (hexutil.Bytes, error) {
	if tx, _, _ := vm.canonicalTx(h); tx != nil {
		return tx.MarshalBinary()
	}
	if ptx := vm.pool.get(h); ptx != nil {
		return ptx.tx.MarshalBinary()
	}
	return nil, nil
}

// GetRawTransaction is debug_getRawTransaction, eth_getRawTransactionByHash
// under the debug namespace.
func (a *debugAPI) GetRawTransaction(_ context.Context, h common.Hash) (hexutil.Bytes, error) {
	return a.vm.rawTx(h)
}

// rawBlock returns the block bnh names in c's state for the debug_getRaw* methods, as
// go-ethereum finds it: by a number or tag, null (nil, nil) past the last accepted block; by
// hash, notFound's error for an unknown one.
func (c chainReader) rawBlock(bnh blockNumberOrHash, notFound func(common.Hash) error) (*types.Block, error) {
	if h, ok := bnh.Hash(); ok {
		blk := c.blockByHash(h)
		if blk == nil {
			return nil, notFound(h)
		}
		return blk, nil
	}
	n, _ := bnh.Number()
	return c.blockByTag(n)
}

// rawBlock is chainReader.rawBlock for an answer that reads nothing more of the block.
func (vm *VM) rawBlock(bnh blockNumberOrHash, notFound func(common.Hash) error) (*types.Block, error) {
	if n, ok := bnh.Number(); ok && isHeadTag(n) {
		return vm.currentHead(), nil
	}
	c, release := vm.pinChain()
	defer release()
	return c.rawBlock(bnh, notFound)
}

// GetRawHeader is debug_getRawHeader: the header's RLP.
func (a *debugAPI) GetRawHeader(_ context.Context, bnh blockNumberOrHash) (hexutil.Bytes, error) {
	blk, err := a.vm.rawBlock(bnh, rawHeaderNotFoundError)
	if blk == nil || err != nil {
		return nil, err
	}
	return rlp.EncodeToBytes(blk.Header())
}

// GetRawBlock is debug_getRawBlock: the block's RLP, the bytes the chain's
// containers hold.
func (a *debugAPI) GetRawBlock(_ context.Context, bnh blockNumberOrHash) (hexutil.Bytes, error) {
	blk, err := a.vm.rawBlock(bnh, rawBlockNotFoundError)
	if blk == nil || err != nil {
		return nil, err
	}
	return rlp.EncodeToBytes(blk)
}

// GetRawReceipts is debug_getRawReceipts: the consensus encoding of each
// receipt of the block; [] for an unknown hash, as go-ethereum.
func (a *debugAPI) GetRawReceipts(_ context.Context, bnh blockNumberOrHash) ([]hexutil.Bytes, error) {
	c, release := a.vm.pinChain()
	defer release()
	blk, err := c.rawBlock(bnh, func(common.Hash) error { return nil })
	if err != nil {
		return nil, err
	}
	if blk == nil {
		if _, ok := bnh.Hash(); ok {
			return []hexutil.Bytes{}, nil
		}
		return nil, nil
	}
	receipts := c.receipts(blk)
	out := make([]hexutil.Bytes, len(receipts))
	for i, r := range receipts {
		b, err := r.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}
