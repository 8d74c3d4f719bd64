package txjson

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Addresses formats each address for the chain, and an empty list prints [] rather than null.
func TestAddresses(t *testing.T) {
	t.Parallel()
	addr := ids.ShortID{1, 2, 3}
	got, err := Addresses("P", "local", []ids.ShortID{addr})
	require.NoError(t, err)
	require.Len(t, got, 1)
	alias, hrp, back, err := address.Parse(got[0])
	require.NoError(t, err)
	require.Equal(t, []any{"P", "local", addr}, []any{alias, hrp, back})

	none, err := Addresses("X", "local", nil)
	require.NoError(t, err)
	b, err := json.Marshal(none)
	require.NoError(t, err)
	require.JSONEq(t, `[]`, string(b))
}

// Signatures are "0x" + hex of all 65 bytes, with no checksum.
func TestSignatures(t *testing.T) {
	t.Parallel()
	var sig secp256k1fx.Signature
	sig[0], sig[64] = 0xab, 0x01
	got := Signatures([]secp256k1fx.Signature{sig})
	require.Len(t, got, 1)
	require.Len(t, got[0], 2+2*65)
	require.Equal(t, "0xab", got[0][:4])
	require.Equal(t, "01", got[0][len(got[0])-2:])
}

// An input without signature indices prints [] rather than null, as the reference does.
func TestNewTransferInput(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(NewTransferInput(&secp256k1fx.TransferInput{Amount: 7}))
	require.NoError(t, err)
	require.JSONEq(t, `{"amount":7,"signatureIndices":[]}`, string(b))
}
