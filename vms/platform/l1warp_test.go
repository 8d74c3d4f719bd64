package platform_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/payload"
)

// managedL1 is an L1 on a test node: a subnet with a manager chain, converted with one validator
// whose BLS key the test holds, so that it can sign the manager's messages.
type managedL1 struct {
	n        *node
	subnetID ids.ID
	chainID  ids.ID
	manager  []byte
	sk       *bls.SecretKey
	convTx   *txs.ConvertSubnetToL1Tx
}

var managerAddress = []byte{0x0f, 0xee, 0xdc, 0x0d, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

func newManagedL1(t *testing.T, n *node) *managedL1 {
	t.Helper()
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	subnetID := n.createSubnet()
	chain := sign(t, &txs.CreateChainTx{
		BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), SubnetID: subnetID, ChainName: "manager",
		VMID: ids.FromName("subnetevm"), GenesisData: []byte(`{}`), SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}, ewoq, ewoq)
	n.issue(chain)
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	b := n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr)
	const balance = 1_000_000_000
	b.Outs[0].Out.(*secp256k1fx.TransferOutput).Amount -= balance
	rbo := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoqAddr}}
	convTx := &txs.ConvertSubnetToL1Tx{
		BaseTx: b, SubnetID: subnetID, ChainID: chain.ID(), Address: managerAddress,
		Validators: []txs.ConvertSubnetToL1Validator{{
			NodeID: []byte(strings.Repeat("\x0a", 20)), Weight: 100, Balance: balance,
			Signer:                txs.ProofOfPossession{PublicKey: pop.PublicKey, Signature: pop.ProofOfPossession},
			RemainingBalanceOwner: rbo, DeactivationOwner: rbo,
		}},
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}
	n.issue(sign(t, convTx, ewoq, ewoq))
	return &managedL1{n: n, subnetID: subnetID, chainID: chain.ID(), manager: managerAddress, sk: sk, convTx: convTx}
}

// signed returns the manager's message carrying inner, from chain and address, signed by the
// L1's validator key sk as validator index 0 of a one-key set (bitset 0x01).
func signed(t *testing.T, chainID ids.ID, addr []byte, inner []byte, sk *bls.SecretKey) []byte {
	t.Helper()
	call := &payload.AddressedCall{SourceAddress: addr, Payload: inner}
	u := warp.NewUnsignedMessage(genesis.LocalNetworkID, chainID, call.Bytes())
	m, err := warp.Aggregate(u, map[int]*bls.Signature{0: sk.Sign(u.Bytes())})
	require.NoError(t, err)
	return m.Bytes()
}

func (f *managedL1) message(t *testing.T, inner acp77.Message) []byte {
	t.Helper()
	return signed(t, f.chainID, f.manager, inner.Bytes(), f.sk)
}

// register returns a RegisterL1ValidatorTx paying balance for msg, with pop.
func (f *managedL1) register(t *testing.T, msg []byte, pop *bls.ProofOfPossession, balance uint64) *txs.Tx {
	t.Helper()
	ewoq := key(t, ewoqKeyHex)
	b := f.n.baseTx(f.n.largest(ewoqP), 0, addrOf(ewoq), addrOf(ewoq))
	b.Outs[0].Out.(*secp256k1fx.TransferOutput).Amount -= balance
	return sign(t, &txs.RegisterL1ValidatorTx{BaseTx: b, Balance: balance, ProofOfPossession: pop.ProofOfPossession, Message: msg}, ewoq)
}

func (f *managedL1) setWeight(t *testing.T, msg []byte) *txs.Tx {
	t.Helper()
	ewoq := key(t, ewoqKeyHex)
	return sign(t, &txs.SetL1ValidatorWeightTx{BaseTx: f.n.baseTx(f.n.largest(ewoqP), 0, addrOf(ewoq), addrOf(ewoq)), Message: msg}, ewoq)
}

func (f *managedL1) validators(t *testing.T) map[ids.ID]platform.L1Validator {
	t.Helper()
	cvm, ok := f.n.Manager.VM(ids.Empty)
	require.True(t, ok)
	_, vals, err := cvm.(*platform.VM).CurrentValidators(f.subnetID)
	require.NoError(t, err)
	out := make(map[ids.ID]platform.L1Validator, len(vals))
	for _, v := range vals {
		out[v.ValidationID] = v
	}
	return out
}

// signs asks the P-Chain whether it signs m (an AddressedCall from source address addr) given
// justification: nil, or the refusal's code and text.
func (f *managedL1) signs(t *testing.T, m acp77.Message, addr []byte, justification []byte) *acp118.Error {
	t.Helper()
	cvm, ok := f.n.Manager.VM(ids.Empty)
	require.True(t, ok)
	call := &payload.AddressedCall{SourceAddress: addr, Payload: m.Bytes()}
	err := cvm.(*platform.VM).VerifyWarp(t.Context(), warp.NewUnsignedMessage(genesis.LocalNetworkID, ids.Empty, call.Bytes()), justification)
	if err == nil {
		return nil
	}
	var e *acp118.Error
	require.ErrorAs(t, err, &e)
	return e
}

// TestRegisterAndSetL1ValidatorWeight registers an L1 validator from a signed manager message,
// changes its weight, removes it (refunding its balance), refuses what the reference refuses with
// its texts, leaving the state unchanged, and restarts.
func TestRegisterAndSetL1ValidatorWeight(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, dir, clk)
	f := newManagedL1(t, n)
	now := uint64(vectorTime.Unix())

	// The P-Chain signs its conversion message, justified by the subnet ID (§4.3).
	conv := &acp77.SubnetToL1Conversion{ID: txs.ConversionID(f.convTx)}
	require.Nil(t, f.signs(t, conv, nil, f.subnetID[:]))
	for _, tt := range []struct {
		msg           acp77.Message
		addr, justify []byte
		want          *acp118.Error
	}{
		{conv, []byte{1}, f.subnetID[:], &acp118.Error{Code: platform.CodeWarpAddressedCallHasSourceAddress, Message: "source address should be empty"}},
		{conv, nil, nil, &acp118.Error{Code: platform.CodeFailedToParseJustification, Message: "failed to parse justification: invalid hash length: expected 32 bytes but got 0"}},
		{conv, nil, ids.Empty[:], &acp118.Error{Code: platform.CodeConversionDoesNotExist, Message: `subnet "11111111111111111111111111111111LpoYY" has not been converted`}},
		{&acp77.SubnetToL1Conversion{}, nil, f.subnetID[:], &acp118.Error{Code: platform.CodeMismatchedConversionID,
			Message: `provided conversionID "11111111111111111111111111111111LpoYY" != expected conversionID "` + conv.ID.String() + `"`}},
		{&acp77.RegisterL1Validator{}, nil, nil, &acp118.Error{Code: platform.CodeUnsupportedWarpAddressedCallPayloadType,
			Message: "unsupported warp addressed call payload type: *message.RegisterL1Validator"}},
	} {
		require.Equal(t, tt.want, f.signs(t, tt.msg, tt.addr, tt.justify))
	}
	rboAddr := ids.ShortID{0xbb, 0x02}
	rboP, err := address.Format("P", "local", rboAddr)
	require.NoError(t, err)
	rbo := acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{rboAddr}}

	skB, err := bls.NewSecretKey()
	require.NoError(t, err)
	popB := bls.NewProofOfPossession(skB)
	nodeB := []byte(strings.Repeat("\x0b", 20))
	reg := &acp77.RegisterL1Validator{
		SubnetID: f.subnetID, NodeID: nodeB, BLSPublicKey: popB.PublicKey, Expiry: now + 3600,
		RemainingBalanceOwner: rbo, DisableOwner: rbo, Weight: 50,
	}
	vidB := reg.ValidationID()
	const balance = 500_000_000

	with := func(change func(r *acp77.RegisterL1Validator)) *acp77.RegisterL1Validator {
		r := *reg
		change(&r)
		return &r
	}
	otherPoP := bls.NewProofOfPossession(f.sk)
	existing := with(func(r *acp77.RegisterL1Validator) {
		r.NodeID, r.BLSPublicKey = []byte(strings.Repeat("\x0a", 20)), otherPoP.PublicKey
	})

	before := n.balance(ewoqP)
	height := n.Height()
	for _, tt := range []struct {
		name string
		tx   *txs.Tx
		want string
	}{
		{"signed by a key not in the set", f.register(t, signed(t, f.chainID, f.manager, reg.Bytes(), skB), popB, balance),
			"couldn't issue tx: failed verifying warp messages: signature is invalid"},
		{"two signers of a one-key set", f.register(t, func() []byte {
			m, err := warp.ParseMessage(f.message(t, reg))
			require.NoError(t, err)
			m.Signature.Signers = []byte{0x02}
			return m.Bytes()
		}(), popB, balance), "couldn't issue tx: failed verifying warp messages: unknown validator: NumIndices (1) >= NumFilteredValidators (1)"},
		{"wrong manager address", f.register(t, signed(t, f.chainID, []byte{1}, reg.Bytes(), f.sk), popB, balance),
			"wrong warp message source address expected 0x0feedc0de0000000000000000000000000000000 but got 0x01"},
		{"expired", f.register(t, f.message(t, with(func(r *acp77.RegisterL1Validator) { r.Expiry = now })), popB, balance),
			"warp message expired at 1767225600 and it is currently 1767225600"},
		{"too far ahead", f.register(t, f.message(t, with(func(r *acp77.RegisterL1Validator) { r.Expiry = now + 86401 })), popB, balance),
			"warp message not yet allowed because time is 86401 seconds in the future but the limit is 86400"},
		{"bad proof of possession", f.register(t, f.message(t, reg), otherPoP, balance), platform.ErrInvalidProofOfPossession.Error()},
		{"node already an L1 validator", f.register(t, f.message(t, existing), otherPoP, balance), platform.ErrDuplicateL1Validator.Error()},
		{"primary network", f.register(t, f.message(t, with(func(r *acp77.RegisterL1Validator) { r.SubnetID = ids.Empty })), popB, balance), acp77.ErrInvalidSubnetID.Error()},
		{"balance unpaid", f.register(t, f.message(t, reg), popB, 0), ""},
	} {
		if tt.name == "balance unpaid" {
			b := f.register(t, f.message(t, reg), popB, 0).Unsigned().(*txs.RegisterL1ValidatorTx)
			b.Balance = balance
			tt.tx, tt.want = sign(t, b, key(t, ewoqKeyHex)), utxo.ErrInsufficientFunds.Error()
		}
		require.Contains(t, n.IssueTxError(tt.tx), tt.want, tt.name)
	}
	require.Equal(t, height, n.Height())
	require.Equal(t, before, n.balance(ewoqP))

	// Registered, paid from the inputs, active with its balance, at nonce 0.
	regTx := f.register(t, f.message(t, reg), popB, balance)
	n.issue(regTx)
	require.Equal(t, before-burn-balance, n.balance(ewoqP))
	got := f.validators(t)[vidB]
	require.Equal(t, platform.L1Validator{
		ValidationID: vidB, SubnetID: f.subnetID, NodeID: ids.NodeID(nodeB), PublicKey: popB.PublicKey, Weight: 50,
		StartTime: now, Balance: balance, RemainingBalanceOwner: rbo, DeactivationOwner: rbo,
	}, got)
	require.Nil(t, f.signs(t, &acp77.L1ValidatorRegistration{ValidationID: vidB, Registered: true}, nil, nil))
	require.Equal(t, &acp118.Error{Code: platform.CodeValidationDoesNotExist, Message: `validation "` + ids.ID{7}.String() + `" does not exist`},
		f.signs(t, &acp77.L1ValidatorRegistration{ValidationID: ids.ID{7}, Registered: true}, nil, nil))
	notRegistered := func(vid ids.ID, j *acp118.RegistrationJustification) *acp118.Error {
		return f.signs(t, &acp77.L1ValidatorRegistration{ValidationID: vid}, nil, j.Bytes())
	}
	require.Equal(t, &acp118.Error{Code: platform.CodeValidationExists, Message: `validation "` + vidB.String() + `" exists`},
		notRegistered(vidB, &acp118.RegistrationJustification{RegisterL1ValidatorMessage: reg.Bytes()}))
	vidA := f.convTx.ValidationID(0)
	require.Equal(t, &acp118.Error{Code: platform.CodeValidationExists, Message: `validation "` + vidA.String() + `" exists`},
		notRegistered(vidA, &acp118.RegistrationJustification{ConvertSubnetToL1: true, SubnetID: f.subnetID[:]}))
	unused := with(func(r *acp77.RegisterL1Validator) { r.Weight = 51 })
	require.Equal(t, &acp118.Error{Code: platform.CodeValidationCouldBeRegistered,
		Message: `validation "` + unused.ValidationID().String() + `" can be registered until 1767229200`},
		notRegistered(unused.ValidationID(), &acp118.RegistrationJustification{RegisterL1ValidatorMessage: unused.Bytes()}))
	require.Equal(t, platform.CodeMismatchedValidationID,
		notRegistered(vidB, &acp118.RegistrationJustification{RegisterL1ValidatorMessage: unused.Bytes()}).Code)
	require.Equal(t, &acp118.Error{Code: platform.CodeInvalidJustificationType, Message: "invalid justification type: <nil>"},
		f.signs(t, &acp77.L1ValidatorRegistration{ValidationID: vidB}, nil, nil))

	// The P-Chain's validator set of the L1 now holds both keys: a message needs both signers
	// (67 % of 150 is more than 100).
	weight := func(w *acp77.L1ValidatorWeight) []byte { return f.message(t, w) }
	require.Contains(t, n.IssueTxError(f.setWeight(t, weight(&acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 0, Weight: 75}))),
		"failed verifying warp messages: signature weight is insufficient: 67*150 > 100*")
	both := func(inner acp77.Message) []byte {
		call := &payload.AddressedCall{SourceAddress: f.manager, Payload: inner.Bytes()}
		u := warp.NewUnsignedMessage(genesis.LocalNetworkID, f.chainID, call.Bytes())
		m, err := warp.Aggregate(u, map[int]*bls.Signature{0: f.sk.Sign(u.Bytes()), 1: skB.Sign(u.Bytes())})
		require.NoError(t, err)
		return m.Bytes()
	}
	// A replay is refused, even with a new fee paid.
	require.Contains(t, n.IssueTxError(f.register(t, both(reg), popB, balance)),
		"warp message already issued for validationID "+vidB.String())
	n.issue(f.setWeight(t, both(&acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 0, Weight: 75})))
	got = f.validators(t)[vidB]
	require.Equal(t, uint64(75), got.Weight)
	require.Equal(t, uint64(1), got.MinNonce)
	// The P-Chain acknowledges the weight change it executed, and no other.
	require.Nil(t, f.signs(t, &acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 0, Weight: 75}, nil, nil))
	for _, tt := range []struct {
		msg  *acp77.L1ValidatorWeight
		want *acp118.Error
	}{
		{&acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 1, Weight: 75}, &acp118.Error{Code: platform.CodeWrongNonce, Message: "provided nonce 1 != expected nonce (1 - 1)"}},
		{&acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 0, Weight: 50}, &acp118.Error{Code: platform.CodeWrongWeight, Message: "provided weight 50 != expected weight 75"}},
		{&acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: math.MaxUint64}, &acp118.Error{Code: platform.CodeImpossibleNonce, Message: "impossible nonce"}},
	} {
		require.Equal(t, tt.want, f.signs(t, tt.msg, nil, nil))
	}

	before = n.balance(ewoqP)
	height = n.Height()
	for _, tt := range []struct {
		name string
		msg  acp77.Message
		want string
	}{
		{"stale nonce", &acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 0, Weight: 80}, "warp message contains stale nonce 0 must be at least 1"},
		{"unknown validator", &acp77.L1ValidatorWeight{ValidationID: ids.ID{9}, Nonce: 5, Weight: 80}, "could not load L1 validator: not found"},
		{"max nonce with weight", &acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: math.MaxUint64, Weight: 1}, acp77.ErrNonceReservedForRemoval.Error()},
	} {
		require.Contains(t, n.IssueTxError(f.setWeight(t, both(tt.msg))), tt.want, tt.name)
	}
	require.Equal(t, height, n.Height())
	require.Equal(t, before, n.balance(ewoqP))

	// getL1Validator shows the nonce and weight.
	var reply api.GetL1ValidatorReply
	n.Result("getL1Validator", `{"validationID":"`+vidB.String()+`"}`, &reply)
	require.Equal(t, uint64(1), uint64(reply.MinNonce))
	require.Equal(t, uint64(75), uint64(reply.Weight))

	// Removing it refunds its remaining balance as the output after the tx's own; the
	// validator is gone, and the L1's last validator cannot be removed.
	clk.Advance(10 * time.Second)
	remove := f.setWeight(t, both(&acp77.L1ValidatorWeight{ValidationID: vidB, Nonce: 1, Weight: 0}))
	n.issue(remove)
	refunds := n.utxos(rboP)
	require.Len(t, refunds, 1)
	require.Equal(t, remove.ID(), refunds[0].TxID)
	require.Equal(t, uint32(1), refunds[0].OutputIndex)
	require.Less(t, amountOf(refunds[0]), uint64(balance))
	require.Greater(t, amountOf(refunds[0]), uint64(balance-100))
	require.Contains(t, n.CallError("getL1Validator", `{"validationID":"`+vidB.String()+`"}`), "not found")
	// Registered, then removed: the P-Chain now says it never will be again.
	require.Nil(t, notRegistered(vidB, &acp118.RegistrationJustification{RegisterL1ValidatorMessage: reg.Bytes()}))
	require.Contains(t, n.IssueTxError(f.setWeight(t, f.message(t, &acp77.L1ValidatorWeight{ValidationID: vidA, Nonce: 0, Weight: 0}))),
		platform.ErrRemovingLastValidator.Error())

	check := func(n *node) {
		t.Helper()
		vals := f.validators(t)
		require.Len(t, vals, 1)
		require.Contains(t, vals, vidA)
		var set api.GetValidatorsAtReply
		n.Result("getValidatorsAt", `{"height":"proposed","subnetID":"`+f.subnetID.String()+`"}`, &set)
		require.Len(t, set, 1)
	}
	check(n)
	n.Stop()
	n = startNode(t, dir, clk)
	f.n = n
	check(n)
	// The registration stays spent after the restart.
	require.Contains(t, n.IssueTxError(f.register(t, f.message(t, reg), popB, balance)), "warp message already issued")

	// Once a block's time reaches its expiry, the entry is pruned, as the reference prunes it:
	// the message is refused as expired, and the P-Chain still says it will never be registered.
	cvm, ok := n.Manager.VM(ids.Empty)
	require.True(t, ok)
	spent := func() bool {
		has, err := cvm.(*platform.VM).HasExpiryForTest(reg.Expiry, vidB)
		require.NoError(t, err)
		return has
	}
	require.True(t, spent())
	clk.Set(time.Unix(int64(reg.Expiry), 0))
	ewoq := key(t, ewoqKeyHex)
	transfer := n.baseTx(n.largest(ewoqP), 0, ids.ShortID{}, addrOf(ewoq))
	n.issue(sign(t, &transfer, ewoq))
	require.False(t, spent())
	require.Contains(t, n.IssueTxError(f.register(t, f.message(t, reg), popB, balance)), "warp message expired")
	require.Nil(t, notRegistered(vidB, &acp118.RegistrationJustification{RegisterL1ValidatorMessage: reg.Bytes()}))
}
