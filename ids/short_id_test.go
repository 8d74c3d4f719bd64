package ids

import (
	"encoding/json"
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

func TestShortIDMarshalRoundTrip(t *testing.T) {
	t.Parallel()
	id := ShortID{1, 2, 3}

	b, err := json.Marshal(id)
	require.NoError(t, err)
	require.Equal(t, `"`+id.String()+`"`, string(b))
	var fromJSON ShortID
	require.NoError(t, json.Unmarshal(b, &fromJSON))
	require.Equal(t, id, fromJSON)
	require.NoError(t, json.Unmarshal([]byte("null"), &fromJSON))
	require.Equal(t, id, fromJSON)
	require.ErrorIs(t, fromJSON.UnmarshalJSON([]byte("x")), ErrMissingQuotes)

	text, err := id.MarshalText()
	require.NoError(t, err)
	var fromText ShortID
	require.NoError(t, fromText.UnmarshalText(text))
	require.Equal(t, id, fromText)
}
