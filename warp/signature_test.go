package warp_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/internal/vectors"
)

// stakerSet returns the vector's validator set (staker1 … staker5 with its weights), their
// secret keys by name, and the names in the vector's canonical order.
func stakerSet(t *testing.T) ([]warp.Validator, map[string]*bls.SecretKey) {
	t.Helper()
	weights := map[string]uint64{"staker1": 40, "staker2": 10, "staker3": 30, "staker4": 10, "staker5": 10}
	stakers := vectors.Stakers(t)
	var vs []warp.Validator
	sks := make(map[string]*bls.SecretKey)
	for _, name := range []string{"staker1", "staker2", "staker3", "staker4", "staker5"} {
		s := stakers[name]
		sk, err := bls.SecretKeyFromBytes(vectors.Hex(t, s.BLSSecretKeyHex))
		require.NoError(t, err)
		sks[name] = sk
		nodeID, err := ids.NodeIDFromString(s.NodeID)
		require.NoError(t, err)
		pk := [bls.PublicKeyLen]byte(vectors.Hex(t, s.BLSPublicKeyCompressed))
		vs = append(vs, warp.Validator{NodeID: nodeID, Weight: weights[name], PublicKey: &pk})
	}
	return vs, sks
}

// TestCanonicalSetVector checks the canonical order and total of the signed vector.
func TestCanonicalSetVector(t *testing.T) {
	t.Parallel()
	v := vectors.Load(t, "warp_signed_message_bitset_signer1_signer3")
	var want struct {
		TotalWeight uint64 `json:"totalWeight"`
		Validators  []struct {
			Uncompressed string `json:"blsPublicKeyUncompressed"`
			NodeID       string `json:"nodeID"`
			Weight       uint64 `json:"weight"`
		} `json:"validators"`
	}
	v.Decode(t, "canonicalValidatorSet", &want)
	vs, _ := stakerSet(t)
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)
	require.Equal(t, want.TotalWeight, set.TotalWeight)
	require.Len(t, set.Validators, len(want.Validators))
	for i, w := range want.Validators {
		got := set.Validators[i]
		require.Equal(t, vectors.Hex(t, w.Uncompressed), got.PublicKeyBytes, "index %d", i)
		require.Equal(t, w.Weight, got.Weight)
		require.Equal(t, w.NodeID, got.NodeIDs[0].String())
		j, ok := set.Index(got.PublicKey)
		require.True(t, ok)
		require.Equal(t, i, j)
	}
}

// TestSignAndAggregateVector signs the vector's message as staker1 and staker3, aggregates, and
// gets the vector's signatures, bitset and signed message; then verifies it.
func TestSignAndAggregateVector(t *testing.T) {
	t.Parallel()
	v := vectors.Load(t, "warp_signed_message_bitset_signer1_signer3")
	unsigned, err := warp.ParseUnsignedMessage(vectors.Load(t, "warp_unsigned_message_addressed_call").Hex(t, "unsignedMessageHex"))
	require.NoError(t, err)
	vs, sks := stakerSet(t)
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)

	sigs := make(map[int]*bls.Signature)
	for name, key := range map[string]string{"staker1": "signer1SignatureHex", "staker3": "signer3SignatureHex"} {
		signer := warp.NewSigner(sks[name], localNetworkID, unsigned.SourceChainID)
		sig, err := signer.Sign(unsigned)
		require.NoError(t, err)
		require.Equal(t, v.Hex(t, key), sig.Compress())
		i, ok := set.Index(signer.PublicKey())
		require.True(t, ok)
		sigs[i] = sig
	}
	m, err := warp.Aggregate(unsigned, sigs)
	require.NoError(t, err)
	require.Equal(t, v.Hex(t, "signedMessageHex"), m.Bytes())
	require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, localNetworkID, set, warp.QuorumNumerator, warp.QuorumDenominator))

	// staker1 alone has 40 of 100: the vector's text.
	alone, err := warp.Aggregate(unsigned, map[int]*bls.Signature{4: sigs[4]})
	require.NoError(t, err)
	err = alone.Signature.Verify(unsigned, localNetworkID, set, warp.QuorumNumerator, warp.QuorumDenominator)
	require.ErrorIs(t, err, warp.ErrInsufficientWeight)
	require.EqualError(t, err, "signature weight is insufficient: 67*100 > 100*40")
	// At 40 % it is enough.
	require.NoError(t, alone.Signature.Verify(unsigned, localNetworkID, set, 40, 100))
}

// TestVerifyErrors refuses each kind of bad signature with the reference's text.
func TestVerifyErrors(t *testing.T) {
	t.Parallel()
	good, err := warp.ParseMessage(vectors.Load(t, "warp_signed_message_bitset_signer1_signer3").Hex(t, "signedMessageHex"))
	require.NoError(t, err)
	vs, _ := stakerSet(t)
	set, err := warp.NewCanonicalSet(vs)
	require.NoError(t, err)
	with := func(edit func(s *warp.BitSetSignature)) warp.BitSetSignature {
		s := good.Signature
		s.Signers = append([]byte{}, s.Signers...)
		edit(&s)
		return s
	}
	tests := []struct {
		name      string
		sig       warp.BitSetSignature
		networkID uint32
		wantErr   error
		wantText  string
	}{
		{name: "wrong network", sig: good.Signature, networkID: 1, wantErr: warp.ErrWrongNetworkID, wantText: "wrong networkID"},
		{
			name:    "leading zero byte",
			sig:     with(func(s *warp.BitSetSignature) { s.Signers = []byte{0, 0x14} }),
			wantErr: warp.ErrInvalidBitSet, wantText: "bitset is invalid",
		},
		{
			name:    "bit past the set",
			sig:     with(func(s *warp.BitSetSignature) { s.Signers = []byte{0x34} }),
			wantErr: warp.ErrUnknownValidator, wantText: "unknown validator: NumIndices (5) >= NumFilteredValidators (5)",
		},
		{
			name:    "no signers",
			sig:     with(func(s *warp.BitSetSignature) { s.Signers = []byte{} }),
			wantErr: warp.ErrInsufficientWeight, wantText: "signature weight is insufficient: 67*100 > 100*0",
		},
		{
			name:    "bad BLS point",
			sig:     with(func(s *warp.BitSetSignature) { s.Signature = [bls.SignatureLen]byte{0xff} }),
			wantErr: warp.ErrParseSignature,
		},
		{
			name:    "other signers",
			sig:     with(func(s *warp.BitSetSignature) { s.Signers = []byte{0x1c} }),
			wantErr: warp.ErrInvalidSignature, wantText: "signature is invalid",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			networkID := tt.networkID
			if networkID == 0 {
				networkID = localNetworkID
			}
			err := tt.sig.Verify(&good.UnsignedMessage, networkID, set, warp.QuorumNumerator, warp.QuorumDenominator)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantText != "" {
				require.EqualError(t, err, tt.wantText)
			}
		})
	}

	// An empty set: the reference's single-node text (platform-exchange.md §0.9).
	err = good.Signature.Verify(&good.UnsignedMessage, localNetworkID, warp.CanonicalSet{}, 67, 100)
	require.EqualError(t, err, "unknown validator: NumIndices (4) >= NumFilteredValidators (0)")
}

// TestCanonicalSetMergesAndDrops: validators sharing a key are one entry with their weights
// added; keyless validators count in the total only; an overflowing total is refused.
func TestCanonicalSetMergesAndDrops(t *testing.T) {
	t.Parallel()
	vs, _ := stakerSet(t)
	shared := *vs[0].PublicKey
	more := []warp.Validator{
		{NodeID: ids.NodeID{1}, Weight: 5, PublicKey: &shared},
		{NodeID: ids.NodeID{2}, Weight: 7},
	}
	set, err := warp.NewCanonicalSet(append(vs, more...))
	require.NoError(t, err)
	require.Equal(t, uint64(112), set.TotalWeight)
	require.Len(t, set.Validators, 5)
	last := set.Validators[4] // staker1 sorts last
	require.Equal(t, uint64(45), last.Weight)
	require.Len(t, last.NodeIDs, 2)

	_, err = warp.NewCanonicalSet([]warp.Validator{{Weight: math.MaxUint64}, {Weight: 1}})
	require.ErrorIs(t, err, warp.ErrWeightOverflow)

	bad := [bls.PublicKeyLen]byte{0xc0, 1}
	_, err = warp.NewCanonicalSet([]warp.Validator{{Weight: 1, PublicKey: &bad}})
	require.ErrorIs(t, err, bls.ErrInvalidPublicKey)
}

// TestVerifyWeight covers the quorum on big integers, where uint64 products would overflow.
func TestVerifyWeight(t *testing.T) {
	t.Parallel()
	tests := []struct {
		signed, total, num, den uint64
		ok                      bool
	}{
		{67, 100, 67, 100, true},
		{66, 100, 67, 100, false},
		{math.MaxUint64, math.MaxUint64, 67, 100, true},
		{math.MaxUint64 / 100 * 67, math.MaxUint64, 67, 100, false},
		{math.MaxUint64/100*67 + math.MaxUint64/100, math.MaxUint64, 67, 100, true},
		{0, 0, 67, 100, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.signed, tt.total), func(t *testing.T) {
			err := warp.VerifyWeight(tt.signed, tt.total, tt.num, tt.den)
			if tt.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, warp.ErrInsufficientWeight)
			}
		})
	}
	require.Equal(t, uint64(67), warp.QuorumWeight(100, 67, 100))
	require.Equal(t, uint64(math.MaxUint64/100*67+math.MaxUint64%100*67/100), warp.QuorumWeight(math.MaxUint64, 67, 100))
}

// TestSignerRefuses: a signer signs only its own chain's messages of its network.
func TestSignerRefuses(t *testing.T) {
	t.Parallel()
	_, sks := stakerSet(t)
	chainID := ids.ID{1}
	s := warp.NewSigner(sks["staker1"], localNetworkID, chainID)
	_, err := s.Sign(warp.NewUnsignedMessage(localNetworkID, ids.ID{2}, nil))
	require.ErrorIs(t, err, warp.ErrWrongSourceChainID)
	_, err = s.Sign(warp.NewUnsignedMessage(1, chainID, nil))
	require.ErrorIs(t, err, warp.ErrWrongNetworkID)
	_, err = warp.Aggregate(warp.NewUnsignedMessage(1, chainID, nil), nil)
	require.ErrorIs(t, err, warp.ErrNoSigners)
}
