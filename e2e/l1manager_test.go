package e2e_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/sigagg"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/payload"
)

// The ACP-99 validator-manager flow on one node (issue #15 §3), driven by Go code in place of a
// manager contract: the manager is a contract that forwards calls to the warp precompile
// (warpProxyCode), the P-Chain txs are built by cornice's wallet (the reference's Go wallet
// cannot link beside go-ethereum in this package: node/refwallet_l1_test.go runs it on the same
// txs), and the P-Chain's signatures come from the node's POST /ext/aggregate-signatures.

// aggregate asks the node's signature aggregator to sign msg by the validators of subnetID.
func aggregate(t *testing.T, xn *xNode, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID) (int, []byte) {
	t.Helper()
	return aggregateAt(t, xn.hc, xn.base, msg, justification, subnetID, 0)
}

// aggregateAt asks the signature aggregator of the node at base (its URI) to sign msg by the
// validators of subnetID holding quorum percent of the weight (0: the default, 67), and returns
// the HTTP status and the signed message or the error body.
func aggregateAt(t testing.TB, hc *http.Client, base string, msg *warp.UnsignedMessage, justification []byte, subnetID ids.ID, quorum uint64) (int, []byte) {
	t.Helper()
	body, err := json.Marshal(sigagg.Request{
		Message:          hex.EncodeToString(msg.Bytes()),
		Justification:    hex.EncodeToString(justification),
		SigningSubnetID:  subnetID.String(),
		QuorumPercentage: quorum,
	})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/ext/aggregate-signatures", bytes.NewReader(body))
	require.NoError(t, err)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, b
	}
	var reply sigagg.Response
	require.NoError(t, json.Unmarshal(b, &reply))
	signed, err := hex.DecodeString(reply.SignedMessage)
	require.NoError(t, err)
	return resp.StatusCode, signed
}

func mustMessageID(t *testing.T, signed []byte) ids.ID {
	t.Helper()
	m, err := warp.ParseMessage(signed)
	require.NoError(t, err)
	return m.ID()
}

// managedL1 is an L1 made by convertedL1.
type managedL1 struct {
	ewoq *wallet.Key
	w    *wallet.P
	// me is the node, the L1's one validator.
	me             nodeIdentity
	subnetID, bcID ids.ID
	convTx         *txs.Tx
}

// nodeIdentity is a node's info.getNodeID: its ID and BLS proof of possession.
type nodeIdentity struct {
	NodeID  ids.NodeID            `json:"nodeID"`
	NodePOP bls.ProofOfPossession `json:"nodePOP"`
}

// convertedL1 makes an L1 on xn with the local key: a subnet, its EVM chain name of genesis,
// and the subnet's conversion, with the node as its one validator (weight 100) and manager as
// its manager; it returns once the chain answers.
func convertedL1(t *testing.T, xn *xNode, name string, genesis []byte, manager common.Address) *managedL1 {
	t.Helper()
	ctx := t.Context()
	l := &managedL1{}
	var err error
	l.ewoq, err = wallet.ParseKey(wallet.LocalKey)
	require.NoError(t, err)
	l.w = xn.pWallet(l.ewoq)
	xn.call("/ext/info", "info.getNodeID", nil, &l.me)
	subnetTx, err := l.w.CreateSubnet(ctx, l.w.Address())
	require.NoError(t, err)
	l.subnetID = pIssue(t, l.w, subnetTx)
	chainTx, err := l.w.CreateChain(ctx, l.subnetID, name, ids.FromName("subnetevm"), genesis)
	require.NoError(t, err)
	l.bcID = pIssue(t, l.w, chainTx)
	l.convTx, err = l.w.ConvertSubnet(ctx, l.subnetID, l.bcID, manager.Bytes(), []wallet.L1Validator{{
		NodeID: l.me.NodeID, Weight: 100, Balance: 1_000_000_000,
		Signer: txs.ProofOfPossession{PublicKey: l.me.NodePOP.PublicKey, Signature: l.me.NodePOP.ProofOfPossession},
	}})
	require.NoError(t, err)
	pIssue(t, l.w, l.convTx)
	require.Eventually(t, func() bool {
		_, err := chainID(xn.rpcURL(l.bcID))
		return err == nil
	}, acceptWait, 20*time.Millisecond, "the L1's chain does not start")
	return l
}

func TestL1ValidatorManagerFlow(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := startL1Node(t, nil)
	xn := n.xn
	// The L1, with this node as its one validator and as manager the address the admin's first
	// contract will have on the L1.
	admin := l1Key(t, "admin")
	manager := crypto.CreateAddress(crypto.PubkeyToAddress(admin.PublicKey), 0)
	l1 := convertedL1(t, xn, "manager", l1FixtureGenesis(t, 77716), manager)
	ewoq, w, me, subnetID, bcID, convTx := l1.ewoq, l1.w, l1.me, l1.subnetID, l1.bcID, l1.convTx
	c := &l1Chain{node: n, blockchainID: bcID.String()}
	c.dial()
	n.chains = append(n.chains, c)
	deploy := c.send(t, admin, nil, warpProxyCode(), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, deploy.Status)
	require.Equal(t, manager, deploy.ContractAddress)

	// deliver carries a P-Chain message signed for the L1 into a transaction's predicate and
	// returns what getVerifiedWarpMessage read (initializeValidatorSet / complete* in ACP-99).
	deliver := func(signed []byte) (bool, []byte) {
		t.Helper()
		r := c.sendWithPredicates(t, admin, &manager, pack(t, precompile.WarpABI(), "getVerifiedWarpMessage", uint32(0)), signed)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		vals, err := precompile.WarpABI().Methods["getVerifiedWarpMessage"].Outputs.Unpack(r.Logs[0].Data)
		require.NoError(t, err)
		got := vals[0].(struct {
			SourceChainID       [32]uint8      `json:"sourceChainID"`
			OriginSenderAddress common.Address `json:"originSenderAddress"`
			Payload             []uint8        `json:"payload"`
		})
		require.Equal(t, [32]byte(ids.Empty), got.SourceChainID, "from the P-Chain")
		return vals[1].(bool), got.Payload
	}
	fromP := func(m acp77.Message, justification []byte) []byte {
		t.Helper()
		call := &payload.AddressedCall{Payload: m.Bytes()}
		code, signed := aggregate(t, xn, warp.NewUnsignedMessage(12345, ids.Empty, call.Bytes()), justification, subnetID)
		require.Equal(t, http.StatusOK, code, string(signed))
		return signed
	}
	// resign returns message id signed by the L1's validators as they are now.
	resign := func(id ids.ID) []byte {
		t.Helper()
		var signed hexutil.Bytes
		require.NoError(t, c.rc.CallContext(ctx, &signed, "warp_getMessageAggregateSignature", id.String(), 67, ""))
		return signed
	}
	// send has the manager emit inner as a warp message and returns it signed by the L1.
	send := func(inner acp77.Message) []byte {
		t.Helper()
		r := c.send(t, admin, &manager, pack(t, precompile.WarpABI(), "sendWarpMessage", inner.Bytes()), nil, 300_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		return resign(ids.ID(r.Logs[0].Topics[2]))
	}

	// 1. initializeValidatorSet: the P-Chain's SubnetToL1Conversion, justified by the subnet ID.
	conv := &acp77.SubnetToL1Conversion{ID: txs.ConversionID(convTx.Unsigned().(*txs.ConvertSubnetToL1Tx))}
	valid, got := deliver(fromP(conv, subnetID[:]))
	require.True(t, valid)
	require.Equal(t, conv.Bytes(), got)
	// The P-Chain refuses what is not so, with its code and text.
	code, body := aggregate(t, xn, warp.NewUnsignedMessage(12345, ids.Empty, (&payload.AddressedCall{Payload: conv.Bytes()}).Bytes()), ids.Empty[:], subnetID)
	require.Equal(t, http.StatusInternalServerError, code)
	require.Contains(t, string(body), `failed to aggregate signatures. error: failed to collect a threshold of signatures`)
	require.Contains(t, string(body), `subnet \"11111111111111111111111111111111LpoYY\" has not been converted`)

	// 2. initiateValidatorRegistration: the manager sends RegisterL1Validator, the L1 signs it,
	// the reference wallet's RegisterL1ValidatorTx carries it to the P-Chain.
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	nodeB := ids.NodeID{0xb0, 0x0b}
	reg := &acp77.RegisterL1Validator{
		SubnetID: subnetID, NodeID: nodeB[:], BLSPublicKey: pop.PublicKey, Expiry: uint64(time.Now().Unix()) + 3600,
		RemainingBalanceOwner: acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoq.Address()}},
		DisableOwner:          acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoq.Address()}},
		Weight:                10,
	}
	vid := reg.ValidationID()
	regMsg := send(reg)
	register := func() error {
		tx, err := w.RegisterValidator(ctx, 500_000_000, pop.ProofOfPossession, regMsg)
		require.NoError(t, err)
		_, err = w.IssueAndWait(ctx, tx, acceptWait)
		return err
	}
	require.NoError(t, register())
	lv := func() (api.GetL1ValidatorReply, error) {
		var v api.GetL1ValidatorReply
		err := xn.client.Call(ctx, "/ext/bc/P", "platform.getL1Validator", map[string]string{"validationID": vid.String()}, &v)
		return v, err
	}
	v, err := lv()
	require.NoError(t, err)
	require.Equal(t, nodeB, v.NodeID)
	require.Equal(t, uint64(10), uint64(v.Weight))
	require.Equal(t, subnetID, v.SubnetID)
	// Replayed, it is refused (signed again: the L1's set now holds the new validator, and the
	// bitset indexes the new canonical order).
	regMsg = resign(mustMessageID(t, regMsg))
	require.ErrorContains(t, register(), "warp message already issued for validationID "+vid.String())

	// 3. completeValidatorRegistration: the P-Chain's L1ValidatorRegistration(true).
	registered := &acp77.L1ValidatorRegistration{ValidationID: vid, Registered: true}
	valid, got = deliver(fromP(registered, nil))
	require.True(t, valid)
	require.Equal(t, registered.Bytes(), got)

	setWeight := func(m []byte) error {
		tx, err := w.SetValidatorWeight(ctx, m)
		require.NoError(t, err)
		_, err = w.IssueAndWait(ctx, tx, acceptWait)
		return err
	}

	// 4. A weight change: nonce 0, weight 20, acknowledged by the P-Chain's L1ValidatorWeight.
	require.NoError(t, setWeight(send(&acp77.L1ValidatorWeight{ValidationID: vid, Nonce: 0, Weight: 20})))
	v, err = lv()
	require.NoError(t, err)
	require.Equal(t, uint64(20), uint64(v.Weight))
	require.Equal(t, uint64(1), uint64(v.MinNonce))
	ack := &acp77.L1ValidatorWeight{ValidationID: vid, Nonce: 0, Weight: 20}
	valid, got = deliver(fromP(ack, nil))
	require.True(t, valid)
	require.Equal(t, ack.Bytes(), got)
	// A stale nonce is refused.
	require.ErrorContains(t, setWeight(send(&acp77.L1ValidatorWeight{ValidationID: vid, Nonce: 0, Weight: 30})),
		"warp message contains stale nonce 0 must be at least 1")

	// 5. Removal: weight 0 at nonce 1; the P-Chain then says the validation is over with
	// L1ValidatorRegistration(false), justified by the registration message.
	require.NoError(t, setWeight(send(&acp77.L1ValidatorWeight{ValidationID: vid, Nonce: 1, Weight: 0})))
	_, err = lv()
	require.ErrorContains(t, err, "not found")
	removed := &acp77.L1ValidatorRegistration{ValidationID: vid}
	valid, got = deliver(fromP(removed, (&acp118.RegistrationJustification{RegisterL1ValidatorMessage: reg.Bytes()}).Bytes()))
	require.True(t, valid)
	require.Equal(t, removed.Bytes(), got)
	var current struct {
		Validators []map[string]any `json:"validators"`
	}
	xn.call("/ext/bc/P", "platform.getCurrentValidators", map[string]string{"subnetID": subnetID.String()}, &current)
	require.Len(t, current.Validators, 1)
	require.Equal(t, me.NodeID.String(), current.Validators[0]["nodeID"])
	// The L1's own validators API follows the P-Chain.
	vals := xn.chainValidators(bcID)
	require.Len(t, vals, 1)
	require.True(t, strings.EqualFold(me.NodeID.String(), vals[0].NodeID.String()))
}
