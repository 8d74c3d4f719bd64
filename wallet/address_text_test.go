package wallet

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseChainAddressText: an address that does not parse is named once, with what was
// expected, and no bech32 internals (issue #17 §2).
func TestParseChainAddressText(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"garbage", "X-local1qqqq", "X-"} {
		_, err := parseChainAddress(in, "X", "local")
		require.EqualError(t, err, `address "`+in+`": invalid address: want X-local1…`)
	}
}
