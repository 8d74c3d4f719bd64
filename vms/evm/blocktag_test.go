package evm

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"
)

func TestBlockNumberOrHashDecode(t *testing.T) {
	t.Parallel()
	h := common.HexToHash("0x0102030405060708091011121314151617181920212223242526272829303132")
	num := func(n rpc.BlockNumber) rpc.BlockNumberOrHash { return rpc.BlockNumberOrHashWithNumber(n) }
	tests := []struct {
		name    string
		in      string
		want    rpc.BlockNumberOrHash
		wantErr string
	}{
		{"accepted", `"accepted"`, num(rpc.FinalizedBlockNumber), ""},
		{"finalized", `"finalized"`, num(rpc.FinalizedBlockNumber), ""},
		{"safe", `"safe"`, num(rpc.SafeBlockNumber), ""},
		{"latest", `"latest"`, num(rpc.LatestBlockNumber), ""},
		{"pending", `"pending"`, num(rpc.PendingBlockNumber), ""},
		{"earliest", `"earliest"`, num(rpc.EarliestBlockNumber), ""},
		{"number", `"0x10"`, num(16), ""},
		{"hash", `"` + h.Hex() + `"`, rpc.BlockNumberOrHashWithHash(h, false), ""},
		{"object hash", `{"blockHash":"` + h.Hex() + `","requireCanonical":true}`, rpc.BlockNumberOrHashWithHash(h, true), ""},
		{"object number", `{"blockNumber":"0x1"}`, num(1), ""},
		{"object accepted", `{"blockNumber":"accepted"}`, num(rpc.FinalizedBlockNumber), ""},
		{"both", `{"blockNumber":"0x1","blockHash":"` + h.Hex() + `"}`, rpc.BlockNumberOrHash{}, "cannot specify both BlockHash and BlockNumber, choose one or the other"},
		{"neither", `{}`, rpc.BlockNumberOrHash{}, "must specify either BlockHash or BlockNumber"},
		{"too high", `"0x8000000000000000"`, rpc.BlockNumberOrHash{}, "blocknumber too high"},
		{"unknown tag", `"tip"`, rpc.BlockNumberOrHash{}, "hex string without 0x prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b blockNumberOrHash
			err := json.Unmarshal([]byte(tt.in), &b)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, b.BlockNumberOrHash)
		})
	}
}

func TestBlockNumberDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want rpc.BlockNumber
	}{
		{`"accepted"`, rpc.FinalizedBlockNumber},
		{` "accepted" `, rpc.FinalizedBlockNumber},
		{`"finalized"`, rpc.FinalizedBlockNumber},
		{`"earliest"`, rpc.EarliestBlockNumber},
		{`"0x2a"`, 42},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var n blockNumber
			require.NoError(t, json.Unmarshal([]byte(tt.in), &n))
			require.Equal(t, tt.want, rpc.BlockNumber(n))
			enc, err := json.Marshal(n)
			require.NoError(t, err)
			var back blockNumber
			require.NoError(t, json.Unmarshal(enc, &back))
			require.Equal(t, n, back)
		})
	}
}

// FuzzBlockNumberOrHash: decoding never panics, and what decodes encodes
// to JSON that decodes to the same value.
func FuzzBlockNumberOrHash(f *testing.F) {
	for _, s := range []string{`"accepted"`, `"latest"`, `"0x1"`, `{"blockNumber":"accepted"}`,
		`{"blockHash":"0x0102030405060708091011121314151617181920212223242526272829303132","requireCanonical":true}`,
		`"0x0102030405060708091011121314151617181920212223242526272829303132"`, `{}`, `null`, `7`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b blockNumberOrHash
		if err := json.Unmarshal(data, &b); err != nil {
			return
		}
		enc, err := json.Marshal(b)
		require.NoError(t, err)
		var back blockNumberOrHash
		require.NoError(t, json.Unmarshal(enc, &back), "%s", enc)
		require.Equal(t, b, back)
	})
}
