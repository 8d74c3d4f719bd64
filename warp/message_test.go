package warp_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/internal/vectors"
	"github.com/cornice-node/cornice/warp/payload"
)

const localNetworkID = 12345

// TestUnsignedMessageVectors builds the unsigned-message vectors from their inputs and parses
// them back, asserting bytes and IDs exactly.
func TestUnsignedMessageVectors(t *testing.T) {
	t.Parallel()
	chainID, err := ids.FromString("29BccK422X7XM3LKKsWtBzdxoEu6dUWT6fB2ug8tN4Fx9p7AnC")
	require.NoError(t, err)
	tests := []struct {
		name       string
		payload    payload.Payload
		payloadKey string
	}{
		{
			name:       "warp_unsigned_message_addressed_call",
			payload:    &payload.AddressedCall{SourceAddress: vectors.Hex(t, "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"), Payload: []byte("hello warp")},
			payloadKey: "addressedCallHex",
		},
		{
			name:       "warp_unsigned_message_hash",
			payload:    &payload.Hash{Hash: ids.ID(vectors.Hex(t, "0x74c60c1c2bed97af49a49de7674292d3833eea0a825e33952dcce2067c8a015b"))},
			payloadKey: "hashPayloadHex",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := vectors.Load(t, tt.name)
			require.Equal(t, v.Hex(t, tt.payloadKey), tt.payload.Bytes())
			msg := warp.NewUnsignedMessage(localNetworkID, chainID, tt.payload.Bytes())
			want := v.Hex(t, "unsignedMessageHex")
			require.Equal(t, want, msg.Bytes())
			require.Equal(t, v.String(t, "messageID"), msg.ID().String())
			id := msg.ID()
			require.Equal(t, v.Hex(t, "messageIDHex"), id[:])

			parsed, err := warp.ParseUnsignedMessage(want)
			require.NoError(t, err)
			require.Equal(t, msg, parsed)
			p, err := payload.Parse(parsed.Payload)
			require.NoError(t, err)
			require.Equal(t, tt.payload, p)
		})
	}
}

// TestSignedMessageVector parses the signed vector, re-encodes it byte for byte, and checks its
// fields.
func TestSignedMessageVector(t *testing.T) {
	t.Parallel()
	v := vectors.Load(t, "warp_signed_message_bitset_signer1_signer3")
	b := v.Hex(t, "signedMessageHex")
	m, err := warp.ParseMessage(b)
	require.NoError(t, err)
	require.Equal(t, b, m.Bytes())
	require.Equal(t, v.Hex(t, "bitSetHex"), m.Signature.Signers)
	require.Equal(t, v.Hex(t, "aggregateSignatureHex"), m.Signature.Signature[:])
	unsigned := vectors.Load(t, "warp_unsigned_message_addressed_call")
	require.Equal(t, unsigned.Hex(t, "unsignedMessageHex"), m.UnsignedMessage.Bytes())
	require.Equal(t, unsigned.String(t, "messageID"), m.ID().String())
}

// TestParseMessageErrors feeds malformed messages to the parsers.
func TestParseMessageErrors(t *testing.T) {
	t.Parallel()
	v := vectors.Load(t, "warp_signed_message_bitset_signer1_signer3")
	good := v.Hex(t, "signedMessageHex")
	unsignedLen := len(vectors.Load(t, "warp_unsigned_message_addressed_call").Hex(t, "unsignedMessageHex"))
	withType := func(typ byte) []byte {
		b := append([]byte{}, good...)
		b[unsignedLen+3] = typ
		return b
	}
	tests := []struct {
		name    string
		in      []byte
		wantErr error
	}{
		{name: "empty", in: nil, wantErr: codec.ErrTruncated},
		{name: "version 1", in: append([]byte{0, 1}, good[2:]...), wantErr: codec.ErrUnknownVersion},
		{name: "truncated", in: good[:len(good)-1], wantErr: codec.ErrTruncated},
		{name: "trailing", in: append(append([]byte{}, good...), 0), wantErr: codec.ErrTrailingBytes},
		{name: "signature type 1", in: withType(1), wantErr: warp.ErrUnknownSignatureType},
		{name: "oversize", in: make([]byte, warp.MaxMessageSize+1), wantErr: codec.ErrOversize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := warp.ParseMessage(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
		})
	}
	_, err := warp.ParseUnsignedMessage(good)
	require.ErrorIs(t, err, codec.ErrTrailingBytes)
}

// FuzzParseMessage: parsing never panics, and what parses re-encodes to its input.
func FuzzParseMessage(f *testing.F) {
	f.Add(vectors.Load(f, "warp_signed_message_bitset_signer1_signer3").Hex(f, "signedMessageHex"))
	f.Add(vectors.Load(f, "warp_unsigned_message_hash").Hex(f, "unsignedMessageHex"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := warp.ParseMessage(b); err == nil {
			require.Equal(t, b, m.Bytes())
		}
		if m, err := warp.ParseUnsignedMessage(b); err == nil {
			require.Equal(t, b, m.Bytes())
		}
	})
}
