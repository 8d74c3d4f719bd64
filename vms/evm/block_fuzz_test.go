package evm

import (
	"bytes"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/trie"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// FuzzDecodeBlock: decoding block bytes never panics, and a decoded block
// encodes back to the same bytes.
func FuzzDecodeBlock(f *testing.F) {
	g, err := ParseGenesis([]byte(`{"config":{"chainId":43112},"gasLimit":"0x5f5e100","difficulty":"0x0","alloc":{}}`), l1params.DefaultFeeConfig())
	if err != nil {
		f.Fatal(err)
	}
	enc, err := rlp.EncodeToBytes(g.ToBlock())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	zero := uint64(0)
	h := &types.Header{Number: common.Big1, Difficulty: common.Big1, BaseFee: common.Big3, BlobGasUsed: &zero, ExcessBlobGas: &zero, ParentBeaconRoot: &common.Hash{}}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: common.Big1, Gas: 21000, GasFeeCap: common.Big2, To: &common.Address{}})
	blk := types.NewBlock(h, &types.Body{Transactions: []*types.Transaction{tx}, Withdrawals: []*types.Withdrawal{}}, nil, trie.NewStackTrie(nil))
	if enc, err = rlp.EncodeToBytes(blk); err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, extData, err := decodeBlock(b)
		if err != nil {
			return
		}
		var v any = blk
		if extData != nil {
			v = &atomicBlock{Block: blk, ExtData: extData}
		}
		out, err := rlp.EncodeToBytes(v)
		if err != nil {
			t.Fatalf("encode decoded block: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("round trip: %x != %x", out, b)
		}
	})
}
