package utxopage

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// mapStore owns UTXOs 1..n per address; UTXO 5 of every address is spent.
type mapStore map[ids.ShortID][]ids.ID

func (m mapStore) UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error) {
	var out []ids.ID
	for _, id := range m[addr] {
		if id.Compare(start) > 0 && len(out) < n {
			out = append(out, id)
		}
	}
	return out, nil
}

func (m mapStore) UTXO(id ids.ID) (string, bool, error) {
	return strconv.Itoa(int(id[0])), id[0] != 5, nil
}

func TestWalkPages(t *testing.T) {
	t.Parallel()
	a, b := ids.ShortID{1}, ids.ShortID{2}
	store := mapStore{}
	for i := byte(1); i <= 6; i++ {
		store[a] = append(store[a], ids.ID{i})
	}
	store[b] = []ids.ID{{3}, {7}} // UTXO 3 is owned by both

	var got []string
	startAddr, startUTXO := ids.ShortID{}, ids.ID{}
	for range 10 {
		page, err := Walk(t.Context(), store, []ids.ShortID{a, b}, startAddr, startUTXO, 2)
		require.NoError(t, err)
		if len(page.UTXOs) == 0 {
			break
		}
		got = append(got, page.UTXOs...)
		startAddr, startUTXO = page.LastAddr, page.LastUTXO
	}
	// Pages follow the index; a UTXO of two addresses is listed once per page, so across pages
	// it comes again under the second address, as on the reference node.
	require.Equal(t, []string{"1", "2", "3", "4", "6", "3", "7"}, got)
	require.True(t, slices.IsSorted(got[:5]))

	// Within one page, each UTXO once; the spent one is skipped.
	page, err := Walk(t.Context(), store, []ids.ShortID{a, b}, ids.ShortID{}, ids.ID{}, 100)
	require.NoError(t, err)
	require.Equal(t, []string{"1", "2", "3", "4", "6", "7"}, page.UTXOs)
	require.Equal(t, b, page.LastAddr)
	require.Equal(t, ids.ID{7}, page.LastUTXO)
}
