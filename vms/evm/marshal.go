package evm

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
)

// The JSON shapes of go-ethereum's API (its internal/ethapi, which cannot
// be imported): the header and transaction fields come from go-ethereum's
// own JSON encoders, so names and hex encodings are exactly theirs, and the
// API adds the fields that depend on the block.

// marshalHeader is a header as eth_getHeaderBy* returns it, with
// Subnet-EVM's totalDifficulty: the genesis has difficulty 0 and every block
// 1, so it equals the number (l1-evm.md §1.6). ethclient ignores it; viem
// reads it when present. An L1's header also has Subnet-EVM's
// blockGasCost (l1-evm.md §1.6, §3.7): the accepted block's cost (gasCostOf),
// 0 from Granite on. A C-Chain header has coreth's fields (l1-evm.md §8):
// blockGasCost 0 (the post-Granite rule), and from its atomic txs'
// batch (atomicExtData) extDataGasUsed, their gas, and extDataHash, the
// Keccak-256 of the batch's RLP (that of no bytes without atomic txs).
func (vm *VM) marshalHeader(h *types.Header) (map[string]any, error) {
	enc, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(enc, &m); err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	m["totalDifficulty"] = (*hexutil.Big)(new(big.Int).Set(h.Number))
	if vm.l1 == nil {
		extData, gas, err := vm.atomicExtData(h)
		if err != nil {
			return nil, err
		}
		m["blockGasCost"] = hexutil.Uint64(0)
		m["extDataGasUsed"] = hexutil.Uint64(gas)
		m["extDataHash"] = emptyExtDataHash
		if extData != nil {
			enc, _ := rlp.EncodeToBytes(extData) // a byte string always encodes
			m["extDataHash"] = crypto.Keccak256Hash(enc)
		}
		return m, nil
	}
	// The genesis has it only when Etna is active at its time (§4.1).
	cost, err := vm.gasCostOf(h, h.Hash())
	if err != nil {
		return nil, err
	}
	if cost != nil {
		m["blockGasCost"] = hexutil.Uint64(*cost)
	}
	return m, nil
}

// emptyExtDataHash is coreth's extDataHash of a block without atomic
// transactions: the Keccak-256 of the RLP of no bytes.
var emptyExtDataHash = crypto.Keccak256Hash([]byte{0x80})

// marshalBlock is a block as eth_getBlockBy* returns it: transaction hashes,
// or full transactions when fullTx.
func (vm *VM) marshalBlock(blk *types.Block, fullTx bool) (map[string]any, error) {
	m, err := vm.marshalHeader(blk.Header())
	if err != nil {
		return nil, err
	}
	m["size"] = hexutil.Uint64(blk.Size())
	txs := make([]any, len(blk.Transactions()))
	for i, tx := range blk.Transactions() {
		if !fullTx {
			txs[i] = tx.Hash()
			continue
		}
		if txs[i], err = vm.marshalTx(tx, blk, uint64(i)); err != nil {
			return nil, err
		}
	}
	m["transactions"] = txs
	m["uncles"] = []common.Hash{}
	if vm.l1 == nil {
		extData, _, err := vm.atomicExtData(blk.Header())
		if err != nil {
			return nil, err
		}
		m["blockExtraData"] = hexutil.Bytes(extData)
		if extData == nil {
			m["blockExtraData"] = hexutil.Bytes{}
		}
	}
	if blk.Header().WithdrawalsHash != nil {
		m["withdrawals"] = blk.Withdrawals()
		if blk.Withdrawals() == nil {
			m["withdrawals"] = types.Withdrawals{}
		}
	}
	return m, nil
}

// marshalTx is a transaction as eth_getTransactionBy* returns it; blk is
// nil for a pooled one.
func (vm *VM) marshalTx(tx *types.Transaction, blk *types.Block, index uint64) (map[string]any, error) {
	enc, err := tx.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode transaction: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(enc, &m); err != nil {
		return nil, fmt.Errorf("encode transaction: %w", err)
	}
	from, _ := vm.senderOf(tx)
	m["from"] = from
	m["blockHash"], m["blockNumber"], m["transactionIndex"] = nil, nil, nil
	if blk != nil {
		m["blockHash"] = blk.Hash()
		m["blockNumber"] = (*hexutil.Big)(blk.Number())
		m["transactionIndex"] = hexutil.Uint64(index)
	}
	if tx.Type() != types.LegacyTxType && tx.Type() != types.AccessListTxType {
		// The effective price once in a block, the fee cap before.
		price := tx.GasFeeCap()
		if blk != nil && blk.BaseFee() != nil {
			price = effectiveGasPrice(tx, blk.BaseFee())
		}
		m["gasPrice"] = (*hexutil.Big)(price)
	}
	return m, nil
}

// effectiveGasPrice is min(feeCap, baseFee + tipCap).
func effectiveGasPrice(tx *types.Transaction, baseFee *big.Int) *big.Int {
	p := new(big.Int).Add(baseFee, tx.GasTipCap())
	if p.Cmp(tx.GasFeeCap()) > 0 {
		p.Set(tx.GasFeeCap())
	}
	return p
}

// marshalReceipt is a receipt as eth_getTransactionReceipt returns it; r
// has its derived fields (rawdb.ReadReceipts).
func (vm *VM) marshalReceipt(blk *types.Block, r *types.Receipt, index int) map[string]any {
	tx := blk.Transactions()[index]
	from, _ := vm.senderOf(tx)
	logs := r.Logs
	if logs == nil {
		logs = []*types.Log{}
	}
	m := map[string]any{
		"blockHash":         blk.Hash(),
		"blockNumber":       hexutil.Uint64(blk.NumberU64()),
		"transactionHash":   tx.Hash(),
		"transactionIndex":  hexutil.Uint64(index),
		"from":              from,
		"to":                tx.To(),
		"gasUsed":           hexutil.Uint64(r.GasUsed),
		"cumulativeGasUsed": hexutil.Uint64(r.CumulativeGasUsed),
		"contractAddress":   nil,
		"logs":              logs,
		"logsBloom":         r.Bloom,
		"type":              hexutil.Uint(tx.Type()),
		"effectiveGasPrice": (*hexutil.Big)(r.EffectiveGasPrice),
	}
	if len(r.PostState) > 0 {
		m["root"] = hexutil.Bytes(r.PostState)
	} else {
		m["status"] = hexutil.Uint(r.Status)
	}
	if r.ContractAddress != (common.Address{}) {
		m["contractAddress"] = r.ContractAddress
	}
	return m
}
