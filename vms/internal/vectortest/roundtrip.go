package vectortest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Each runs check on every vector of vecs, each in its own parallel subtest named after the
// vector, after checking that there are want of them (so that a vector lost from the file fails).
func Each(t *testing.T, vecs []map[string]any, want int, check func(t *testing.T, vec map[string]any)) {
	t.Helper()
	require.Len(t, vecs, want)
	for _, vec := range vecs {
		t.Run(Str(t, vec, "name"), func(t *testing.T) {
			t.Parallel()
			check(t, vec)
		})
	}
}

// Rebuildable is a parsed signed tx of a chain whose unsigned txs are U: what CheckRebuild reads.
type Rebuildable[U any] interface {
	SignedTx
	Unsigned() U
	Creds() []secp256k1fx.Credential
}

// CheckRebuild encodes tx's unsigned part and credentials again from scratch, with the chain's
// NewTx and UnsignedBytes, and checks that they give tx's signed bytes, ID and unsigned bytes.
func CheckRebuild[T Rebuildable[U], U any](tb testing.TB, tx T, newTx func(U, []secp256k1fx.Credential) (T, error), unsignedBytes func(U) ([]byte, error)) {
	tb.Helper()
	again, err := newTx(tx.Unsigned(), tx.Creds())
	require.NoError(tb, err)
	require.Equal(tb, tx.Bytes(), again.Bytes())
	require.Equal(tb, tx.ID(), again.ID())
	require.Equal(tb, tx.UnsignedBytes(), again.UnsignedBytes())
	unsigned, err := unsignedBytes(tx.Unsigned())
	require.NoError(tb, err)
	require.Equal(tb, tx.UnsignedBytes(), unsigned)
}

// EncodeError is a case of CheckEncodeErrors: an unsigned tx that does not encode, and the error
// it gives.
type EncodeError[U any] struct {
	Name     string
	Unsigned U
	WantErr  error
}

// CheckEncodeErrors checks that each case fails to encode, as a signed tx (newTx) and as the
// bytes a signer signs (unsignedBytes), with its error.
func CheckEncodeErrors[T, U any](t *testing.T, cases []EncodeError[U], newTx func(U, []secp256k1fx.Credential) (T, error), unsignedBytes func(U) ([]byte, error)) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			_, err := newTx(tt.Unsigned, nil)
			require.ErrorIs(t, err, tt.WantErr)
			_, err = unsignedBytes(tt.Unsigned)
			require.ErrorIs(t, err, tt.WantErr)
		})
	}
}

// FuzzRoundTrip fuzzes a decoder from seeds: parse never panics, and what it accepts encodes
// back to the same bytes.
func FuzzRoundTrip[T any](f *testing.F, seeds [][]byte, parse func([]byte) (T, error), encode func(T) ([]byte, error)) {
	for _, b := range seeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parse(b)
		if err != nil {
			return
		}
		again, err := encode(v)
		require.NoError(t, err)
		require.Equal(t, b, again)
	})
}

// HexSeeds returns the bytes under key of each of vecs: fuzz seeds.
func HexSeeds(tb testing.TB, vecs []map[string]any, key string) [][]byte {
	tb.Helper()
	out := make([][]byte, len(vecs))
	for i, vec := range vecs {
		out[i] = Unhex(tb, Str(tb, vec, key))
	}
	return out
}

// CheckProducedUTXOs checks utxos, the UTXOs the tx txID produces, against a vector's
// producedUTXOs: their count, and each one's output index, UTXO ID, amount (of a TransferOutput)
// and, where the vector gives them, its tx ID and asset ID.
func CheckProducedUTXOs[O any, K utxo.Kinds[O]](tb testing.TB, txID ids.ID, produced []any, utxos []utxo.UTXO[O, K]) {
	tb.Helper()
	require.Len(tb, utxos, len(produced))
	for i, p := range produced {
		want := p.(map[string]any)
		ux := &utxos[i]
		require.Equal(tb, txID, ux.TxID)
		if id, ok := want["txID"].(string); ok {
			require.Equal(tb, CB58(tb, id), ux.TxID)
		}
		require.Equal(tb, uint32(Num(tb, want, "outputIndex")), ux.OutputIndex)
		require.Equal(tb, CB58(tb, Str(tb, want, "utxoID")), ux.InputID())
		out, ok := any(ux.Out).(*secp256k1fx.TransferOutput)
		require.True(tb, ok)
		require.Equal(tb, Num(tb, want, "amount"), out.Amount)
		if asset, ok := want["assetID"].(string); ok {
			require.Equal(tb, CB58(tb, asset), ux.AssetID)
		}
	}
}

// CheckExportedUTXOs checks utxos, the UTXOs an ExportTx puts into shared memory, against a
// vector's exportedUTXOs: their count, and each one's bytes and UTXO ID.
func CheckExportedUTXOs[O any, K utxo.Kinds[O]](tb testing.TB, exported []any, utxos []utxo.UTXO[O, K]) {
	tb.Helper()
	require.Len(tb, utxos, len(exported))
	for i, e := range exported {
		want := e.(map[string]any)
		b, err := utxos[i].Bytes()
		require.NoError(tb, err)
		require.Equal(tb, Unhex(tb, Str(tb, want, "utxoBytesHex")), b)
		require.Equal(tb, CB58(tb, Str(tb, want, "utxoID")), utxos[i].InputID())
	}
}

// CheckReply checks got, a JSON form, against the reply the reference gave to method in the
// recorded vector vec: the value under key of that reply, compacted.
func CheckReply(tb testing.TB, vec map[string]json.RawMessage, method, key string, got []byte, err error) {
	tb.Helper()
	require.NoError(tb, err)
	var reply map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal(vec[method], &reply))
	want, ok := reply[key]
	require.True(tb, ok, "%s has no %q", method, key)
	require.Equal(tb, Compact(tb, want), string(got))
}

// DecodeError is a case of CheckDecodeErrors: bytes that do not decode, and the error they give.
type DecodeError struct {
	Name    string
	In      []byte
	WantErr error
}

// CheckDecodeErrors checks that parse refuses each case's bytes with its error.
func CheckDecodeErrors[T any](t *testing.T, cases []DecodeError, parse func([]byte) (T, error)) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			_, err := parse(tt.In)
			require.ErrorIs(t, err, tt.WantErr)
		})
	}
}

// CheckNewTx encodes unsigned with creds as a signed tx (newTx) and checks that its bytes carry
// typeID after the codec version, that its ID is sha256 of its bytes, and that parsing the bytes
// (parse) gives back unsigned, creds and the ID. It returns the tx built and the tx parsed.
func CheckNewTx[T Rebuildable[U], U any](tb testing.TB, unsigned U, creds []secp256k1fx.Credential, typeID uint32,
	newTx func(U, []secp256k1fx.Credential) (T, error), parse func([]byte) (T, error),
) (built, parsed T) {
	tb.Helper()
	built, err := newTx(unsigned, creds)
	require.NoError(tb, err)
	require.Equal(tb, typeID, binary.BigEndian.Uint32(built.Bytes()[2:]))
	require.Equal(tb, ids.ID(sha256.Sum256(built.Bytes())), built.ID())
	parsed, err = parse(built.Bytes())
	require.NoError(tb, err)
	require.Equal(tb, unsigned, parsed.Unsigned())
	require.Equal(tb, creds, parsed.Creds())
	require.Equal(tb, built.ID(), parsed.ID())
	return built, parsed
}
