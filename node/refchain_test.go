package node_test

import (
	"context"
	"testing"
	"time"

	refids "github.com/ava-labs/avalanchego/ids"
	refrpc "github.com/ava-labs/avalanchego/utils/rpc"
	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// refChain is what the reference's P-Chain and X-Chain clients share (platformvm.Client and
// avm.Client, avalanchego v1.14.2): the calls the harness of pclient_test.go and
// xclient_test.go makes the same way on both chains.
type refChain interface {
	GetUTXOs(ctx context.Context, addrs []refids.ShortID, limit uint32, startAddress refids.ShortID, startUTXOID refids.ID, options ...refrpc.Option) ([][]byte, refids.ShortID, refids.ID, error)
	IssueTx(ctx context.Context, txBytes []byte, options ...refrpc.Option) (refids.ID, error)
	GetBlock(ctx context.Context, blkID refids.ID, options ...refrpc.Option) ([]byte, error)
	GetBlockByHeight(ctx context.Context, height uint64, options ...refrpc.Option) ([]byte, error)
}

// refUTXOs returns the UTXOs addr owns, read with c and parsed by cornice's parse.
func refUTXOs[U any](t *testing.T, c refChain, addr ids.ShortID, parse func([]byte) (U, error)) []U {
	t.Helper()
	raw, _, _, err := c.GetUTXOs(t.Context(), []refids.ShortID{refids.ShortID(addr)}, 0, refids.ShortEmpty, refids.Empty)
	require.NoError(t, err)
	out := make([]U, len(raw))
	for i, b := range raw {
		out[i], err = parse(b)
		require.NoError(t, err)
	}
	return out
}

// refIssue issues the tx with ID id and bytes b with c's IssueTx, which must answer id, and
// waits until done (the chain's GetTxStatus) says the tx is decided.
func refIssue(t *testing.T, c refChain, id ids.ID, b []byte, done func(refids.ID) bool) {
	t.Helper()
	got, err := c.IssueTx(t.Context(), b)
	require.NoError(t, err)
	require.Equal(t, id, ids.ID(got))
	require.Eventually(t, func() bool { return done(got) }, 20*time.Second, 5*time.Millisecond, "tx %s", got)
}

// blockView is what both parsers must read alike from a block's bytes.
type blockView struct {
	id     ids.ID
	height uint64
	txIDs  []ids.ID
}

// viewOf is the view of a block with ID id at height h holding txs; it takes cornice's IDs and
// the reference's alike.
func viewOf[I ~[32]byte, TX interface{ ID() I }](id I, h uint64, txs []TX) blockView {
	v := blockView{id: ids.ID(id), height: h}
	for _, tx := range txs {
		v.txIDs = append(v.txIDs, ids.ID(tx.ID()))
	}
	return v
}

// refBlock reads the block at height h with c's GetBlockByHeight and returns it as cornice's
// parser (ours) and the reference's (theirs) read it, after checking that both read the same
// block at that height (ourView, theirView) and that GetBlock by its ID answers the same bytes.
func refBlock[B, R any](t *testing.T, c refChain, h uint64, ours func([]byte) (B, error), theirs func([]byte) (R, error),
	ourView func(B) blockView, theirView func(R) blockView,
) (B, R) {
	t.Helper()
	b, err := c.GetBlockByHeight(t.Context(), h)
	require.NoError(t, err)
	our, err := ours(b)
	require.NoError(t, err)
	their, err := theirs(b)
	require.NoError(t, err)
	v := ourView(our)
	require.Equal(t, h, v.height)
	require.Equal(t, v, theirView(their))
	byID, err := c.GetBlock(t.Context(), refids.ID(v.id))
	require.NoError(t, err)
	require.Equal(t, b, byID)
	return our, their
}

// signTx signs the unsigned bytes of a tx with one credential per key (§3.2) and builds the
// signed tx with the chain's newTx.
func signTx[U, T any](t *testing.T, unsigned U, bytesOf func(U) ([]byte, error), newTx func(U, []secp256k1fx.Credential) (T, error), keys ...*secp.PrivateKey) T {
	t.Helper()
	b, err := bytesOf(unsigned)
	require.NoError(t, err)
	tx, err := newTx(unsigned, credentials(b, keys...))
	require.NoError(t, err)
	return tx
}
