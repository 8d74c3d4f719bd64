package bls

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProofOfPossessionJSONRoundTrip(t *testing.T) {
	t.Parallel()
	sk, err := NewSecretKey()
	require.NoError(t, err)
	pop := NewProofOfPossession(sk)

	b, err := json.Marshal(pop)
	require.NoError(t, err)
	var back ProofOfPossession
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, *pop, back)
	require.NoError(t, back.Verify())

	// The value form marshals the same way, and null leaves a value unchanged.
	b2, err := json.Marshal(*pop)
	require.NoError(t, err)
	require.Equal(t, b, b2)
	require.NoError(t, json.Unmarshal([]byte("null"), &back))
	require.Equal(t, *pop, back)
}

func TestProofOfPossessionUnmarshalErrors(t *testing.T) {
	t.Parallel()
	pops := genesisSigners(t)
	b, err := json.Marshal(pops[0])
	require.NoError(t, err)
	valid := string(b)
	pk := "0x" + strings.Split(valid, `"0x`)[1][:96]
	sig := "0x" + strings.Split(valid, `"0x`)[2][:192]

	tests := []struct {
		name    string
		in      string
		wantErr error
	}{
		{name: "upper-case prefix", in: `{"publicKey":"0X` + pk[2:] + `","proofOfPossession":"` + sig + `"}`},
		{name: "no prefix", in: `{"publicKey":"` + pk[2:] + `","proofOfPossession":"` + sig + `"}`},
		{name: "short key", in: `{"publicKey":"` + pk[:96] + `","proofOfPossession":"` + sig + `"}`, wantErr: ErrInvalidPublicKey},
		{name: "invalid key", in: `{"publicKey":"0x` + strings.Repeat("00", 48) + `","proofOfPossession":"` + sig + `"}`, wantErr: ErrInvalidPublicKey},
		{name: "short proof", in: `{"publicKey":"` + pk + `","proofOfPossession":"` + sig[:192] + `"}`, wantErr: ErrInvalidSignature},
		{name: "missing proof", in: `{"publicKey":"` + pk + `"}`, wantErr: ErrInvalidSignature},
		{name: "not an object", in: `[]`},
	}
	// Hex digits may be in either case; only the prefix must be lower case.
	var upper ProofOfPossession
	require.NoError(t, json.Unmarshal([]byte(`{"publicKey":"0x`+strings.ToUpper(pk[2:])+`","proofOfPossession":"0x`+strings.ToUpper(sig[2:])+`"}`), &upper))
	require.Equal(t, pops[0], upper)

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p ProofOfPossession
			err := json.Unmarshal([]byte(tt.in), &p)
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			require.Equal(t, ProofOfPossession{}, p)
		})
	}
}

func TestProofOfPossessionVerify(t *testing.T) {
	t.Parallel()
	sk, err := NewSecretKey()
	require.NoError(t, err)
	other, err := NewSecretKey()
	require.NoError(t, err)
	good := NewProofOfPossession(sk)

	wrongKey := *good
	wrongKey.PublicKey = NewProofOfPossession(other).PublicKey
	signedWithSigTag := *good
	copy(signedWithSigTag.ProofOfPossession[:], sk.Sign(good.PublicKey[:]).Compress())
	// The negated signature is a valid subgroup point that does not verify.
	negated := *good
	negated.ProofOfPossession[0] ^= 0x20
	notAPoint := *good
	notAPoint.ProofOfPossession[0] &^= 0x80

	tests := []struct {
		name    string
		pop     ProofOfPossession
		wantErr error
	}{
		{name: "valid", pop: *good},
		{name: "zero", pop: ProofOfPossession{}, wantErr: ErrInvalidPublicKey},
		{name: "wrong key", pop: wrongKey, wantErr: ErrInvalidProofOfPossession},
		{name: "signature tag", pop: signedWithSigTag, wantErr: ErrInvalidProofOfPossession},
		{name: "negated signature", pop: negated, wantErr: ErrInvalidProofOfPossession},
		{name: "not compressed", pop: notAPoint, wantErr: ErrInvalidSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, tt.pop.Verify(), tt.wantErr)
		})
	}
}

func FuzzProofOfPossessionJSON(f *testing.F) {
	for _, pop := range genesisSigners(f) {
		b, err := json.Marshal(pop)
		require.NoError(f, err)
		f.Add(string(b))
	}
	f.Add(`{"publicKey":"0x","proofOfPossession":"0x"}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, s string) {
		var p ProofOfPossession
		if err := json.Unmarshal([]byte(s), &p); err != nil || s == "null" {
			return
		}
		b, err := json.Marshal(p)
		require.NoError(t, err)
		var back ProofOfPossession
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, p, back)
	})
}
