package evm

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
)

// TestPredicateResultsBytes pins the encoding of the results (the reference's Results, codec
// version 0) and round-trips it: transactions in hash order, each with the warp address's bitset.
func TestPredicateResultsBytes(t *testing.T) {
	t.Parallel()
	r := predicateResults{{2}: {0x05}, {1}: {}}
	b := r.bytes()
	require.Equal(t, "0x0000"+"00000002"+
		"01"+zeros(31)+"00000001"+"0200000000000000000000000000000000000005"+"00000000"+
		"02"+zeros(31)+"00000001"+"0200000000000000000000000000000000000005"+"00000001"+"05", hexutil.Encode(b))
	back, err := parsePredicateResults(b)
	require.NoError(t, err)
	require.Equal(t, r, back)

	_, err = parsePredicateResults(append(b, 0))
	require.ErrorIs(t, err, errPredicateResults)
	require.ErrorIs(t, err, codec.ErrTrailingBytes)
	_, err = parsePredicateResults([]byte{0, 0, 0xff, 0xff, 0xff, 0xff})
	require.ErrorIs(t, err, errPredicateResults)
	empty, err := parsePredicateResults((predicateResults{}).bytes())
	require.NoError(t, err)
	require.Empty(t, empty)
}

func zeros(n int) string {
	s := ""
	for range n {
		s += "00"
	}
	return s
}

// FuzzPredicateResults: parsing never panics, and what parses with only the warp address and
// hashes in order re-encodes to its input.
func FuzzPredicateResults(f *testing.F) {
	f.Add(predicateResults{{2}: {0x05}, {1}: {}}.bytes())
	f.Add(predicateResults{common.Hash{}: nil}.bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parsePredicateResults(b)
		if err != nil {
			return
		}
		again, err := parsePredicateResults(r.bytes())
		require.NoError(t, err)
		require.Equal(t, len(r), len(again))
	})
}
