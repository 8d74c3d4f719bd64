package evm_test

import (
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm"
)

// pushes records what a VM pushes to its peers.
type pushes struct {
	mu  sync.Mutex
	txs [][]byte
}

func (p *pushes) push(tx []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.txs = append(p.txs, tx)
}

func (p *pushes) all() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]byte(nil), p.txs...)
}

// gossipVM returns node n's C-Chain VM, pushing into a fresh recorder.
func gossipVM(t *testing.T, n *node) (*evm.VM, *pushes) {
	t.Helper()
	v, ok := n.m.VM(cChainID)
	require.True(t, ok)
	vm := v.(*evm.VM)
	p := &pushes{}
	vm.SetTxGossip(p.push)
	return vm, p
}

// A transaction eth_sendRawTransaction takes in is pushed, in its binary form; the peer that is
// pushed it pools it, executes it, and does not push it on; one it knows already, or bytes that
// are no valid transaction, are skipped.
func TestTxGossip(t *testing.T) {
	t.Parallel()
	a, b := startNode(t, t.TempDir()), startNode(t, t.TempDir())
	_, aPushed := gossipVM(t, a)
	bVM, bPushed := gossipVM(t, b)
	key := fundedKey(t)
	to := common.HexToAddress("0x00000000000000000000000000000000000000ee")

	tx := signTx(t, a, key, 0, &to, big.NewInt(5), 21_000, nil)
	require.NoError(t, a.client.SendTransaction(t.Context(), tx))
	raw, err := tx.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, [][]byte{raw}, aPushed.all())

	require.Equal(t, 1, bVM.GossipTxs([][]byte{raw}))
	require.Eventually(t, func() bool {
		r, err := b.client.TransactionReceipt(t.Context(), tx.Hash())
		return err == nil && r.Status == 1
	}, time.Minute, 5*time.Millisecond, "the gossiped transaction is executed by its peer")
	require.Zero(t, bVM.GossipTxs([][]byte{raw, {0x02, 0xff}, nil}), "known or invalid: skipped")
	require.Empty(t, bPushed.all(), "gossip received is never pushed on")
}
