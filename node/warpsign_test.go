package node_test

import (
	"context"
	"net"
	"testing"
	"time"

	refinfo "github.com/ava-labs/avalanchego/api/info"
	refids "github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/network/p2p"
	refbls "github.com/ava-labs/avalanchego/utils/crypto/bls"
	refsigner "github.com/ava-labs/avalanchego/vms/platformvm/signer"
	refptxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	refwarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	refmessage "github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	refpayload "github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/internal/reftest"
)

// dialRef connects the reference's test peer to the node at stakingAddr and waits until the
// node at url lists it, so that it answers the first request.
func dialRef(t *testing.T, ctx context.Context, url string, stakingAddr net.Addr, networkID uint32) *reftest.Asker {
	t.Helper()
	a := reftest.Dial(t, ctx, stakingAddr.(*net.TCPAddr).AddrPort(), networkID)
	require.Eventually(t, func() bool {
		peers, err := refinfo.NewClient(url).Peers(ctx, nil)
		return err == nil && len(peers) == 1
	}, processWait, 10*time.Millisecond, "the node lists the reference peer")
	return a
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
	sig := a.Signature(refids.Empty, msg.Bytes(), subnetID[:], 0)
	require.True(t, refbls.Verify(nodePoP.Key(), sig, msg.Bytes()), "signed with the node's BLS key")

	// Refusals.
	unconverted := refids.ID{7}
	a.Refusal(refids.Empty, reftest.SignatureRequest(t, msg.Bytes(), unconverted[:]), 6, `subnet "`+unconverted.String()+`" has not been converted`, false)
	a.Refusal(refids.Empty, reftest.SignatureRequest(t, conversionMessage(t, cfg.NetworkID, refids.ID{8}).Bytes(), subnetID[:]),
		7, `provided conversionID "`+refids.ID{8}.String()+`" != expected conversionID "`+subnet.ConversionID.String()+`"`, false)
	a.Refusal(refids.Empty, p2p.PrefixMessage(p2p.ProtocolPrefix(p2p.SignatureRequestHandlerID), []byte{0x0a, 0x05}), -1, "failed to unmarshal request: ", true)
	a.Refusal(refids.Empty, p2p.PrefixMessage(p2p.ProtocolPrefix(p2p.TxGossipHandlerID), nil), -2, "unregistered handler", false)
	xChain, err := info.GetBlockchainID(ctx, "X")
	require.NoError(t, err)
	a.Refusal(xChain, reftest.SignatureRequest(t, msg.Bytes(), nil), -2, "unregistered handler", false)
}
