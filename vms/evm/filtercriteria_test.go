package evm

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"
)

func TestFilterCriteriaDecode(t *testing.T) {
	t.Parallel()
	a1 := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	t1 := common.HexToHash("0x01")
	t2 := common.HexToHash("0x02")
	h := common.HexToHash("0xff")
	bn := func(n rpc.BlockNumber) *rpc.BlockNumber { return &n }
	tests := []struct {
		name    string
		in      string
		want    filterCriteria
		wantErr string
	}{
		{"empty", `{}`, filterCriteria{Addresses: []common.Address{}}, ""},
		{"one address", `{"address":"` + a1.Hex() + `"}`, filterCriteria{Addresses: []common.Address{a1}}, ""},
		{"address list", `{"address":["` + a1.Hex() + `"]}`, filterCriteria{Addresses: []common.Address{a1}}, ""},
		{"range with tags", `{"fromBlock":"earliest","toBlock":"accepted"}`, filterCriteria{Addresses: []common.Address{}, FromBlock: bn(rpc.EarliestBlockNumber), ToBlock: bn(rpc.FinalizedBlockNumber)}, ""},
		{"block hash", `{"blockHash":"` + h.Hex() + `"}`, filterCriteria{Addresses: []common.Address{}, BlockHash: &h}, ""},
		{"topics", `{"topics":[null,"` + t1.Hex() + `",["` + t1.Hex() + `","` + t2.Hex() + `"],["` + t1.Hex() + `",null]]}`,
			filterCriteria{Addresses: []common.Address{}, Topics: [][]common.Hash{nil, {t1}, {t1, t2}, nil}}, ""},
		{"hash and range", `{"blockHash":"` + h.Hex() + `","toBlock":"0x1"}`, filterCriteria{}, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other"},
		{"five topics", `{"topics":[null,null,null,null,null]}`, filterCriteria{}, "exceed max topics"},
		{"bad topic", `{"topics":[1]}`, filterCriteria{}, "invalid topic(s)"},
		{"short topic", `{"topics":["0x01"]}`, filterCriteria{}, "hex has invalid length 1 after decoding; expected 32 for topic"},
		{"short address", `{"address":"0x01"}`, filterCriteria{}, "invalid address: hex has invalid length 1 after decoding; expected 20 for address"},
		{"address at index", `{"address":["` + a1.Hex() + `","0x"]}`, filterCriteria{}, "invalid address at index 1: hex has invalid length 0 after decoding; expected 20 for address"},
		{"non-string address", `{"address":[1]}`, filterCriteria{}, "non-string address at index 0"},
		{"address object", `{"address":{}}`, filterCriteria{}, "invalid addresses in query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c filterCriteria
			err := json.Unmarshal([]byte(tt.in), &c)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, c)
		})
	}
}

// FuzzFilterCriteria: decoding never panics, and what decodes encodes to
// JSON that decodes to the same criteria.
func FuzzFilterCriteria(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"address":"0x00000000000000000000000000000000000000a1","fromBlock":"0x1","toBlock":"accepted"}`,
		`{"topics":[null,"0x0000000000000000000000000000000000000000000000000000000000000001",["0x0000000000000000000000000000000000000000000000000000000000000002",null]]}`,
		`{"blockHash":"0x00000000000000000000000000000000000000000000000000000000000000ff"}`,
		`{"address":["0x00000000000000000000000000000000000000a1"],"topics":[[]]}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c filterCriteria
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		enc, err := json.Marshal(c)
		require.NoError(t, err)
		var back filterCriteria
		require.NoError(t, json.Unmarshal(enc, &back), "%s", enc)
		require.Equal(t, c, back)
	})
}
