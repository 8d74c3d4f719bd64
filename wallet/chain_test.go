package wallet

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/chainapi"
)

// fakeChainServer answers getUTXOs with total UTXOs (each the hex of its index, pageSize a page),
// issueTx with ID {1} and getTxStatus with "Accepted", on service svc at path.
func fakeChainServer(t *testing.T, path, svc string, total int) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, path, r.URL.Path)
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		var result any
		switch req.Method {
		case svc + ".getUTXOs":
			var args chainapi.GetUTXOsArgs
			require.NoError(t, json.Unmarshal(req.Params, &args))
			start := 0
			if args.StartIndex.UTXO != "" {
				n, err := strconv.Atoi(args.StartIndex.UTXO)
				require.NoError(t, err)
				start = n + 1
			}
			reply := chainapi.GetUTXOsReply{UTXOs: []string{}}
			for i := start; i < total && len(reply.UTXOs) < int(args.Limit); i++ {
				reply.UTXOs = append(reply.UTXOs, fmt.Sprintf("0x%02x", i%256))
				reply.EndIndex = chainapi.Index{Address: args.Addresses[0], UTXO: strconv.Itoa(i)}
			}
			result = reply
		case svc + ".issueTx":
			result = chainapi.TxIDReply{TxID: ids.ID{1}}
		case svc + ".getTxStatus":
			result = chainapi.GetTxStatusReply{Status: "Accepted"}
		default:
			t.Errorf("unexpected method %s", req.Method)
		}
		require.NoError(t, json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": 1, "result": result}))
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, srv.Client())
	require.NoError(t, err)
	return c
}

func TestChainAPI(t *testing.T) {
	t.Parallel()
	for _, total := range []int{0, 3, pageSize, pageSize + 5} {
		t.Run(strconv.Itoa(total), func(t *testing.T) {
			t.Parallel()
			c := chainAPI{client: fakeChainServer(t, "/ext/bc/Q", "q", total), path: "/ext/bc/Q", service: "q"}
			got, err := fetchUTXOs(t.Context(), c, "Q-local1x", "", func(b []byte) (byte, error) { return b[0], nil })
			require.NoError(t, err)
			require.Len(t, got, total)
			for i, b := range got {
				require.Equal(t, byte(i%256), b)
			}
			id, err := c.issue(t.Context(), []byte{0})
			require.NoError(t, err)
			require.Equal(t, ids.ID{1}, id)
			st, err := c.status(t.Context(), ids.ID{1})
			require.NoError(t, err)
			require.Equal(t, "Accepted", st)
		})
	}
}

func TestParseChainAddress(t *testing.T) {
	t.Parallel()
	addr := ids.ShortID{4, 5}
	good, err := address.Format("P", "local", addr)
	require.NoError(t, err)
	other, err := address.Format("X", "local", addr)
	require.NoError(t, err)
	tests := []struct {
		name    string
		in      string
		wantErr error
	}{
		{"ok", good, nil},
		{"other chain", other, ErrWrongChain},
		{"garbage", "P-nope", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseChainAddress(tt.in, "P", "local")
			switch {
			case tt.name == "garbage":
				require.Error(t, err)
			case tt.wantErr != nil:
				require.ErrorIs(t, err, tt.wantErr)
			default:
				require.NoError(t, err)
				require.Equal(t, addr, got)
			}
		})
	}
}
