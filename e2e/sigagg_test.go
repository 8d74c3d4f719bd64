package e2e_test

import (
	"context"
	"encoding/hex"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	refids "github.com/ava-labs/avalanchego/ids"
	refbls "github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/internal/reftest"
	"github.com/cornice-node/cornice/localnet"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// Signatures across nodes (issue #15 §1, network-consensus-warp.md §4.3): on five validators
// started with `cornice network start`, one node's POST /ext/aggregate-signatures gathers the
// C-Chain's signatures of an accepted block's hash from its peers over ACP-118 AppRequests; the
// signed message carries at least four of the five and verifies against the P-Chain's validator
// set at 67 %. With one node down it still does (the other four); with two down, 60 % of the
// weight can sign and it fails with the reference aggregator's text. The reference's own test
// peer gets the same signature from another node.
func TestNetworkAggregateSignatures(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw := startNetwork(t, 5)
	tx := nw.sendCTransfer(t, 0, 0)
	nw.requireCReceiptEverywhere(t, tx)
	eth, err := ethclient.DialContext(t.Context(), nw.nodes[0].URI()+"/ext/bc/C/rpc")
	require.NoError(t, err)
	defer eth.Close()
	receipt, err := eth.TransactionReceipt(t.Context(), tx)
	require.NoError(t, err)

	cChain := nw.blockchainID(t, "C")
	msg := warp.NewUnsignedMessage(12345, cChain, (&payload.Hash{Hash: ids.ID(receipt.BlockHash)}).Bytes())
	set := nw.primarySet(t)

	// signers aggregates at node 0 and returns how many validators signed; the message verifies.
	signers := func() int {
		t.Helper()
		code, signed := aggregateAt(t, http.DefaultClient, nw.nodes[0].URI(), msg, nil, ids.Empty, 0)
		require.Equal(t, http.StatusOK, code, string(signed))
		m, err := warp.ParseMessage(signed)
		require.NoError(t, err)
		require.Equal(t, msg.Bytes(), m.UnsignedMessage.Bytes())
		require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, 12345, set, 67, 100))
		var n int
		for _, b := range m.Signature.Signers {
			for ; b != 0; b &= b - 1 {
				n++
			}
		}
		return n
	}
	require.GreaterOrEqual(t, signers(), 4)

	// The reference's test peer asks node 2 for its signature: the same bytes the set verifies.
	refSignature(t, nw.nodes[2], refids.ID(cChain), msg, set)

	require.NoError(t, localnet.Kill(nw.dir, "node5"))
	require.Eventually(t, func() bool {
		code, _ := aggregateAt(t, http.DefaultClient, nw.nodes[0].URI(), msg, nil, ids.Empty, 0)
		return code == http.StatusOK
	}, networkWait, 50*time.Millisecond)
	require.Equal(t, 4, signers(), "the four validators up")

	require.NoError(t, localnet.Kill(nw.dir, "node4"))
	require.Eventually(t, func() bool {
		code, body := aggregateAt(t, http.DefaultClient, nw.nodes[0].URI(), msg, nil, ids.Empty, 0)
		return code == http.StatusInternalServerError &&
			strings.HasPrefix(string(body), `{"error":"failed to aggregate signatures. error: failed to collect a threshold of signatures: signature weight is insufficient`)
	}, networkWait, 50*time.Millisecond, "three of five validators are 60 %")
}

// blockchainID returns the ID of the chain alias names, as node 0 knows it.
func (nw *localNetwork) blockchainID(t testing.TB, alias string) ids.ID {
	t.Helper()
	var chain struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/info", "info.getBlockchainID", map[string]string{"alias": alias}, &chain))
	return chain.BlockchainID
}

// primarySet returns the Primary Network's canonical warp set as node 0's P-Chain has it now.
func (nw *localNetwork) primarySet(t testing.TB) warp.CanonicalSet {
	t.Helper()
	return nw.subnetSet(t, ids.Empty, 5)
}

// subnetSet returns subnetID's canonical warp set as node 0's P-Chain has it now, checking it
// has n validators.
func (nw *localNetwork) subnetSet(t testing.TB, subnetID ids.ID, n int) warp.CanonicalSet {
	t.Helper()
	var height struct {
		Height uint64 `json:"height,string"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/bc/P", "platform.getHeight", struct{}{}, &height))
	var at map[ids.NodeID]struct {
		PublicKey *string `json:"publicKey"`
		Weight    uint64  `json:"weight,string"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/bc/P", "platform.getValidatorsAt",
		map[string]any{"subnetID": subnetID, "height": strconv.FormatUint(height.Height, 10)}, &at))
	require.Len(t, at, n)
	var vs []warp.Validator
	for nodeID, v := range at {
		require.NotNil(t, v.PublicKey)
		b, err := hex.DecodeString(strings.TrimPrefix(*v.PublicKey, "0x"))
		require.NoError(t, err)
		pk := [bls.PublicKeyLen]byte(b)
		vs = append(vs, warp.Validator{NodeID: nodeID, Weight: v.Weight, PublicKey: &pk})
	}
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)
	return set
}

// refSignature connects the reference's test peer to n, asks its chainID for the signature of
// msg over an ACP-118 AppRequest, and checks it against n's key in set.
func refSignature(t *testing.T, n localnet.Node, chainID refids.ID, msg *warp.UnsignedMessage, set warp.CanonicalSet) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), networkWait)
	defer cancel()
	a := reftest.Dial(t, ctx, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(n.StakingPort)), 12345)
	defer a.Close()
	// The node marks the peer connected just after the handshake: ask until it answers.
	sig := a.Signature(chainID, msg.Bytes(), nil, time.Second)
	var verified bool
	for _, v := range set.Validators {
		pk, err := refbls.PublicKeyFromCompressedBytes(v.PublicKey.Compress())
		require.NoError(t, err)
		verified = verified || refbls.Verify(pk, sig, msg.Bytes())
	}
	require.True(t, verified, "a validator's signature")
}

// BenchmarkNetworkAggregateSignatures measures POST /ext/aggregate-signatures on node 1 of five
// validators started with `cornice network start` on loopback: the C-Chain's signature of a
// block hash gathered from the validators over ACP-118 AppRequests, each checked, aggregated and
// returned. quorum=67 stops at four signers, quorum=100 waits for all five. The loop repeats one
// message, which the peers answer from their signature caches; cold-ms is the median first
// aggregation of distinct block hashes (every peer's chain verifies and signs).
func BenchmarkNetworkAggregateSignatures(b *testing.B) {
	nw := startNetwork(b, 5)
	eth, err := ethclient.DialContext(b.Context(), nw.nodes[0].URI()+"/ext/bc/C/rpc")
	require.NoError(b, err)
	defer eth.Close()
	var hashes []ids.ID
	for i := range 8 {
		tx := nw.sendCTransfer(b, 0, uint64(i))
		nw.requireCReceiptEverywhere(b, tx)
		r, err := eth.TransactionReceipt(b.Context(), tx)
		require.NoError(b, err)
		hashes = append(hashes, ids.ID(r.BlockHash))
	}
	cChain := nw.blockchainID(b, "C")
	message := func(h ids.ID) *warp.UnsignedMessage {
		return warp.NewUnsignedMessage(12345, cChain, (&payload.Hash{Hash: h}).Bytes())
	}
	aggregate := func(msg *warp.UnsignedMessage, quorum uint64) {
		code, body := aggregateAt(b, http.DefaultClient, nw.nodes[0].URI(), msg, nil, ids.Empty, quorum)
		require.Equal(b, http.StatusOK, code, string(body))
	}
	for _, quorum := range []uint64{67, 100} {
		b.Run("quorum="+strconv.FormatUint(quorum, 10), func(b *testing.B) {
			// Half the blocks are first signed here, for each quorum.
			var cold []time.Duration
			for _, h := range hashes[(quorum/100)*4 : (quorum/100)*4+4] {
				start := time.Now()
				aggregate(message(h), quorum)
				cold = append(cold, time.Since(start))
			}
			slices.Sort(cold)
			warm := message(hashes[0])
			aggregate(warm, quorum)
			for b.Loop() {
				aggregate(warm, quorum)
			}
			b.ReportMetric(float64(cold[len(cold)/2].Microseconds())/1000, "cold-ms")
		})
	}
}
