// Package vectortest is test support for the X- and P-Chain packages: it reads the project's
// golden vectors (testdata/codec-vectors.json, reference/platform-exchange.md §8), checks what
// both chains' txs packages check of them (a tx rebuilt from its parts, the UTXOs it produces or
// exports, a JSON form against the reference's reply, encode errors, fuzzed round trips), and
// gives the harness their API tests share (a route table and an acceptor that record what the
// chain manager hands them, and a JSON-RPC client for a chain's API).
//
// Only _test.go files import it. Everything here is safe for concurrent use by parallel tests;
// Load returns a new value on each call.
package vectortest

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// Path returns the path of the project's copy of the golden vectors.
func Path() string { return testdataPath("codec-vectors.json") }

// Path2 returns the path of the project's copy of the second set of golden vectors
// (codec-vectors-2.json: atomic and staking txs, issue #14).
func Path2() string { return testdataPath("codec-vectors-2.json") }

func testdataPath(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", name)
}

// file and file2 are the vector files' bytes, each read once per test binary.
var (
	file  = sync.OnceValues(func() ([]byte, error) { return os.ReadFile(Path()) })
	file2 = sync.OnceValues(func() ([]byte, error) { return os.ReadFile(Path2()) })
)

// Load decodes the vector file into a new T: each package declares the parts it reads.
func Load[T any](tb testing.TB) *T { return decode[T](tb, file) }

// Load2 decodes the second vector file into a new T, as Load does the first.
func Load2[T any](tb testing.TB) *T { return decode[T](tb, file2) }

func decode[T any](tb testing.TB, read func() ([]byte, error)) *T {
	tb.Helper()
	b, err := read()
	require.NoError(tb, err)
	v := new(T)
	require.NoError(tb, json.Unmarshal(b, v))
	return v
}

// Vectors is the "vectors" list of a vector file, as each package's file type declares it
// (`Vectors vectortest.Vectors `json:"vectors"“).
type Vectors []map[string]any

// Named returns the vector called name.
func (vs Vectors) Named(tb testing.TB, name string) map[string]any {
	tb.Helper()
	for _, vec := range vs {
		if vec["name"] == name {
			return vec
		}
	}
	tb.Fatalf("no vector %q", name)
	return nil
}

// Select returns the vectors for chain ("X", "P") that have a key.
func (vs Vectors) Select(chain, key string) []map[string]any {
	var out []map[string]any
	for _, vec := range vs {
		if vec["chain"] == chain && vec[key] != nil {
			out = append(out, vec)
		}
	}
	return out
}

// Str returns m[key] as a string, failing the test if it is missing.
func Str(tb testing.TB, m map[string]any, key string) string {
	tb.Helper()
	s, ok := m[key].(string)
	require.True(tb, ok, "missing string %q", key)
	return s
}

// Num returns m[key] as a uint64, failing the test if it is missing.
func Num(tb testing.TB, m map[string]any, key string) uint64 {
	tb.Helper()
	f, ok := m[key].(float64)
	require.True(tb, ok, "missing number %q", key)
	return uint64(f)
}

// Unhex decodes a hex string, with or without a 0x prefix.
func Unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	require.NoError(tb, err)
	return b
}

// CB58 decodes a CB58 ID.
func CB58(tb testing.TB, s string) ids.ID {
	tb.Helper()
	id, err := ids.FromString(s)
	require.NoError(tb, err)
	return id
}

// RawVector returns the vector of vs called name, its values undecoded.
func RawVector(tb testing.TB, vs []map[string]json.RawMessage, name string) map[string]json.RawMessage {
	tb.Helper()
	for _, vec := range vs {
		if string(vec["name"]) == `"`+name+`"` {
			return vec
		}
	}
	tb.Fatalf("no vector %s", name)
	return nil
}

// RawString returns vec[key] decoded as a string.
func RawString(tb testing.TB, vec map[string]json.RawMessage, key string) string {
	tb.Helper()
	var s string
	require.NoError(tb, json.Unmarshal(vec[key], &s))
	return s
}

// LiveSamples are the recorded calls to a live reference node (§8.1), the file's liveNodeSamples.
type LiveSamples struct {
	Calls []struct {
		Endpoint string          `json:"endpoint"`
		Method   string          `json:"method"`
		Params   json.RawMessage `json:"params"`
		Response json.RawMessage `json:"response"`
	} `json:"calls"`
}

// Response returns the live node's whole response to method at endpoint ("/ext/bc/X") with
// params (compact JSON), compacted: the bytes our node must send.
func (l *LiveSamples) Response(tb testing.TB, endpoint, method, params string) string {
	tb.Helper()
	for _, c := range l.Calls {
		if c.Endpoint == endpoint && c.Method == method && Compact(tb, c.Params) == params {
			return Compact(tb, c.Response)
		}
	}
	tb.Fatalf("no live sample of %s %s", method, params)
	return ""
}

// RawFile is the part of the vector file the chains' API tests read, its vectors undecoded.
type RawFile struct {
	Vectors         []map[string]json.RawMessage `json:"vectors"`
	LiveNodeSamples LiveSamples                  `json:"liveNodeSamples"`
}

// Named returns the vector of the file called name, its values undecoded.
func Named(tb testing.TB, name string) map[string]json.RawMessage {
	tb.Helper()
	return RawVector(tb, Load[RawFile](tb).Vectors, name)
}

// SignedTx is what CheckTxVector reads of a parsed signed tx.
type SignedTx interface {
	Bytes() []byte
	Size() int
	ID() ids.ID
	UnsignedBytes() []byte
	UnsignedHash() [32]byte
}

// CheckTxVector parses the tx vector vec's signedBytesHex with parse and checks that it encodes
// back byte for byte, with the vector's size, txID (and txIDHex), unsigned bytes and, where the
// vector has it, unsignedBytesSHA256. It returns the parsed tx.
func CheckTxVector[T SignedTx](tb testing.TB, vec map[string]any, parse func([]byte) (T, error)) T {
	tb.Helper()
	signed := Unhex(tb, Str(tb, vec, "signedBytesHex"))
	tx, err := parse(signed)
	require.NoError(tb, err)
	require.Equal(tb, signed, tx.Bytes())
	require.Equal(tb, len(signed), tx.Size())
	require.Equal(tb, CB58(tb, Str(tb, vec, "txID")), tx.ID())
	if h, ok := vec["txIDHex"].(string); ok {
		id := tx.ID()
		require.Equal(tb, Unhex(tb, h), id[:])
	}
	require.Equal(tb, Unhex(tb, Str(tb, vec, "unsignedBytesHex")), tx.UnsignedBytes())
	if h, ok := vec["unsignedBytesSHA256"].(string); ok {
		digest := tx.UnsignedHash()
		require.Equal(tb, Unhex(tb, h), digest[:])
	}
	return tx
}
