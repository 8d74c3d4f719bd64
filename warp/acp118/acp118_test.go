package acp118_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
	"github.com/cornice-node/cornice/warp/internal/vectors"
)

const localNetworkID = 12345

// verifierFunc adapts a function to acp118.Verifier.
type verifierFunc func(msg *warp.UnsignedMessage, justification []byte) error

func (f verifierFunc) VerifyWarp(_ context.Context, msg *warp.UnsignedMessage, justification []byte) error {
	return f(msg, justification)
}

func staker(t *testing.T, name string) (*bls.SecretKey, ids.NodeID) {
	t.Helper()
	s := vectors.Stakers(t)[name]
	sk, err := bls.SecretKeyFromBytes(vectors.Hex(t, s.BLSSecretKeyHex))
	require.NoError(t, err)
	nodeID, err := ids.NodeIDFromString(s.NodeID)
	require.NoError(t, err)
	return sk, nodeID
}

// TestHandlerVectors answers the reference's AppRequest vector (handler 2, the P-Chain's
// conversion message, justified by its subnet ID) with signer1's key: the response is the
// reference's AppResponse bytes.
func TestHandlerVectors(t *testing.T) {
	t.Parallel()
	req := vectors.Load(t, "p2p_app_request_acp118_signature_request")
	id, body, err := acp118.SplitAppBytes(req.Hex(t, "appBytesHex"))
	require.NoError(t, err)
	require.Equal(t, uint64(acp118.HandlerID), id)
	require.Equal(t, req.Hex(t, "signatureRequestProtoHex"), body)
	parsed, err := acp118.ParseRequest(body)
	require.NoError(t, err)
	conv := vectors.Load(t, "warp_acp77_subnet_to_l1_conversion")
	require.Equal(t, conv.Hex(t, "unsignedMessageHex"), parsed.Message)
	require.Len(t, parsed.Justification, ids.IDLen)
	require.Equal(t, req.Hex(t, "appBytesHex"), parsed.AppBytes())

	sk, _ := staker(t, "staker1")
	var seen []byte
	h := acp118.NewHandler(verifierFunc(func(msg *warp.UnsignedMessage, justification []byte) error {
		seen = justification
		return nil
	}), warp.NewSigner(sk, localNetworkID, ids.Empty), 0)
	resp, appErr := h.AppRequest(context.Background(), body)
	require.Nil(t, appErr)
	require.Equal(t, vectors.Load(t, "p2p_app_response_acp118_signature").Hex(t, "signatureResponseProtoHex"), resp)
	require.Equal(t, parsed.Justification, seen)
	sig, err := acp118.ParseResponse(resp)
	require.NoError(t, err)
	require.Equal(t, vectors.Load(t, "p2p_app_response_acp118_signature").Hex(t, "blsSignatureHex"), sig.Compress())
}

// TestHandlerRefusals checks that a refusal keeps the verifier's code, and that what does not
// parse or is not the signer's chain is CodeUnexpected with the reference's texts; app bytes for
// another handler ID are the SDK's "unregistered handler".
func TestHandlerRefusals(t *testing.T) {
	t.Parallel()
	sk, _ := staker(t, "staker1")
	refuse := &acp118.Error{Code: 6, Message: `subnet "x" has not been converted`}
	h := acp118.NewHandler(verifierFunc(func(*warp.UnsignedMessage, []byte) error { return refuse }),
		warp.NewSigner(sk, localNetworkID, ids.Empty), 0)
	ok := acp118.NewHandler(verifierFunc(func(*warp.UnsignedMessage, []byte) error { return nil }),
		warp.NewSigner(sk, localNetworkID, ids.Empty), 0)
	msg := warp.NewUnsignedMessage(localNetworkID, ids.Empty, []byte{1})
	other := warp.NewUnsignedMessage(localNetworkID, ids.ID{1}, []byte{1})
	for _, tt := range []struct {
		name string
		h    *acp118.Handler
		req  []byte
		want *acp118.Error
		// prefix is the start of a CodeUnexpected text, when want is nil.
		prefix string
	}{
		{"verifier refuses", h, (&acp118.Request{Message: msg.Bytes()}).AppBytes(), refuse, ""},
		{"not a message", ok, (&acp118.Request{Message: []byte{1, 2}}).AppBytes(), nil, "failed to parse warp unsigned message: "},
		{"not protobuf", ok, []byte{acp118.HandlerID, 0x0a, 0x05}, nil, "failed to unmarshal request: "},
		{"another chain", ok, (&acp118.Request{Message: other.Bytes()}).AppBytes(), &acp118.Error{Code: acp118.CodeUnexpected,
			Message: "failed to sign message: " + warp.ErrWrongSourceChainID.Error()}, ""},
		{"another handler", ok, append([]byte{1}, (&acp118.Request{Message: msg.Bytes()}).Bytes()...),
			&acp118.Error{Code: acp118.CodeUnregisteredHandler, Message: "unregistered handler"}, ""},
		{"no handler ID", ok, nil, &acp118.Error{Code: acp118.CodeUnregisteredHandler, Message: "unregistered handler"}, ""},
	} {
		resp, appErr := tt.h.ServeApp(context.Background(), tt.req)
		require.Nil(t, resp, tt.name)
		require.NotNil(t, appErr, tt.name)
		if tt.want != nil {
			require.Equal(t, tt.want, appErr, tt.name)
		} else {
			require.Equal(t, acp118.CodeUnexpected, appErr.Code, tt.name)
			require.True(t, strings.HasPrefix(appErr.Message, tt.prefix), tt.name)
		}
	}
}

// TestHandlerCache signs a message the verifier accepted once again without asking it, when the
// handler has a cache; a handler without one asks every time.
func TestHandlerCache(t *testing.T) {
	t.Parallel()
	sk, _ := staker(t, "staker1")
	for _, size := range []int{0, 1} {
		var asked int
		h := acp118.NewHandler(verifierFunc(func(*warp.UnsignedMessage, []byte) error {
			asked++
			if asked > 1 {
				return &acp118.Error{Code: 2, Message: "no longer"}
			}
			return nil
		}), warp.NewSigner(sk, localNetworkID, ids.Empty), size)
		req := (&acp118.Request{Message: warp.NewUnsignedMessage(localNetworkID, ids.Empty, []byte{7}).Bytes()}).AppBytes()
		first, appErr := h.ServeApp(context.Background(), req)
		require.Nil(t, appErr)
		second, appErr := h.ServeApp(context.Background(), req)
		if size == 0 {
			require.Equal(t, &acp118.Error{Code: 2, Message: "no longer"}, appErr)
			continue
		}
		require.Nil(t, appErr)
		require.Equal(t, first, second)
		require.Equal(t, 1, asked)
		// The cache holds one: another message evicts the first, which is verified again.
		_, appErr = h.ServeApp(context.Background(), (&acp118.Request{Message: warp.NewUnsignedMessage(localNetworkID, ids.Empty, []byte{8}).Bytes()}).AppBytes())
		require.NotNil(t, appErr)
	}
}

// stateOf is a warp.ValidatorState of one subnet's set.
type stateOf []warp.Validator

func (s stateOf) PChainHeight(context.Context) (uint64, error) { return 3, nil }
func (s stateOf) ValidatorsAt(context.Context, ids.ID, uint64) ([]warp.Validator, error) {
	return s, nil
}
func (s stateOf) SubnetOf(context.Context, ids.ID) (ids.ID, error) { return ids.Empty, nil }

// sourceOf answers for the nodes whose handlers it holds.
type sourceOf map[ids.NodeID]*acp118.Handler

func (s sourceOf) Signature(ctx context.Context, nodeID ids.NodeID, _ ids.ID, req *acp118.Request) (*bls.Signature, error) {
	h, ok := s[nodeID]
	if !ok {
		return nil, errors.New("not connected")
	}
	return h.Sign(ctx, req)
}

// threeStakers returns staker1, staker2 and staker3 as the validators of a subnet, weights 70,
// 20 and 10, and a source in which the first two sign everything and staker3 does not answer.
func threeStakers(t *testing.T) ([]warp.Validator, sourceOf) {
	t.Helper()
	accept := verifierFunc(func(*warp.UnsignedMessage, []byte) error { return nil })
	var vs []warp.Validator
	source := sourceOf{}
	for i, name := range []string{"staker1", "staker2", "staker3"} {
		sk, nodeID := staker(t, name)
		pk := [bls.PublicKeyLen]byte(sk.PublicKey().Compress())
		vs = append(vs, warp.Validator{NodeID: nodeID, Weight: []uint64{70, 20, 10}[i], PublicKey: &pk})
		if name != "staker3" {
			source[nodeID] = acp118.NewHandler(accept, warp.NewSigner(sk, localNetworkID, ids.Empty), 0)
		}
	}
	return vs, source
}

// TestAggregate gathers signatures until the quorum: a lone signer holding enough weight is the
// whole aggregate (bitset of its canonical index); one holding too little fails with the
// reference's text.
func TestAggregate(t *testing.T) {
	t.Parallel()
	vs, source := threeStakers(t)
	msg := warp.NewUnsignedMessage(localNetworkID, ids.Empty, []byte("hello"))
	agg := acp118.NewAggregator(stateOf(vs), source)
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)

	for _, tt := range []struct {
		quorum  uint64
		buffer  uint64
		signers int // canonical validators expected in the bitset
		wantErr error
	}{
		// Asked at once, staker2 may answer first: then both count.
		{quorum: 67, signers: 2},
		{quorum: 90, signers: 2},
		{quorum: 67, buffer: 25, signers: 2},
		{quorum: 100, wantErr: acp118.ErrNotEnoughSignatures},
		{quorum: 101, wantErr: acp118.ErrInvalidQuorum},
	} {
		m, err := agg.Aggregate(context.Background(), msg, nil, ids.Empty, tt.quorum, tt.buffer)
		if tt.wantErr != nil {
			require.ErrorIs(t, err, tt.wantErr, tt.quorum)
			continue
		}
		require.NoError(t, err)
		require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, localNetworkID, set, tt.quorum, 100))
		var n int
		for _, b := range m.Signature.Signers {
			for ; b != 0; b &= b - 1 {
				n++
			}
		}
		require.LessOrEqual(t, n, tt.signers)
	}
}

// TestGather is the EVM warp API's aggregation: short of quorum (staker3 does not answer) it
// returns what signed instead of failing, any quorum number is taken, and a subnet nobody of
// which signs gives nil.
func TestGather(t *testing.T) {
	t.Parallel()
	vs, source := threeStakers(t)
	msg := warp.NewUnsignedMessage(localNetworkID, ids.Empty, []byte("hello"))
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)
	agg := acp118.NewAggregator(stateOf(vs), source)
	for _, quorum := range []uint64{100, 101} {
		m, err := agg.Gather(context.Background(), msg, nil, ids.Empty, quorum)
		require.NoError(t, err)
		require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, localNetworkID, set, 90, 100), "staker1 and staker2 signed")
		require.Error(t, m.Signature.Verify(&m.UnsignedMessage, localNetworkID, set, quorum, 100))
	}
	m, err := acp118.NewAggregator(stateOf(vs), sourceOf{}).Gather(context.Background(), msg, nil, ids.Empty, 67)
	require.NoError(t, err)
	require.Nil(t, m)
}

// FuzzParse checks that the parsers never panic and that what parses re-encodes to what a
// second parse reads the same.
func FuzzParse(f *testing.F) {
	f.Add((&acp118.Request{Message: []byte{1}, Justification: []byte{2}}).Bytes())
	f.Add((&acp118.RegistrationJustification{ConvertSubnetToL1: true, SubnetID: []byte{3}, Index: 4}).Bytes())
	f.Add((&acp118.RegistrationJustification{RegisterL1ValidatorMessage: []byte{5}}).Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := acp118.ParseRequest(b); err == nil {
			again, err := acp118.ParseRequest(r.Bytes())
			require.NoError(t, err)
			require.Equal(t, r.Bytes(), again.Bytes())
		}
		if j, found, err := acp118.ParseRegistrationJustification(b); err == nil && found {
			again, _, err := acp118.ParseRegistrationJustification(j.Bytes())
			require.NoError(t, err)
			require.Equal(t, len(j.SubnetID), len(again.SubnetID))
			require.Equal(t, j.Index, again.Index)
		}
		_, _ = acp118.ParseResponse(b)
		_, _, _ = acp118.SplitAppBytes(b)
	})
}

// sourceFunc adapts a function to acp118.SignatureSource.
type sourceFunc func(ctx context.Context, nodeID ids.NodeID, req *acp118.Request) (*bls.Signature, error)

func (f sourceFunc) Signature(ctx context.Context, nodeID ids.NodeID, _ ids.ID, req *acp118.Request) (*bls.Signature, error) {
	return f(ctx, nodeID, req)
}

// TestAggregateParallel asks every validator at once: a validator that never answers does not
// hold up a quorum the others make, and is cancelled once it is made; a signature by another key
// is not counted, and shows among the refusals.
func TestAggregateParallel(t *testing.T) {
	t.Parallel()
	names := []string{"staker1", "staker2", "staker3", "staker4"}
	var vs []warp.Validator
	keys := map[ids.NodeID]*bls.SecretKey{}
	var silent, forger ids.NodeID
	for i, name := range names {
		sk, nodeID := staker(t, name)
		pk := [bls.PublicKeyLen]byte(sk.PublicKey().Compress())
		vs = append(vs, warp.Validator{NodeID: nodeID, Weight: []uint64{30, 30, 30, 10}[i], PublicKey: &pk})
		keys[nodeID] = sk
		switch name {
		case "staker3":
			silent = nodeID
		case "staker4":
			forger = nodeID
		}
	}
	other, _ := staker(t, "staker5")
	cancelled := make(chan struct{}, 1)
	source := sourceFunc(func(ctx context.Context, nodeID ids.NodeID, req *acp118.Request) (*bls.Signature, error) {
		switch nodeID {
		case silent:
			<-ctx.Done()
			cancelled <- struct{}{}
			return nil, ctx.Err()
		case forger:
			return other.Sign(req.Message), nil
		}
		return keys[nodeID].Sign(req.Message), nil
	})
	msg := warp.NewUnsignedMessage(localNetworkID, ids.Empty, []byte("parallel"))
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)

	m, err := acp118.NewAggregator(stateOf(vs), source).Aggregate(t.Context(), msg, nil, ids.Empty, 60, 0)
	require.NoError(t, err)
	require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, localNetworkID, set, 60, 100))
	<-cancelled // Aggregate returned only after the silent validator's request was cancelled

	// 70 % needs the third or the forger: once the third is cut off, the forger's signature does
	// not count, and the refusals name both.
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-cancelled; cancel() }()
	_, err = acp118.NewAggregator(stateOf(vs), sourceFunc(func(ctx context.Context, nodeID ids.NodeID, req *acp118.Request) (*bls.Signature, error) {
		if nodeID == silent {
			cancelled <- struct{}{}
		}
		return source(ctx, nodeID, req)
	})).Aggregate(ctx, msg, nil, ids.Empty, 70, 0)
	require.ErrorIs(t, err, acp118.ErrNotEnoughSignatures)
	require.ErrorIs(t, err, warp.ErrInvalidSignature)
	require.ErrorIs(t, err, context.Canceled)
}
