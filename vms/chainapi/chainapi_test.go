package chainapi

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// TestJSON pins the bytes both chains send and checks that they read back.
func TestJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		new  func() any
		want string
	}{
		{"TxIDReply", &TxIDReply{TxID: ids.ID{1}}, func() any { return &TxIDReply{} },
			`{"txID":"` + ids.ID{1}.String() + `"}`},
		{"GetHeightReply", &GetHeightReply{Height: 7}, func() any { return &GetHeightReply{} }, `{"height":"7"}`},
		{"GetTxReply", &GetTxReply{Tx: json.RawMessage(`"0x00"`), Encoding: ids.Hex}, func() any { return &GetTxReply{} },
			`{"tx":"0x00","encoding":"hex"}`},
		{"GetUTXOsReply", &GetUTXOsReply{NumFetched: 1, UTXOs: []string{"0x01"}, EndIndex: Index{Address: "X-a", UTXO: "u"}, Encoding: ids.HexNC},
			func() any { return &GetUTXOsReply{} },
			`{"numFetched":"1","utxos":["0x01"],"endIndex":{"address":"X-a","utxo":"u"},"encoding":"hexnc"}`},
		{"UTXORef", &UTXORef{TxID: ids.ID{2}, OutputIndex: 3}, func() any { return &UTXORef{} },
			`{"txID":"` + ids.ID{2}.String() + `","outputIndex":3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.v)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(b))
			back := tt.new()
			require.NoError(t, json.Unmarshal(b, back))
			require.Equal(t, tt.v, back)
		})
	}
}
