package utxovmtest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// AddressForms is one call whose params name addresses: written with bech32 addresses, and with
// the bare CB58 short IDs of the same addresses.
type AddressForms struct {
	// Method is the method's name, optionally followed by a space and a description that tells
	// two cases of one method apart.
	Method       string
	Bech32, Bare string
}

// TestBareAddresses checks that every call answers with a result, and the same one whether its
// addresses are bech32 or bare short IDs, the form the reference's own Go clients send. call
// sends a method with its params and returns the reply. Besides cases, it checks the calls both
// chains share: getUTXOs of the address bech32 (bare as a short ID), from the start and from a
// start index.
func TestBareAddresses(t *testing.T, call func(method, params string) string, bech32, bare string, cases ...AddressForms) {
	t.Helper()
	cases = append(cases,
		AddressForms{"getUTXOs", `{"addresses":["` + bech32 + `"]}`, `{"addresses":["` + bare + `"]}`},
		AddressForms{
			"getUTXOs from a start index",
			`{"addresses":["` + bech32 + `"],"startIndex":{"address":"` + bech32 + `","utxo":"11111111111111111111111111111111LpoYY"}}`,
			`{"addresses":["` + bare + `"],"startIndex":{"address":"` + bare + `","utxo":"11111111111111111111111111111111LpoYY"}}`,
		},
	)
	for _, tt := range cases {
		t.Run(tt.Method, func(t *testing.T) {
			method, _, _ := strings.Cut(tt.Method, " ")
			want := call(method, tt.Bech32)
			require.Contains(t, want, `"result"`)
			require.Equal(t, want, call(method, tt.Bare))
		})
	}
}
