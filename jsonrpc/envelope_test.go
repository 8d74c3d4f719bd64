package jsonrpc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// envelopeSeeds are bodies for the envelope tests and fuzzers.
var envelopeSeeds = []string{
	``,
	` `,
	`{`,
	`{}`,
	`null`,
	`5`,
	`[]`,
	"\ufeff{}",
	`{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}`,
	`{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"} trailing`,
	` {"jsonrpc" : "2.0" , "id" : [ 1 , 2 ] , "method" : "info.x" , "params" : { "a" : [ "}" , "\"" ] } }`,
	`{"jsonrpc":"2.0","id":null,"method":"info.x","params":null}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"info.x"}`,
	`{"jsonrpc":"2.0","id":01,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":1.5e3,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":tru,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":nullx,"method":"info.x"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":1,"id":2}`,
	`{"jsonrpc":2,"id":1}`,
	`{"jsonrpc":"2.0","method":"a\u0062"}`,
	`{"jsonrpc":"2.0","method":"é"}`,
	`{"jsonrpc":"2.0","id":1,"method":"info.x",}`,
	`{"jsonrpc":"2.0","id":1 "method":"info.x"}`,
	`{"jsonrpc":"2.0","params":{"a":1]}`,
	`{"jsonrpc":"2.0","params":[{"a":"\u00"}]}`,
	`{"jsonrpc":"2.0","params":"\x01"}`,
	`{"jsonrpc":"2.0","id":-}`,
	`{"jsonrpc":"2.0","id":"x`,
	`{"jsonrpc":"2.0","id":{"a":{"b":{"c":[[[[]]]]}}}}`,
	// Ids the fast path validates by hand: numbers by their grammar, strings without escapes.
	`{"jsonrpc":"2.0","id":-0,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":0.5E+3,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":-12.0e-7,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":1.,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":1e,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":1e+,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":.5,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":+1,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":-a,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":1x,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":true,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":False,"method":"info.x"}`,
	`{"jsonrpc":"2.0","id":"","method":"info.x"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"info.x\"}",
	"{\"jsonrpc\":\"2.0\",\"id\":\"a\tb\",\"method\":\"info.x\"}",
	`{"jsonrpc":"2.0","id":"<a&b>","method":"info.x"}`,
	`{"jsonrpc":"2.0","id":"a\u00e9","method":"info.x"}`,
}

// TestScanEnvelope checks that the fast path decodes what encoding/json decodes, and declines what it
// does not handle.
func TestScanEnvelope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		body   string
		fast   bool
		method string
		id     string
		params string
	}{
		{name: "plain", body: `{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}`, fast: true, method: "info.getNodeID", id: "1"},
		{name: "spaces", body: " \t{ \"id\" : [ 1 ] ,\n\"params\" : { } , \"jsonrpc\":\"2.0\" }x", fast: true, id: "[ 1 ]", params: "{ }"},
		{name: "null id and params", body: `{"id":null,"params":null}`, fast: true},
		{name: "empty object", body: `{}`, fast: true},
		{name: "upper-case key", body: `{"ID":1}`},
		{name: "unknown key", body: `{"x":1}`},
		{name: "duplicate", body: `{"id":1,"id":2}`},
		{name: "escaped method", body: `{"method":"\u0061"}`},
		{name: "non-ASCII method", body: `{"method":"é"}`},
		{name: "number method", body: `{"method":1}`},
		{name: "bad id", body: `{"id":01}`},
		{name: "number id", body: `{"id":-1.5e+3}`, fast: true, id: "-1.5e+3"},
		{name: "bad number id", body: `{"id":1.}`},
		{name: "string id", body: `{"id":"a<b"}`, fast: true, id: `"a<b"`},
		{name: "string id with control", body: "{\"id\":\"a\tb\"}"},
		{name: "escaped string id", body: `{"id":"a\"b"}`, fast: true, id: `"a\"b"`},
		{name: "literal id", body: `{"id":false}`, fast: true, id: "false"},
		{name: "bad literal id", body: `{"id":fals}`},
		{name: "truncated", body: `{"id":1`},
		{name: "not an object", body: `[]`},
		{name: "empty", body: ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, ok := scanEnvelope([]byte(tt.body))
			require.Equal(t, tt.fast, ok)
			if !ok {
				return
			}
			require.Equal(t, tt.method, string(env.method))
			require.Equal(t, tt.id, string(env.id))
			require.Equal(t, tt.params, string(env.params))
			requireSameEnvelope(t, []byte(tt.body))
		})
	}
}

// requireSameEnvelope checks that, where the fast path accepts body, it gives what encoding/json
// gives; and that parseEnvelope's lazy scan accepts what the fast path accepts, and otherwise
// leaves only params that make the body invalid JSON, which check finds.
func requireSameEnvelope(t *testing.T, body []byte) {
	t.Helper()
	slow := decodeEnvelope(body)
	lazy, lazyOK := scanEnvelopeLazy(body, true)
	fast, ok := scanEnvelope(body)
	if ok {
		require.True(t, lazyOK, "lazy scan refused %q", body)
	}
	if lazyOK && !ok {
		require.True(t, lazy.unchecked, "lazy scan accepted %q, the fast path did not", body)
		require.Error(t, slow.parseErr, "lazy scan of %q left params unchecked that are valid", body)
		checked := parseEnvelope(body)
		checked.check()
		require.Equal(t, slow, checked, "check of %q", body)
	}
	if !ok {
		return
	}
	require.NoError(t, slow.parseErr, "fast path accepted %q", body)
	require.Equal(t, string(slow.version), string(fast.version), "version of %q", body)
	require.Equal(t, string(slow.method), string(fast.method), "method of %q", body)
	require.Equal(t, slow.params == nil, fast.params == nil, "params of %q", body)
	require.Equal(t, string(slow.params), string(fast.params), "params of %q", body)
	require.Equal(t, slow.id == nil, fast.id == nil, "id of %q", body)
	require.Equal(t, string(slow.id), string(fast.id), "id of %q", body)
}

// FuzzScanEnvelope checks the fast path against encoding/json on random bodies.
func FuzzScanEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		requireSameEnvelope(t, body)
	})
}
