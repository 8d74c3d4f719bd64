package address

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

// TestParseService pins the texts an API answers a wrong address with, and the bare short ID the
// reference's Go clients send.
func TestParseService(t *testing.T) {
	t.Parallel()
	addr := ids.ShortID{0x3c, 0xb7}
	c := Chain{Alias: "X", IsChain: func(a string) bool { return a == "X" || a == "avm" }, HRP: "local"}
	local, err := Format("X", "local", addr)
	require.NoError(t, err)
	other, err := Format("P", "local", addr)
	require.NoError(t, err)
	fuji, err := Format("avm", "fuji", addr)
	require.NoError(t, err)

	got, err := c.ParseService(local)
	require.NoError(t, err)
	require.Equal(t, addr, got)
	got, err = c.ParseService(addr.String())
	require.NoError(t, err)
	require.Equal(t, addr, got)

	_, err = c.ParseService(other)
	require.EqualError(t, err, `couldn't parse address "`+other+`": expected chainID to be "X" but was "P"`)
	_, err = c.ParseService(fuji)
	require.EqualError(t, err, `couldn't parse address "`+fuji+`": expected hrp "local" but got "fuji"`)
	_, err = c.ParseService("nonsense")
	require.ErrorIs(t, err, ErrInvalidAddress)
	require.Contains(t, err.Error(), `couldn't parse address "nonsense": `)
}
