package evm_test

import (
	"fmt"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/storage/storagetest"
	"github.com/cornice-node/cornice/vms/evm"
)

// TestReadsOneStateAcrossRevert checks that an answer made of several reads of the chain's
// database sees one state while a block is mined and rolled back 1,000 times on a dev chain
// (each cycle: a transfer mined at height 1, then anvil_reset, the roll-back of evm_revert to
// the genesis without a snapshot's call). Readers over HTTP
// ask for height 1's block receipts, the last transfer's receipt and height 1's block, and every
// answer must be whole: null, or a block at height 1 with its one transaction and one receipt
// naming it. Read key by key, a revert between two reads answers [] for the receipts of a block
// it has just found, or an error for a receipt whose block it has just read (chainread.go).
func TestReadsOneStateAcrossRevert(t *testing.T) {
	t.Parallel()
	n := startNodeWith(t, t.TempDir(), cChainGenesis(t), evm.Factory{Config: evm.Config{DevMethods: true}})
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	proto := signTx(t, n, key, 0, &to, big.NewInt(1), 21_000, nil)

	var last atomic.Pointer[common.Hash] // the last transfer mined, for the readers
	checkReceipt := func(r *types.Receipt, tx common.Hash) error {
		if r.BlockNumber == nil || r.BlockNumber.Uint64() != 1 || r.TxHash != tx || r.BlockHash == (common.Hash{}) {
			return fmt.Errorf("receipt of %s: block %v %s, tx %s", tx, r.BlockNumber, r.BlockHash, r.TxHash)
		}
		return nil
	}
	read := func() error {
		var rs []*types.Receipt
		if err := n.rpc.Call(&rs, "eth_getBlockReceipts", "0x1"); err != nil {
			return fmt.Errorf("eth_getBlockReceipts: %w", err)
		}
		if rs != nil {
			if len(rs) != 1 {
				return fmt.Errorf("eth_getBlockReceipts: %d receipts for a block of one transaction", len(rs))
			}
			if err := checkReceipt(rs[0], rs[0].TxHash); err != nil {
				return err
			}
		}
		if h := last.Load(); h != nil {
			var r *types.Receipt
			if err := n.rpc.Call(&r, "eth_getTransactionReceipt", *h); err != nil {
				return fmt.Errorf("eth_getTransactionReceipt: %w", err)
			}
			if r != nil {
				if err := checkReceipt(r, *h); err != nil {
					return err
				}
			}
		}
		var blk *struct {
			Number hexutil.Uint64 `json:"number"`
			Txs    []common.Hash  `json:"transactions"`
		}
		if err := n.rpc.Call(&blk, "eth_getBlockByNumber", "0x1", false); err != nil {
			return fmt.Errorf("eth_getBlockByNumber: %w", err)
		}
		if blk != nil && (blk.Number != 1 || len(blk.Txs) != 1) {
			return fmt.Errorf("eth_getBlockByNumber(1): block %d with %d transactions", blk.Number, len(blk.Txs))
		}
		return nil
	}
	// The cycles run to their count, or until a reader finds a torn answer.
	storagetest.ReadsWhole(t, 1000, func(i int) {
		tx := types.MustSignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
			ChainID: chainID, GasTipCap: proto.GasTipCap(), GasFeeCap: proto.GasFeeCap(),
			Gas: 21_000, To: &to, Value: big.NewInt(int64(i)),
		})
		r, err := n.client.SendTransactionSync(t.Context(), tx, nil)
		require.NoError(t, err)
		h := r.TxHash
		last.Store(&h)
		require.NoError(t, n.rpc.Call(nil, "anvil_reset"))
	}, read)
}
