package payload_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/warp/internal/vectors"
	"github.com/cornice-node/cornice/warp/payload"
)

// TestParseVectors parses the vectors' payloads back to the same bytes.
func TestParseVectors(t *testing.T) {
	t.Parallel()
	call, err := payload.ParseAddressedCall(vectors.Load(t, "warp_unsigned_message_addressed_call").Hex(t, "addressedCallHex"))
	require.NoError(t, err)
	require.Equal(t, []byte("hello warp"), call.Payload)
	require.Len(t, call.SourceAddress, 20)
	h, err := payload.ParseHash(vectors.Load(t, "warp_unsigned_message_hash").Hex(t, "hashPayloadHex"))
	require.NoError(t, err)
	require.Equal(t, vectors.Hex(t, "0x74c60c1c2bed97af49a49de7674292d3833eea0a825e33952dcce2067c8a015b"), h.Hash[:])
	_, err = payload.ParseHash(call.Bytes())
	require.ErrorIs(t, err, payload.ErrWrongType)
	_, err = payload.ParseAddressedCall(h.Bytes())
	require.ErrorIs(t, err, payload.ErrWrongType)
	_, err = payload.Parse([]byte{0, 0, 0, 0, 0, 2})
	require.ErrorIs(t, err, codec.ErrUnknownTypeID)
	_, err = payload.Parse(make([]byte, payload.MaxSize+1))
	require.ErrorIs(t, err, codec.ErrOversize)
}

// FuzzParse: parsing never panics, and what parses re-encodes to its input.
func FuzzParse(f *testing.F) {
	f.Add(vectors.Load(f, "warp_unsigned_message_addressed_call").Hex(f, "addressedCallHex"))
	f.Add(vectors.Load(f, "warp_unsigned_message_hash").Hex(f, "hashPayloadHex"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := payload.Parse(b); err == nil {
			require.Equal(t, b, p.Bytes())
		}
	})
}
