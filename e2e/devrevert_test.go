package e2e_test

import (
	"context"
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/wallet"
)

// A roll-back that drops more blocks than it sweeps in its own batch leaves their hash-keyed
// records behind for a sweep (docs/decisions.md, "Roll-back"). These tests check that every API
// agrees at once that the dropped blocks are gone, that blocks and transactions accepted again at
// the reverted heights (one of them the very block dropped) are served, and that the sweep, run
// to its end, leaves nothing of the dropped blocks in the database and nothing of the live ones
// out.

// logEmitter is the runtime code of a contract that emits one log without topics or data:
// PUSH1 0 PUSH1 0 LOG0 STOP.
var logEmitter = hexutil.Bytes{0x60, 0x00, 0x60, 0x00, 0xa0, 0x00}

var emitterAddr = common.HexToAddress("0x2000000000000000000000000000000000000002")

// revertScene is a chain prepared for a large revert: the blocks and transactions it drops.
type revertScene struct {
	key  *ecdsa.PrivateKey
	snap string
	// base is the snapshot's height; blocks are the hashes of the blocks after it, by height.
	base   uint64
	blocks map[uint64]common.Hash
	// txs are the signed transactions in the first dropped blocks, raw, one a block.
	txs [][]byte
	// times are the timestamps of the dropped blocks, by height.
	times map[uint64]uint64
}

// devEndpoint is what the tests need of a node: its C-Chain rpc client and its base URL.
type devEndpoint struct {
	rpc  *rpc.Client
	base string
	hc   *http.Client
}

// endpoint is d's C-Chain as a devEndpoint.
func (d *devNode) endpoint() devEndpoint { return devEndpoint{rpc: d.rpc, base: d.base, hc: d.hc} }

// startAndRevert starts a dev node in dir, makes drop blocks above a snapshot, three of them
// with a transaction (prepareRevert), reverts to the snapshot and checks they are gone.
func startAndRevert(t *testing.T, dir string, drop int) (*devNode, devEndpoint, *revertScene) {
	t.Helper()
	d := startDevNode(t, dir, func(*config.Config) {})
	e := d.endpoint()
	s := prepareRevert(t, e, 3, drop)
	var ok bool
	e.call(t, &ok, "evm_revert", s.snap)
	require.True(t, ok)
	requireGone(t, e, s, s.base, 0, s.base)
	return d, e, s
}

func (e devEndpoint) call(t testing.TB, result any, method string, args ...any) {
	t.Helper()
	e.callWithin(t, acceptWait, result, method, args...)
}

// callWithin is call with its own bound: mining thousands of blocks takes longer than one
// block's wait on a loaded machine.
func (e devEndpoint) callWithin(t testing.TB, d time.Duration, result any, method string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	require.NoError(t, e.rpc.CallContext(ctx, result, method, args...), method)
}

// index calls a method of the C-Chain's block index and returns its error message, "" on
// success.
func (e devEndpoint) index(t testing.TB, method string, params, result any) string {
	t.Helper()
	client, err := wallet.NewClient(e.base, e.hc)
	require.NoError(t, err)
	err = client.Call(t.Context(), "/ext/index/C/block", "index."+method, params, result)
	if err == nil {
		return ""
	}
	var jerr *jsonrpc.Error
	require.ErrorAs(t, err, &jerr, method)
	return jerr.Message
}

func (e devEndpoint) height(t testing.TB) uint64 {
	t.Helper()
	var n hexutil.Uint64
	e.call(t, &n, "eth_blockNumber")
	return uint64(n)
}

// sendSigned sends raw and returns the hash of the block that holds it (automine).
func (e devEndpoint) sendSigned(t testing.TB, raw []byte) common.Hash {
	t.Helper()
	var h common.Hash
	e.call(t, &h, "eth_sendRawTransaction", hexutil.Bytes(raw))
	var r *struct {
		BlockHash common.Hash `json:"blockHash"`
		Status    string      `json:"status"`
	}
	require.Eventually(t, func() bool {
		e.call(t, &r, "eth_getTransactionReceipt", h)
		return r != nil
	}, acceptWait, 10*time.Millisecond, "transaction %s not accepted", h)
	require.Equal(t, "0x1", r.Status)
	return r.BlockHash
}

// prepareRevert mines one block, takes a snapshot, then sends signed transactions to a log
// emitter, one a block, and mines empty blocks up to drop blocks after the snapshot.
func prepareRevert(t *testing.T, e devEndpoint, sends, drop int) *revertScene {
	t.Helper()
	k := localKey(t)
	key, err := crypto.HexToECDSA(k.Hex()[2:])
	require.NoError(t, err)
	var null any
	e.call(t, &null, "anvil_setCode", emitterAddr, logEmitter)
	e.call(t, &null, "evm_mine")
	s := &revertScene{key: key, base: e.height(t), blocks: map[uint64]common.Hash{}, times: map[uint64]uint64{}}
	e.call(t, &s.snap, "evm_snapshot")
	var nonce hexutil.Uint64
	e.call(t, &nonce, "eth_getTransactionCount", k.EthAddress(), "latest")
	var price hexutil.Big
	e.call(t, &price, "eth_gasPrice")
	signer := types.LatestSignerForChainID(big.NewInt(43112))
	for i := range sends {
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: big.NewInt(43112), Nonce: uint64(nonce) + uint64(i), GasTipCap: big.NewInt(0),
			GasFeeCap: new(big.Int).Mul(price.ToInt(), big.NewInt(4)), Gas: 100_000, To: &emitterAddr,
		})
		require.NoError(t, err)
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		s.txs = append(s.txs, raw)
		e.sendSigned(t, raw)
	}
	e.callWithin(t, 5*time.Minute, &null, "anvil_mine", hexutil.Uint64(drop-sends))
	require.Equal(t, s.base+uint64(drop), e.height(t))
	for n := s.base + 1; n <= s.base+uint64(drop); n++ {
		var h struct {
			Hash common.Hash    `json:"hash"`
			Time hexutil.Uint64 `json:"timestamp"`
		}
		e.call(t, &h, "eth_getBlockByNumber", hexutil.Uint64(n), false)
		s.blocks[n], s.times[n] = h.Hash, uint64(h.Time)
	}
	return s
}

// txHash is the hash of the raw transaction raw.
func txHash(t testing.TB, raw []byte) common.Hash {
	t.Helper()
	var tx types.Transaction
	require.NoError(t, tx.UnmarshalBinary(raw))
	return tx.Hash()
}

// requireGone checks that every API answers for the blocks of s above height live, and the
// transactions of s from the first one not accepted again, as for blocks and transactions it
// never had, while the chain's head is head.
func requireGone(t *testing.T, e devEndpoint, s *revertScene, live uint64, resent int, head uint64) {
	t.Helper()
	require.Equal(t, head, e.height(t))
	top := s.base + uint64(len(s.blocks))
	for n := live + 1; n <= top; n++ {
		if n > live+10 && n%97 != 0 && n != top {
			continue // the first ten, the last, and a sample between: a long chain costs seconds a round
		}
		hash := s.blocks[n]
		var blk map[string]any
		e.call(t, &blk, "eth_getBlockByHash", hash, false)
		require.Nil(t, blk, "block %d", n)
		var count *hexutil.Uint
		e.call(t, &count, "eth_getBlockTransactionCountByHash", hash)
		require.Nil(t, count)
		if n > head {
			e.call(t, &blk, "eth_getBlockByNumber", hexutil.Uint64(n), false)
			require.Nil(t, blk, "block %d", n)
		}
		var c index.Container
		require.Equal(t, "not found", e.index(t, "getContainerByID", map[string]any{"id": ids.ID(hash), "encoding": "hex"}, &c))
		require.Equal(t, "not found", e.index(t, "getIndex", map[string]any{"id": ids.ID(hash)}, &c))
		var acc struct {
			IsAccepted bool `json:"isAccepted"`
		}
		require.Empty(t, e.index(t, "isAccepted", map[string]any{"id": ids.ID(hash)}, &acc))
		require.False(t, acc.IsAccepted, "block %d", n)
		var logs []types.Log
		err := e.rpc.CallContext(t.Context(), &logs, "eth_getLogs", map[string]any{"blockHash": hash})
		require.EqualError(t, err, "unknown block")
	}
	for _, raw := range s.txs[resent:] {
		h := txHash(t, raw)
		var tx, receipt, traced map[string]any
		e.call(t, &tx, "eth_getTransactionByHash", h)
		require.Nil(t, tx)
		e.call(t, &receipt, "eth_getTransactionReceipt", h)
		require.Nil(t, receipt)
		var b string
		e.call(t, &b, "eth_getRawTransactionByHash", h)
		require.Equal(t, "0x", b, "as for a transaction never seen")
		err := e.rpc.CallContext(t.Context(), &traced, "debug_traceTransaction", h)
		require.Error(t, err)
	}
	// The index ends at the head: the snapshot's block is index base-1 (genesis is not indexed).
	var last struct {
		ID    ids.ID `json:"id"`
		Index string `json:"index"`
	}
	require.Empty(t, e.index(t, "getLastAccepted", map[string]any{"encoding": "hex"}, &last))
	var headBlock struct {
		Hash common.Hash `json:"hash"`
	}
	e.call(t, &headBlock, "eth_getBlockByNumber", "latest", false)
	require.Equal(t, ids.ID(headBlock.Hash), last.ID)
	require.Equal(t, uint64String(head-1), last.Index)
	var c index.Container
	require.Equal(t, "no container at index "+uint64String(head), e.index(t, "getContainerByIndex", map[string]any{"index": head, "encoding": "hex"}, &c))
}

func uint64String(n uint64) string { return new(big.Int).SetUint64(n).String() }

// reaccept sends the first dropped transaction again in a block at the dropped block's time (the
// very block dropped comes back) and the second one a while later (a new block at the next
// height), then mines empty blocks; it returns the new head.
func reaccept(t *testing.T, e devEndpoint, s *revertScene) uint64 {
	t.Helper()
	var null any
	first := s.base + 1
	e.call(t, &null, "evm_setNextBlockTimestamp", hexutil.Uint64(s.times[first]))
	require.Equal(t, s.blocks[first], e.sendSigned(t, s.txs[0]), "the same block, accepted again")
	var offset any
	e.call(t, &offset, "evm_increaseTime", 1000)
	require.NotEqual(t, s.blocks[first+1], e.sendSigned(t, s.txs[1]))
	e.call(t, &null, "anvil_mine", 3)
	return first + 4
}

// requireBack checks the blocks and transactions reaccept brought back.
func requireBack(t *testing.T, e devEndpoint, s *revertScene) {
	t.Helper()
	first := s.base + 1
	var blk struct {
		Number hexutil.Uint64 `json:"number"`
	}
	e.call(t, &blk, "eth_getBlockByHash", s.blocks[first], false)
	require.Equal(t, first, uint64(blk.Number))
	var idx struct {
		Index string `json:"index"`
	}
	require.Empty(t, e.index(t, "getIndex", map[string]any{"id": ids.ID(s.blocks[first])}, &idx))
	require.Equal(t, uint64String(first-1), idx.Index)
	var logs []struct {
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
		TxHash      common.Hash    `json:"transactionHash"`
	}
	e.call(t, &logs, "eth_getLogs", map[string]any{"fromBlock": "0x0", "toBlock": "latest", "address": emitterAddr})
	require.Len(t, logs, 2, "the logs of the two transactions accepted again, and no other")
	for i, l := range logs {
		require.Equal(t, txHash(t, s.txs[i]), l.TxHash)
		require.Equal(t, first+uint64(i), uint64(l.BlockNumber))
		var tx struct {
			BlockNumber hexutil.Uint64 `json:"blockNumber"`
		}
		e.call(t, &tx, "eth_getTransactionByHash", l.TxHash)
		require.Equal(t, first+uint64(i), uint64(tx.BlockNumber))
	}
}

// TestDevRevertManyBlocks: a revert of 100 blocks, then blocks accepted again at the reverted
// heights; every API agrees at each step, the sweep removes every leftover, and a restart keeps
// it all.
func TestDevRevertManyBlocks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d, e, s := startAndRevert(t, dir, 100)

	head := reaccept(t, e, s)
	requireBack(t, e, s)
	requireGone(t, e, s, s.base+2, 2, head)
	// Each mining call runs a sweep step first: after this one, 100 blocks are swept.
	var null any
	e.call(t, &null, "evm_mine")
	head++
	chainID := e.cChainID(t)
	d.stop()
	requireSwept(t, dir, chainID, s, 2)

	d = startDevNode(t, dir, func(*config.Config) {})
	e = d.endpoint()
	requireBack(t, e, s)
	requireGone(t, e, s, s.base+2, 2, head)
}

// TestDevRevertFewBlocks reverts 3 blocks, each with a transaction, the head among them: a
// roll-back of a few blocks removes them in its own batch (the head from memory, the others read
// by height), so once the node has stopped nothing of them is left, with no record for the sweep.
func TestDevRevertFewBlocks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d, e, s := startAndRevert(t, dir, 3)
	chainID := e.cChainID(t)
	d.stop()
	requireSwept(t, dir, chainID, s, 0)
}

// requireSwept opens the stopped node's database and checks that nothing of the dropped blocks
// of s is left but what the first resent blocks brought back (the first block, when resent > 0): no record of heights to sweep, no
// body, hash entry or index entry of a dropped block, no lookup of a dropped transaction.
func requireSwept(t *testing.T, dir string, chainID ids.ID, s *revertScene, resent int) {
	t.Helper()
	db, err := storage.Open(filepath.Join(dir, "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	defer db.Close()
	evm := db.Prefixed(storage.PrefixEVM).Prefixed(chainID[:])
	has := func(v *storage.View, key []byte) bool {
		ok, err := v.Has(key)
		require.NoError(t, err)
		return ok
	}
	require.False(t, has(evm, []byte("cornice-dropped-heights")), "the sweep is done")
	blockIndex := db.Prefixed(storage.PrefixIndex).Prefixed(append(append([]byte{0x00}, chainID[:]...), byte(index.Block)))
	for n, h := range s.blocks {
		back := resent > 0 && n == s.base+1 // the block accepted again
		body := append(append([]byte("b"), new(big.Int).SetUint64(n).FillBytes(make([]byte, 8))...), h[:]...)
		require.Equal(t, back, has(evm, body), "body of block %d", n)
		require.Equal(t, back, has(evm, append([]byte("H"), h[:]...)), "hash entry of block %d", n)
		require.Equal(t, back, has(blockIndex, append([]byte{0x02}, h[:]...)), "index entry of block %d", n)
	}
	for i, raw := range s.txs {
		h := txHash(t, raw)
		require.Equal(t, i < resent, has(evm, append([]byte("l"), h[:]...)), "lookup of transaction %d", i)
	}
}

// cChainID asks the node for its C-Chain's ID.
func (e devEndpoint) cChainID(t testing.TB) ids.ID {
	t.Helper()
	client, err := wallet.NewClient(e.base, e.hc)
	require.NoError(t, err)
	var out struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	require.NoError(t, client.Call(t.Context(), "/ext/info", "info.getBlockchainID", map[string]string{"alias": "C"}, &out))
	return out.BlockchainID
}

// TestDevRevertKill: the node is killed with SIGKILL right after a revert of 2,500 blocks is on
// disk, while the sweep has just begun; after the restart every API agrees that the dropped blocks are gone,
// blocks accepted again at the reverted heights are served, and the sweep, resumed from its
// record, runs to its end.
func TestDevRevertKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := startL1KillChild(t, dir)
	e := dialChild(t, c)
	s := prepareRevert(t, e, 3, 2500)
	var ok bool
	e.call(t, &ok, "evm_revert", s.snap)
	require.True(t, ok)
	// The revert was answered before its sync (TestDevRevertUnsyncedKill kills it there). This
	// call runs on the engine goroutine after the sweep's first chunk, whose synced commit made
	// the revert durable; the sweep's other chunks are left for after the restart.
	var snap string
	e.call(t, &snap, "evm_snapshot")
	c.kill()

	c = startL1KillChild(t, dir)
	e = dialChild(t, c)
	requireGone(t, e, s, s.base, 0, s.base)
	head := reaccept(t, e, s)
	requireBack(t, e, s)
	requireGone(t, e, s, s.base+2, 2, head)
	// Each mining call runs a sweep step of about 1,024 blocks first.
	var null any
	for range 3 {
		e.call(t, &null, "evm_mine")
	}
	chainID := e.cChainID(t)
	c.stop(t)
	requireSwept(t, dir, chainID, s, 2)
}

// dialChild dials the C-Chain of a node process.
func dialChild(t *testing.T, c *l1KillChild) devEndpoint {
	t.Helper()
	r, err := rpc.DialOptions(t.Context(), c.base+"/ext/bc/C/rpc", rpc.WithHTTPClient(c.hc))
	require.NoError(t, err)
	t.Cleanup(r.Close)
	return devEndpoint{rpc: r, base: c.base, hc: c.hc}
}

// TestDevRevertUnsyncedKill: a roll-back is answered once its batch is applied, before its sync,
// which follows within chains.RewindSyncDelay (docs/decisions.md, "A roll-back answers before its
// sync"). The node is killed with SIGKILL right after a revert is answered, of three blocks (the
// roll-back removes them in its own batch) and of a hundred (range deletions and a sweep): after
// each restart the chain is the one before the revert or the one after it, whole, its head,
// index, state and receipts agreeing. Then a revert is killed once the bound has passed: after
// the restart the revert holds.
func TestDevRevertUnsyncedKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := startL1KillChild(t, dir)
	for _, drop := range []int{3, 100} {
		e := dialChild(t, c)
		s := prepareRevert(t, e, 3, drop)
		before := nonceAt(t, e, hexutil.Uint64(s.base))
		var ok bool
		e.call(t, &ok, "evm_revert", s.snap)
		require.True(t, ok)
		c.kill()

		c = startL1KillChild(t, dir)
		e = dialChild(t, c)
		switch head := e.height(t); head {
		case s.base:
			t.Logf("revert of %d blocks killed right after its answer: it held", drop)
			requireGone(t, e, s, s.base, 0, s.base)
			require.Equal(t, before, nonceAt(t, e, "latest"), "the state is the snapshot's")
		case s.base + uint64(drop):
			t.Logf("revert of %d blocks killed right after its answer: it was lost, whole", drop)
			requireWhole(t, e, head, s.base)
			require.Equal(t, before+uint64(len(s.txs)), nonceAt(t, e, "latest"), "the state is the dropped head's")
			for i, raw := range s.txs {
				var r *struct {
					BlockHash common.Hash `json:"blockHash"`
				}
				e.call(t, &r, "eth_getTransactionReceipt", txHash(t, raw))
				require.NotNil(t, r, "receipt of transaction %d", i)
				require.Equal(t, s.blocks[s.base+1+uint64(i)], r.BlockHash)
			}
		default:
			require.Failf(t, "a mixed chain", "head %d after a revert from %d to %d", head, s.base+uint64(drop), s.base)
		}
	}

	e := dialChild(t, c)
	s := prepareRevert(t, e, 3, 3)
	before := nonceAt(t, e, hexutil.Uint64(s.base))
	var ok bool
	e.call(t, &ok, "evm_revert", s.snap)
	require.True(t, ok)
	// Past the bound, with room for a loaded machine: the background sync is a timer and an
	// fsync, and either can wait a tenth of a second behind the other processes on two cores.
	time.Sleep(200 * chains.RewindSyncDelay)
	c.kill()

	c = startL1KillChild(t, dir)
	e = dialChild(t, c)
	requireGone(t, e, s, s.base, 0, s.base)
	require.Equal(t, before, nonceAt(t, e, "latest"))
	var null any
	e.call(t, &null, "evm_mine")
	requireWhole(t, e, s.base+1, s.base)
	c.stop(t)
}

// nonceAt is the local key's nonce at block (a height or a tag).
func nonceAt(t *testing.T, e devEndpoint, block any) uint64 {
	t.Helper()
	var n hexutil.Uint64
	e.call(t, &n, "eth_getTransactionCount", localKey(t).EthAddress(), block)
	return uint64(n)
}
