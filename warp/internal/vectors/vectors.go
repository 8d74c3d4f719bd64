// Package vectors loads the warp vectors of testdata/codec-vectors-2.json for the tests of
// package warp and its subpackages.
package vectors

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Vector is one entry of the file's vectors list, as raw JSON fields.
type Vector map[string]json.RawMessage

// Load returns the vector named name, failing t if there is none.
func Load(t testing.TB, name string) Vector {
	t.Helper()
	b := readFile(t)
	var f struct {
		Vectors []Vector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for _, v := range f.Vectors {
		if v.String(t, "name") == name {
			return v
		}
	}
	t.Fatalf("no vector %s", name)
	return nil
}

// String returns field key as a string.
func (v Vector) String(t testing.TB, key string) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(v[key], &s); err != nil {
		t.Fatalf("field %s: %v", key, err)
	}
	return s
}

// Hex returns field key, a 0x-hex string, as bytes.
func (v Vector) Hex(t testing.TB, key string) []byte {
	t.Helper()
	return Hex(t, v.String(t, key))
}

// Sub returns the object in field key.
func (v Vector) Sub(t testing.TB, key string) Vector {
	t.Helper()
	var s Vector
	if err := json.Unmarshal(v[key], &s); err != nil {
		t.Fatalf("field %s: %v", key, err)
	}
	return s
}

// Decode unmarshals field key into dst.
func (v Vector) Decode(t testing.TB, key string, dst any) {
	t.Helper()
	if err := json.Unmarshal(v[key], dst); err != nil {
		t.Fatalf("field %s: %v", key, err)
	}
}

// Hex decodes a 0x-hex string.
func Hex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		t.Fatalf("hex %q: %v", s, err)
	}
	return b
}

// Staker is one of the local network's stakers in the file's keys section.
type Staker struct {
	BLSSecretKeyHex          string `json:"blsSecretKeyHex"`
	BLSPublicKeyCompressed   string `json:"blsPublicKeyCompressed"`
	BLSPublicKeyUncompressed string `json:"blsPublicKeyUncompressed"`
	NodeID                   string `json:"nodeID"`
}

// Stakers returns the local stakers by name (staker1 … staker5).
func Stakers(t testing.TB) map[string]Staker {
	t.Helper()
	b := readFile(t)
	var f struct {
		Keys struct {
			LocalStakers map[string]json.RawMessage `json:"localStakers"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]Staker)
	for name, raw := range f.Keys.LocalStakers {
		var s Staker
		if json.Unmarshal(raw, &s) == nil && s.BLSSecretKeyHex != "" {
			out[name] = s
		}
	}
	return out
}

// readFile returns the vector file, the project's copy in testdata/.
func readFile(t testing.TB) []byte {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "codec-vectors-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
