package acp77_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/internal/vectors"
	"github.com/cornice-node/cornice/warp/payload"
)

const localNetworkID = 12345

func mustID(t *testing.T, s string) ids.ID {
	t.Helper()
	id, err := ids.FromString(s)
	require.NoError(t, err)
	return id
}

func shortID(t *testing.T, s string) ids.ShortID {
	t.Helper()
	return ids.ShortID(vectors.Hex(t, s))
}

var (
	managerChain = "29BccK422X7XM3LKKsWtBzdxoEu6dUWT6fB2ug8tN4Fx9p7AnC"
	subnet       = "2hNAJSkWyW9Wf8yKTSgiHABsfBdEjifARBHoB9B1E7Sp5tjnJ8"
	validation   = "gqGQNpfL1yE9SX1JjEaxSb9gwGQcyjnitnE1iv5Le31KES4F1"
)

// checkWrapped asserts the message's payload bytes, its AddressedCall from source (chain,
// address) and the unsigned message and ID of the vector v (or of its sub-object).
func checkWrapped(t *testing.T, v vectors.Vector, m acp77.Message, chain ids.ID, addr []byte) {
	t.Helper()
	call := &payload.AddressedCall{SourceAddress: addr, Payload: m.Bytes()}
	require.Equal(t, v.Hex(t, "addressedCallHex"), call.Bytes())
	u := warp.NewUnsignedMessage(localNetworkID, chain, call.Bytes())
	require.Equal(t, v.Hex(t, "unsignedMessageHex"), u.Bytes())
	require.Equal(t, v.String(t, "messageID"), u.ID().String())
}

// TestMessageVectors builds every ACP-77 vector from its inputs and parses it back.
func TestMessageVectors(t *testing.T) {
	t.Parallel()
	pChain := ids.Empty
	manager := vectors.Hex(t, "0x0feedc0de0000000000000000000000000000000")
	register := &acp77.RegisterL1Validator{
		SubnetID:              mustID(t, subnet),
		NodeID:                vectors.Hex(t, "0xe9094f73698002fd52c90819b457b9fbc866ab80"),
		BLSPublicKey:          [bls.PublicKeyLen]byte(vectors.Hex(t, "0xa10b6955a85684a0f5c94b8381f04506f1bee60625927d372323f78b3d30196cc56c8618c77eaf429298e74673d832c3")),
		Expiry:                1767229200,
		RemainingBalanceOwner: acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{shortID(t, "0x3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c")}},
		DisableOwner:          acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{shortID(t, "0x46a9c04f4bf783aa69daabd519dcf36978168b66")}},
		Weight:                100,
	}
	data := &acp77.ConversionData{
		SubnetID:       mustID(t, subnet),
		ManagerChainID: mustID(t, managerChain),
		ManagerAddress: manager,
		Validators: []acp77.ConversionValidator{
			{NodeID: vectors.Hex(t, "0x479f66c8be895830547e70b4b298cafd433dba6e"), BLSPublicKey: [bls.PublicKeyLen]byte(vectors.Hex(t, "0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d")), Weight: 100},
			{NodeID: vectors.Hex(t, "0xde31b4d8b22991d51aa6aa1fc733f23a851a8c94"), BLSPublicKey: [bls.PublicKeyLen]byte(vectors.Hex(t, "0xa058ff27a4c570664bfa28e34939368539a1340867951943d0f56fa8aac13bc09ff64f341acf8cc0cef74202c2d6f9c0")), Weight: 200},
		},
	}
	conv := vectors.Load(t, "warp_acp77_subnet_to_l1_conversion")
	require.Equal(t, conv.Hex(t, "subnetToL1ConversionDataBytesHex"), data.Bytes())
	require.Equal(t, conv.String(t, "conversionID"), data.ID().String())

	weight := &acp77.L1ValidatorWeight{ValidationID: mustID(t, validation), Nonce: 1, Weight: 200}
	weightV := vectors.Load(t, "warp_acp77_l1_validator_weight")

	tests := []struct {
		name   string
		v      vectors.Vector
		m      acp77.Message
		chain  ids.ID
		source []byte
	}{
		{"warp_acp77_subnet_to_l1_conversion", conv, &acp77.SubnetToL1Conversion{ID: data.ID()}, pChain, []byte{}},
		{"warp_acp77_register_l1_validator", vectors.Load(t, "warp_acp77_register_l1_validator"), register, mustID(t, managerChain), manager},
		{"warp_acp77_l1_validator_registration_true", vectors.Load(t, "warp_acp77_l1_validator_registration_true"), &acp77.L1ValidatorRegistration{ValidationID: mustID(t, validation), Registered: true}, pChain, []byte{}},
		{"warp_acp77_l1_validator_registration_false", vectors.Load(t, "warp_acp77_l1_validator_registration_false"), &acp77.L1ValidatorRegistration{ValidationID: mustID(t, validation)}, pChain, []byte{}},
		{"weight from the manager", weightV.Sub(t, "wrappedFromManager(SetL1ValidatorWeightTx input)"), weight, mustID(t, managerChain), manager},
		{"weight from the P-Chain", weightV.Sub(t, "wrappedFromPChain(acknowledgement)"), weight, pChain, []byte{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkWrapped(t, tt.v, tt.m, tt.chain, tt.source)
			parsed, err := acp77.Parse(tt.m.Bytes())
			require.NoError(t, err)
			require.Equal(t, tt.m, parsed)
		})
	}
	for name, m := range map[string]acp77.Message{"warp_acp77_subnet_to_l1_conversion": &acp77.SubnetToL1Conversion{ID: data.ID()}, "warp_acp77_l1_validator_weight": weight, "warp_acp77_register_l1_validator": register} {
		require.Equal(t, vectors.Load(t, name).Hex(t, "payloadHex"), m.Bytes(), name)
	}
	require.Equal(t, validation, register.ValidationID().String())
	require.NoError(t, register.Verify())
	require.NoError(t, weight.Verify())

	r, err := acp77.ParseRegisterL1Validator(register.Bytes())
	require.NoError(t, err)
	require.Equal(t, register, r)
	w, err := acp77.ParseL1ValidatorWeight(weight.Bytes())
	require.NoError(t, err)
	require.Equal(t, weight, w)
	_, err = acp77.ParseL1ValidatorRegistration(weight.Bytes())
	require.ErrorIs(t, err, acp77.ErrWrongType)
	c, err := acp77.ParseSubnetToL1Conversion(vectors.Load(t, "warp_acp77_subnet_to_l1_conversion").Hex(t, "payloadHex"))
	require.NoError(t, err)
	require.Equal(t, data.ID(), c.ID)
}

// TestVerify refuses what the reference's Verify refuses, with its texts.
func TestVerify(t *testing.T) {
	t.Parallel()
	ok := acp77.RegisterL1Validator{SubnetID: ids.ID{1}, NodeID: make([]byte, 20), Weight: 1}
	ok.NodeID[0] = 1
	tests := []struct {
		name string
		edit func(r *acp77.RegisterL1Validator)
		want error
	}{
		{"primary network", func(r *acp77.RegisterL1Validator) { r.SubnetID = ids.Empty }, acp77.ErrInvalidSubnetID},
		{"weight 0", func(r *acp77.RegisterL1Validator) { r.Weight = 0 }, acp77.ErrInvalidWeight},
		{"empty node ID", func(r *acp77.RegisterL1Validator) { r.NodeID = make([]byte, 20) }, acp77.ErrInvalidNodeID},
		{"short node ID", func(r *acp77.RegisterL1Validator) { r.NodeID = []byte{1} }, acp77.ErrInvalidNodeID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := ok
			tt.edit(&r)
			require.ErrorIs(t, r.Verify(), tt.want)
		})
	}
	require.EqualError(t, (&acp77.L1ValidatorWeight{Nonce: math.MaxUint64, Weight: 1}).Verify(), "maxUint64 nonce is reserved for removal")
	require.NoError(t, (&acp77.L1ValidatorWeight{Nonce: math.MaxUint64}).Verify())
}

// TestParseErrors: unknown type IDs, bad bools, trailing bytes.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	_, err := acp77.Parse([]byte{0, 0, 0, 0, 0, 4})
	require.ErrorIs(t, err, codec.ErrUnknownTypeID)
	reg := (&acp77.L1ValidatorRegistration{}).Bytes()
	reg[len(reg)-1] = 2
	_, err = acp77.Parse(reg)
	require.ErrorIs(t, err, codec.ErrInvalidBool)
	_, err = acp77.Parse(append((&acp77.SubnetToL1Conversion{}).Bytes(), 0))
	require.ErrorIs(t, err, codec.ErrTrailingBytes)
}

// FuzzParse: parsing never panics, and what parses re-encodes to its input.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"warp_acp77_subnet_to_l1_conversion", "warp_acp77_register_l1_validator", "warp_acp77_l1_validator_registration_true", "warp_acp77_l1_validator_weight"} {
		f.Add(vectors.Load(f, name).Hex(f, "payloadHex"))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := acp77.Parse(b); err == nil {
			require.Equal(t, b, m.Bytes())
		}
	})
}
