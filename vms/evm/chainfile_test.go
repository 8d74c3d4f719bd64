package evm

import (
	"math"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

func TestParseChainFile(t *testing.T) {
	t.Parallel()
	recipient := common.HexToAddress("0x00000000000000000000000000000000000fee02")
	u64 := func(v uint64) *uint64 { return &v }
	i64 := func(v int64) *int64 { return &v }
	tests := []struct {
		name    string
		in      string
		cChain  bool // the C-Chain's keys, not an L1's
		want    chainFile
		wantErr string
	}{
		{name: "none", in: "", want: chainFile{}},
		{name: "null", in: " null\n", want: chainFile{}},
		{name: "empty object", in: "{}", want: chainFile{}},
		{
			name: "every key",
			in:   `{"feeRecipient":"0x00000000000000000000000000000000000fee02","rpc-gas-cap":100000,"api-max-blocks-per-request":7}`,
			want: chainFile{feeRecipient: &recipient, rpcGasCap: u64(100_000), apiMaxBlocksPerRequest: i64(7)},
		},
		{name: "empty fee recipient", in: `{"feeRecipient":""}`, want: chainFile{}},
		{
			name: "every C-Chain key", cChain: true,
			in:   `{"gas-target":1000000000,"rpc-gas-cap":100000,"api-max-blocks-per-request":7}`,
			want: chainFile{gasTarget: u64(1_000_000_000), rpcGasCap: u64(100_000), apiMaxBlocksPerRequest: i64(7)},
		},
		{name: "gas target null: no preference", cChain: true, in: `{"gas-target":null}`, want: chainFile{}},
		{name: "gas target 0", cChain: true, in: `{"gas-target":0}`, want: chainFile{gasTarget: u64(0)}},
		{
			name: "the other kind's keys are unknown", cChain: true,
			in:   `{"feeRecipient":"0x00000000000000000000000000000000000fee02"}`,
			want: chainFile{unknown: []string{"feeRecipient"}},
		},
		{name: "gas target on an L1: unknown", in: `{"gas-target":5}`, want: chainFile{unknown: []string{"gas-target"}}},
		{name: "gas target negative", cChain: true, in: `{"gas-target":-1}`, wantErr: "gas-target: json: cannot unmarshal number -1 into Go value of type uint64"},
		{
			name: "unknown keys, sorted",
			in:   `{"pruning-enabled":false,"log-level":"debug","rpc-gas-cap":0}`,
			want: chainFile{rpcGasCap: u64(0), unknown: []string{"log-level", "pruning-enabled"}},
		},
		{name: "malformed", in: `{"rpc-gas-cap":`, wantErr: "unexpected end of JSON input"},
		{name: "not an object", in: `[1]`, wantErr: "json: cannot unmarshal array into Go value of type map[string]json.RawMessage"},
		{name: "wrong type", in: `{"rpc-gas-cap":"50"}`, wantErr: "rpc-gas-cap: json: cannot unmarshal string into Go value of type uint64"},
		{name: "bad address", in: `{"feeRecipient":"0x12"}`, wantErr: `feeRecipient: not an address: "0x12"`},
		{name: "negative cap", in: `{"api-max-blocks-per-request":-1}`, wantErr: "api-max-blocks-per-request: negative: -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			keys := l1FileKeys
			if tt.cChain {
				keys = cChainFileKeys
			}
			got, err := parseChainFile([]byte(tt.in), keys)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestChainFileApply(t *testing.T) {
	t.Parallel()
	node := Config{Coinbase: common.Address{1}, RPCGasCap: 10, LogsBlockRangeCap: 20}
	u64 := func(v uint64) *uint64 { return &v }
	i64 := func(v int64) *int64 { return &v }
	recipient := common.Address{2}
	tests := []struct {
		name string
		f    chainFile
		want Config
	}{
		{"nothing: the node's", chainFile{}, node},
		{"fee recipient", chainFile{feeRecipient: &recipient}, Config{Coinbase: recipient, RPCGasCap: 10, LogsBlockRangeCap: 20}},
		{"caps", chainFile{rpcGasCap: u64(5), apiMaxBlocksPerRequest: i64(6)}, Config{Coinbase: common.Address{1}, RPCGasCap: 5, LogsBlockRangeCap: 6}},
		{"gas target", chainFile{gasTarget: u64(7)}, Config{Coinbase: common.Address{1}, RPCGasCap: 10, LogsBlockRangeCap: 20, GasTarget: u64(7)}},
		{"zero caps: none", chainFile{rpcGasCap: u64(0), apiMaxBlocksPerRequest: i64(0)}, Config{Coinbase: common.Address{1}, RPCGasCap: math.MaxUint64 / 2, LogsBlockRangeCap: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, tt.f.apply(node))
		})
	}
}

// FuzzParseChainFile: decoding never panics, and what it accepts applies
// to a Config that still validates.
func FuzzParseChainFile(f *testing.F) {
	f.Add([]byte(`{"feeRecipient":"0x00000000000000000000000000000000000fee02","rpc-gas-cap":100000,"api-max-blocks-per-request":7}`))
	f.Add([]byte(`{"rpc-gas-cap":0,"api-max-blocks-per-request":0,"other":[1,2]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"feeRecipient":1}`))
	f.Add([]byte(`{"gas-target":1000000000}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cf, err := parseChainFile(b, l1FileKeys)
		if c, cerr := parseChainFile(b, cChainFileKeys); cerr == nil {
			require.NoError(t, c.apply(Config{}).withDefaults().validate())
		}
		if err != nil {
			return
		}
		cfg := cf.apply(Config{}).withDefaults()
		require.NoError(t, cfg.validate())
		require.NotZero(t, cfg.RPCGasCap)
		require.NotZero(t, cfg.LogsBlockRangeCap)
	})
}
