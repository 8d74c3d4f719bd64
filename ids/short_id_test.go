package ids

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShortID(t *testing.T) {
	t.Parallel()
	require.Equal(t, "111111111111111111116DBWJs", ShortEmpty.String())

	id := ShortID{0xde, 0xad, 0xbe, 0xef}
	parsed, err := ShortFromString(id.String())
	require.NoError(t, err)
	require.Equal(t, id, parsed)

	_, err = ShortFromString(Empty.String())
	require.ErrorIs(t, err, ErrInvalidHashLen)
	require.EqualError(t, err, "invalid hash length: expected 20 bytes but got 32")

	_, err = ToShortID(make([]byte, 19))
	require.EqualError(t, err, "invalid hash length: expected 20 bytes but got 19")

	require.Equal(t, -1, ShortEmpty.Compare(id))
	require.Equal(t, 1, id.Compare(ShortEmpty))
}

func TestShortIDEncodings(t *testing.T) {
	t.Parallel()
	id := ShortID{1, 2, 3}
	requireEncodings(t, id, `"`+id.String()+`"`)
	requireJSONRefused[ShortID](t, []badJSON{{name: "no quotes", in: "x", wantErr: ErrMissingQuotes}})
}
