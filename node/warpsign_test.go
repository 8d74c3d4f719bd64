package node_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	refinfo "github.com/ava-labs/avalanchego/api/info"
	refids "github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/network/p2p"
	refpeer "github.com/ava-labs/avalanchego/network/peer"
	refp2p "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/ava-labs/avalanchego/snow/networking/router"
	"github.com/ava-labs/avalanchego/utils/compression"
	refbls "github.com/ava-labs/avalanchego/utils/crypto/bls"
	refsigner "github.com/ava-labs/avalanchego/vms/platformvm/signer"
	refptxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	refwarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	refmessage "github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	refpayload "github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/cornice-node/cornice/crypto/bls"
)

// refAsker is the reference's own peer (avalanchego v1.14.2's network/peer test peer and its
// message creator, as the reference's e2e test asks the P-Chain for attestations) connected to a
// node, sending AppRequests and reading the answers.
type refAsker struct {
	t         *testing.T
	ctx       context.Context
	peer      refpeer.Peer
	mc        message.Creator
	answers   chan *message.InboundMessage
	requestID uint32
}

// dialRef connects the reference's test peer to the node at stakingAddr and waits until the
// node at url lists it.
func dialRef(t *testing.T, ctx context.Context, url string, stakingAddr net.Addr, networkID uint32) *refAsker {
	t.Helper()
	a := &refAsker{t: t, ctx: ctx, answers: make(chan *message.InboundMessage, 16)}
	a.peer = startRefPeer(t, ctx, stakingAddr.(*net.TCPAddr).AddrPort(), networkID,
		router.InboundHandlerFunc(func(_ context.Context, m *message.InboundMessage) {
			if m.Op == message.AppResponseOp || m.Op == message.AppErrorOp {
				a.answers <- m
			}
		}))
	t.Cleanup(func() {
		a.peer.StartClose()
		require.NoError(t, a.peer.AwaitClosed(context.Background()))
	})
	require.Eventually(t, func() bool {
		peers, err := refinfo.NewClient(url).Peers(ctx, nil)
		return err == nil && len(peers) == 1
	}, 10*time.Second, 10*time.Millisecond, "the node lists the reference peer")
	// AppRequests go zstd-compressed, as the reference sends them by default.
	var err error
	a.mc, err = message.NewCreator(prometheus.NewRegistry(), compression.TypeZstd, 10*time.Second)
	require.NoError(t, err)
	return a
}

// startRefPeer starts the reference's test peer toward addr, trying again when its handshake
// has not completed in 20 s: under the whole package's parallel tests it sometimes never does
// (not understood yet; never seen with the test alone), and a new connection then completes.
func startRefPeer(t *testing.T, ctx context.Context, addr netip.AddrPort, networkID uint32, h router.InboundHandler) refpeer.Peer {
	t.Helper()
	for {
		attempt, cancel := context.WithTimeout(ctx, 20*time.Second)
		p, err := refpeer.StartTestPeer(attempt, addr, networkID, h)
		cancel()
		if err == nil {
			return p
		}
		require.NoError(t, ctx.Err(), "the reference peer never connected: %v", err)
		t.Logf("the reference peer's handshake did not complete (%v): again", err)
		if p != nil {
			p.StartClose()
			require.NoError(t, p.AwaitClosed(ctx))
		}
	}
}

// ask sends appBytes to chainID and returns the answer.
func (a *refAsker) ask(chainID refids.ID, appBytes []byte) *message.InboundMessage {
	a.t.Helper()
	a.requestID++
	out, err := a.mc.AppRequest(chainID, a.requestID, 5*time.Second, appBytes)
	require.NoError(a.t, err)
	require.True(a.t, a.peer.Send(a.ctx, out))
	select {
	case m := <-a.answers:
		return m
	case <-a.ctx.Done():
		require.FailNow(a.t, "no answer")
		return nil
	}
}

// signature asks chainID to sign msg and returns the signature the AppResponse carries.
func (a *refAsker) signature(chainID refids.ID, msg *refwarp.UnsignedMessage, justification []byte) *refbls.Signature {
	a.t.Helper()
	m := a.ask(chainID, signatureRequest(a.t, msg, justification))
	require.Equal(a.t, message.AppResponseOp, m.Op, "%s", m.Message)
	resp := m.Message.(*refp2p.AppResponse)
	require.Equal(a.t, chainID[:], resp.ChainId)
	require.Equal(a.t, a.requestID, resp.RequestId)
	var sr sdk.SignatureResponse
	require.NoError(a.t, proto.Unmarshal(resp.AppBytes, &sr))
	sig, err := refbls.SignatureFromBytes(sr.Signature)
	require.NoError(a.t, err)
	return sig
}

// refusal asks for appBytes on chainID and checks the AppError: its chain, request, code, and
// text (or its start, when prefix).
func (a *refAsker) refusal(chainID refids.ID, appBytes []byte, code int32, text string, prefix bool) {
	a.t.Helper()
	m := a.ask(chainID, appBytes)
	require.Equal(a.t, message.AppErrorOp, m.Op, "%s", m.Message)
	e := m.Message.(*refp2p.AppError)
	require.Equal(a.t, chainID[:], e.ChainId)
	require.Equal(a.t, a.requestID, e.RequestId)
	require.Equal(a.t, code, e.ErrorCode)
	if prefix {
		require.True(a.t, strings.HasPrefix(e.ErrorMessage, text), e.ErrorMessage)
		return
	}
	require.Equal(a.t, text, e.ErrorMessage)
}

// signatureRequest is the app bytes of an ACP-118 request, built by the reference's SDK.
func signatureRequest(t *testing.T, msg *refwarp.UnsignedMessage, justification []byte) []byte {
	b, err := proto.Marshal(&sdk.SignatureRequest{Message: msg.Bytes(), Justification: justification})
	require.NoError(t, err)
	return p2p.PrefixMessage(p2p.ProtocolPrefix(p2p.SignatureRequestHandlerID), b)
}

// conversionMessage is the P-Chain's SubnetToL1Conversion message of conversionID.
func conversionMessage(t *testing.T, networkID uint32, conversionID refids.ID) *refwarp.UnsignedMessage {
	conversion, err := refmessage.NewSubnetToL1Conversion(conversionID)
	require.NoError(t, err)
	call, err := refpayload.NewAddressedCall(nil, conversion.Bytes())
	require.NoError(t, err)
	msg, err := refwarp.NewUnsignedMessage(networkID, refids.Empty, call.Bytes())
	require.NoError(t, err)
	return msg
}

// The reference's peer asks a node, over the network, for the P-Chain's attestation of an L1
// conversion as the reference's e2e test does: the AppResponse's signature verifies against the
// node's BLS key. Every refusal is an AppError with the reference's code and text: an unconverted
// subnet, a request that does not parse, another handler ID, the X-Chain (no handler).
func TestACP118FromReferencePeer(t *testing.T) {
	t.Parallel()
	r, _ := startPX(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cfg := stakerConfig(t)
	w := newRefWallets(t, r.url)

	// An L1: subnet, chain, conversion.
	subnetTx, err := w.p.IssueCreateSubnetTx(w.owner())
	require.NoError(t, err)
	chainTx, err := w.p.IssueCreateChainTx(subnetTx.ID(), []byte(`{}`), refids.ID{0xee}, nil, "l1")
	require.NoError(t, err)
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	owner := refmessage.PChainOwner{Threshold: 1, Addresses: []refids.ShortID{w.addr}}
	_, err = w.p.IssueConvertSubnetToL1Tx(subnetTx.ID(), chainTx.ID(), []byte{0xc0, 0xde}, []*refptxs.ConvertSubnetToL1Validator{{
		NodeID: make([]byte, 20), Weight: 100, Balance: 1_000_000_000,
		Signer:                refsigner.ProofOfPossession{PublicKey: pop.PublicKey, ProofOfPossession: pop.ProofOfPossession},
		RemainingBalanceOwner: owner, DeactivationOwner: owner,
	}})
	require.NoError(t, err)
	subnetID := subnetTx.ID()
	subnet, err := w.pClient.GetSubnet(ctx, subnetID)
	require.NoError(t, err)

	a := dialRef(t, ctx, r.url, r.StakingAddr(), cfg.NetworkID)
	info := refinfo.NewClient(r.url)
	_, nodePoP, err := info.GetNodeID(ctx)
	require.NoError(t, err)

	// The P-Chain attests the conversion, justified by the subnet ID.
	msg := conversionMessage(t, cfg.NetworkID, subnet.ConversionID)
	sig := a.signature(refids.Empty, msg, subnetID[:])
	require.True(t, refbls.Verify(nodePoP.Key(), sig, msg.Bytes()), "signed with the node's BLS key")

	// Refusals.
	unconverted := refids.ID{7}
	a.refusal(refids.Empty, signatureRequest(t, msg, unconverted[:]), 6, `subnet "`+unconverted.String()+`" has not been converted`, false)
	a.refusal(refids.Empty, signatureRequest(t, conversionMessage(t, cfg.NetworkID, refids.ID{8}), subnetID[:]),
		7, `provided conversionID "`+refids.ID{8}.String()+`" != expected conversionID "`+subnet.ConversionID.String()+`"`, false)
	a.refusal(refids.Empty, p2p.PrefixMessage(p2p.ProtocolPrefix(p2p.SignatureRequestHandlerID), []byte{0x0a, 0x05}), -1, "failed to unmarshal request: ", true)
	a.refusal(refids.Empty, p2p.PrefixMessage(p2p.ProtocolPrefix(p2p.TxGossipHandlerID), nil), -2, "unregistered handler", false)
	xChain, err := info.GetBlockchainID(ctx, "X")
	require.NoError(t, err)
	a.refusal(xChain, signatureRequest(t, msg, nil), -2, "unregistered handler", false)
}
