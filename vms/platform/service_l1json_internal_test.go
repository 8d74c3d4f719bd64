package platform

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// TestL1ValidatorReplyMatchesJSON checks that getCurrentValidators' text form of an L1 validator
// encodes to the same bytes as APIL1Validator (l1ValidatorJSON), across a run of validators that
// share, change and come back to owners, so that the owner memo is reused and replaced.
func TestL1ValidatorReplyMatchesJSON(t *testing.T) {
	t.Parallel()
	s := &service{vm: &VM{hrp: "local"}, addrs: newAddressCache("local")}
	a, b, c := ids.ShortID{1}, ids.ShortID{0xff, 2}, ids.ShortID{19: 3}
	one := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{a}}
	vals := []struct {
		name     string
		rbo, do  txs.PChainOwner
		weight   uint64
		start    uint64
		balance  uint64
		nodeByte byte
	}{
		{name: "one owner for both", rbo: one, do: one, weight: 1, start: 1_700_000_000, balance: 5, nodeByte: 1},
		{name: "same owner again", rbo: one, do: one, weight: 2, start: 1_700_000_000, balance: 0, nodeByte: 2},
		{name: "two owners", rbo: one, do: txs.PChainOwner{Threshold: 2, Addresses: []ids.ShortID{a, b}}, weight: 3, nodeByte: 3},
		{name: "same addresses, other threshold", rbo: txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{a, b}}, do: txs.PChainOwner{Threshold: 2, Addresses: []ids.ShortID{a, b}}, weight: 4, nodeByte: 4},
		{name: "empty owners", rbo: txs.PChainOwner{}, do: txs.PChainOwner{Addresses: []ids.ShortID{}}, weight: 5, nodeByte: 5},
		{name: "largest numbers", rbo: txs.PChainOwner{Threshold: math.MaxUint32, Addresses: []ids.ShortID{a, b, c}}, do: one,
			weight: math.MaxUint64, start: math.MaxUint64, balance: math.MaxUint64, nodeByte: 0xff},
		{name: "back to the first owner", rbo: one, do: one, weight: 7, nodeByte: 7},
	}
	var memo ownerMemo
	for i, tt := range vals {
		v := L1Validator{
			ValidationID:          ids.ID{byte(i), 0xaa},
			SubnetID:              ids.ID{9},
			NodeID:                ids.NodeID{tt.nodeByte},
			PublicKey:             [txs.BLSPublicKeyLen]byte{0x80, byte(i)},
			Weight:                tt.weight,
			StartTime:             tt.start,
			Balance:               tt.balance,
			RemainingBalanceOwner: tt.rbo,
			DeactivationOwner:     tt.do,
		}
		want, err := s.l1ValidatorJSON(&v)
		require.NoError(t, err, tt.name)
		got, err := s.l1ValidatorReply(&v, &memo)
		require.NoError(t, err, tt.name)
		wantJSON, err := json.Marshal(want)
		require.NoError(t, err, tt.name)
		gotJSON, err := json.Marshal(got)
		require.NoError(t, err, tt.name)
		require.Equal(t, string(wantJSON), string(gotJSON), tt.name)
	}
}

// TestAddressCache checks that cached addresses format as address.Format does and that the cache
// stays within maxCachedAddresses.
func TestAddressCache(t *testing.T) {
	t.Parallel()
	c := newAddressCache("fuji")
	for i := range maxCachedAddresses + 100 {
		addr := ids.ShortID{byte(i), byte(i >> 8)}
		want, err := address.Format(txs.ChainAlias, "fuji", addr)
		require.NoError(t, err)
		for range 2 { // formatted, then cached
			got, err := c.format(addr)
			require.NoError(t, err)
			require.Equal(t, want, got)
		}
		require.LessOrEqual(t, len(c.m), maxCachedAddresses)
	}
	require.Len(t, c.m, maxCachedAddresses)

	got, err := c.formatAll(nil)
	require.NoError(t, err)
	require.NotNil(t, got, "addresses always encode as a list")
	require.Empty(t, got)
}

// TestEachL1Validator checks the walk over stored L1 validators: every asked validator in order,
// whether its neighbours in ID order belong to other subnets or not, falling back to a Get each
// when they mostly do, and an error for a missing one.
func TestEachL1Validator(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	s := newState(db.Prefixed(storage.PrefixPlatform), nil, 0)
	mine, other := ids.ID{1}, ids.ID{2}

	// IDs 0x00…0x3f: every fourth is mine, so a walk over mine steps over three others each.
	var all, sparse, dense []ids.ID
	b := s.DB().NewBatch()
	for i := range 64 {
		id := ids.ID{byte(i)}
		subnet := other
		if i%4 == 0 {
			subnet = mine
			sparse = append(sparse, id)
		}
		v := &l1Validator{validationID: id, subnetID: subnet, weight: uint64(i) + 1,
			remainingBalanceOwner: txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{{byte(i)}}}}
		raw, err := v.bytes()
		require.NoError(t, err)
		require.NoError(t, b.Put(chainstate.IDKey(keyL1, id), raw))
		all = append(all, id)
		if i >= 10 && i < 20 {
			dense = append(dense, id)
		}
	}
	require.NoError(t, b.Commit())
	b.Close()

	tests := []struct {
		name string
		vids []ids.ID
		err  string
	}{
		{name: "none", vids: nil},
		{name: "every one", vids: all},
		{name: "a contiguous run", vids: dense},
		{name: "mostly others' in between: falls back to gets", vids: sparse},
		{name: "first and last", vids: []ids.ID{all[0], all[63]}},
		{name: "missing in the middle", vids: []ids.ID{all[1], {byte(1), 1}, all[3]}, err: "is missing"},
		{name: "missing at the end", vids: []ids.ID{all[1], {0xff}}, err: "is missing"},
		{name: "missing after the fallback", vids: []ids.ID{all[0], all[63], {0xff}}, err: "is missing"},
	}
	for _, tt := range tests {
		var got []ids.ID
		err := s.eachL1Validator(mine, tt.vids, func(v *l1Validator) error {
			require.Equal(t, uint64(v.validationID[0])+1, v.weight, tt.name)
			require.Equal(t, []ids.ShortID{{v.validationID[0]}}, v.remainingBalanceOwner.Addresses, tt.name)
			got = append(got, v.validationID)
			return nil
		})
		if tt.err != "" {
			require.ErrorContains(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		require.Equal(t, tt.vids, got, tt.name)
	}

	stop := errors.New("stop")
	require.ErrorIs(t, s.eachL1Validator(mine, all, func(*l1Validator) error { return stop }), stop)
}
