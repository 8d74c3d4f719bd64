package utxopage

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/chainapi"
)

var (
	errBadAddr  = errors.New("bad address")
	errInternal = errors.New("internal error")
)

// fakeChain is a chain whose addresses are "A<n>" and which owns mapStore's UTXOs; UTXO 7 has
// bytes no encoding takes.
type fakeChain struct{ m mapStore }

func (fakeChain) IsThisChain(alias string) bool { return alias == "Z" }

func (fakeChain) ParseAddress(s string) (ids.ShortID, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "A"))
	if err != nil || !strings.HasPrefix(s, "A") {
		return ids.ShortID{}, errBadAddr
	}
	return ids.ShortID{byte(n)}, nil
}

func (fakeChain) FormatAddress(addr ids.ShortID) (string, error) {
	return "A" + strconv.Itoa(int(addr[0])), nil
}

func (c fakeChain) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	return c.m.UTXOIDs(addr, start, n)
}

func (fakeChain) UTXOBytes(id ids.ID) ([]byte, bool, error) {
	return []byte{id[0]}, id[0] != 5, nil
}

func (fakeChain) EncodeError(enc ids.Encoding, err error) error {
	return errors.New("encode " + enc.String())
}

func (fakeChain) Internal(error) error { return errInternal }

func TestServe(t *testing.T) {
	t.Parallel()
	c := fakeChain{m: mapStore{{1}: {{1}, {2}, {3}}, {2}: {{2}, {4}, {5}, {6}}}}
	tooMany := make([]string, MaxAddresses+1)
	for i := range tooMany {
		tooMany[i] = "A1"
	}
	tests := []struct {
		name    string
		args    chainapi.GetUTXOsArgs
		want    []string
		wantEnd chainapi.Index
		wantErr string
	}{
		{name: "none", wantErr: "no addresses provided"},
		{name: "too many", args: chainapi.GetUTXOsArgs{Addresses: tooMany},
			wantErr: "number of addresses given, 1025, exceeds maximum, 1024"},
		{name: "other chain", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, SourceChain: "Q"},
			wantErr: "atomic UTXOs are not supported: sourceChain must be empty or this chain"},
		{name: "bad address", args: chainapi.GetUTXOsArgs{Addresses: []string{"B1"}}, wantErr: "bad address"},
		{name: "bad start", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, StartIndex: chainapi.Index{Address: "A1", UTXO: "x"}},
			wantErr: "couldn't parse start index: "},
		{name: "all, deduplicated", args: chainapi.GetUTXOsArgs{Addresses: []string{"A2", "A1", "A2"}, SourceChain: "Z", Encoding: ids.HexNC},
			want: []string{"0x01", "0x02", "0x03", "0x04", "0x06"}, wantEnd: chainapi.Index{Address: "A2", UTXO: ids.ID{6}.String()}},
		{name: "limited", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, Limit: 2, Encoding: ids.HexNC},
			want: []string{"0x01", "0x02"}, wantEnd: chainapi.Index{Address: "A1", UTXO: ids.ID{2}.String()}},
		{name: "resumed", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1", "A2"}, Encoding: ids.HexNC,
			StartIndex: chainapi.Index{Address: "A2", UTXO: ids.ID{2}.String()}},
			want: []string{"0x04", "0x06"}, wantEnd: chainapi.Index{Address: "A2", UTXO: ids.ID{6}.String()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reply, err := Serve(t.Context(), c, &tt.args)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, reply.UTXOs)
			require.Equal(t, uint64(len(tt.want)), uint64(reply.NumFetched))
			require.Equal(t, tt.wantEnd, reply.EndIndex)
			require.Equal(t, tt.args.Encoding, reply.Encoding)
		})
	}
}
