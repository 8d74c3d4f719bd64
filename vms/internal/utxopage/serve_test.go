package utxopage

import (
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/chainapi"
)

var (
	errBadAddr  = errors.New("bad address")
	errInternal = errors.New("internal error")
)

// fakeChain is a chain whose addresses are "A<n>" and which owns mapStore's UTXOs; UTXO 7 has
// bytes no encoding takes.
type fakeChain struct {
	m      mapStore
	shared *atomic.SharedMemory
	lookup chains.ChainLookup
}

// UTXOs implements Chain: "Z" is the chain itself, "S" a chain that exported to it (atomic), any
// other alias unknown.
func (c fakeChain) UTXOs(source string) (Index, error) {
	if source == "" || source == "Z" {
		return c, nil
	}
	return Atomic(c.lookup, c.shared, source)
}

// Pin implements Index: the map is one state.
func (c fakeChain) Pin() (Index, func()) { return c, func() {} }

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
	c := fakeChain{m: mapStore{{1}: {{1}, {2}, {3}}, {2}: {{2}, {4}, {5}, {6}}}, lookup: newRegistry(t)}
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
		{name: "unknown source chain", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, SourceChain: "Q"},
			wantErr: `problem parsing source chainID "Q": there is no ID with alias: Q`},
		{name: "bad address", args: chainapi.GetUTXOsArgs{Addresses: []string{"B1"}}, wantErr: "bad address"},
		{name: "bad start", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, StartIndex: chainapi.Index{Address: "A1", UTXO: "x"}},
			wantErr: "couldn't parse start index utxo: "},
		{name: "bad start address", args: chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, StartIndex: chainapi.Index{Address: "B1", UTXO: ids.ID{1}.String()}},
			wantErr: `couldn't parse start index address "B1": bad address`},
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

// newRegistry returns a registry in which "S" names chain source.
func newRegistry(t *testing.T) *chains.Registry {
	t.Helper()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	r, err := chains.NewRegistry(db.Prefixed(storage.PrefixChains), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	require.NoError(t, r.PreAlias(source, "S"))
	return r
}

// source is the chain that exports to the fake chain in TestServeAtomic.
var source = ids.ID{'s'}

// TestServeAtomic pages the atomic UTXOs another chain exported, as the chain's own are paged.
func TestServeAtomic(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	mem := atomic.New(db.Prefixed(storage.PrefixAtomic))
	self := ids.ID{'z'}
	b := db.NewBatch()
	require.NoError(t, mem.For(source).Apply(b, map[ids.ID]*atomic.Requests{self: {Put: []atomic.Element{
		{Key: ids.ID{1}, Value: []byte{0xa1}, Traits: []ids.ShortID{{1}}},
		{Key: ids.ID{2}, Value: []byte{0xa2}, Traits: []ids.ShortID{{1}, {2}}},
		{Key: ids.ID{3}, Value: []byte{0xa3}, Traits: []ids.ShortID{{2}}},
	}}}))
	require.NoError(t, b.Commit())
	c := fakeChain{shared: mem.For(self), lookup: newRegistry(t)}

	reply, err := Serve(t.Context(), c, &chainapi.GetUTXOsArgs{Addresses: []string{"A2", "A1"}, SourceChain: "S", Encoding: ids.HexNC})
	require.NoError(t, err)
	require.Equal(t, []string{"0xa1", "0xa2", "0xa3"}, reply.UTXOs)
	require.Equal(t, chainapi.Index{Address: "A2", UTXO: ids.ID{3}.String()}, reply.EndIndex)

	reply, err = Serve(t.Context(), c, &chainapi.GetUTXOsArgs{Addresses: []string{"A1", "A2"}, SourceChain: "S", Encoding: ids.HexNC, Limit: 1,
		StartIndex: chainapi.Index{Address: "A1", UTXO: ids.ID{1}.String()}})
	require.NoError(t, err)
	require.Equal(t, []string{"0xa2"}, reply.UTXOs)

	reply, err = Serve(t.Context(), c, &chainapi.GetUTXOsArgs{Addresses: []string{"A1"}, Encoding: ids.HexNC})
	require.NoError(t, err)
	require.Empty(t, reply.UTXOs, "the chain's own UTXOs are not the atomic ones")
}
