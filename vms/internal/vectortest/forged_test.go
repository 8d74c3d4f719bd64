package vectortest_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

func TestForgeries(t *testing.T) {
	t.Parallel()
	var sig secp256k1fx.Signature
	for i := range sig {
		sig[i] = byte(i + 1)
	}
	require.Equal(t, sig, vectortest.HighS(vectortest.HighS(sig)), "n − (n − s) = s")
	require.NotEqual(t, sig, vectortest.HighS(sig))
	errWrong, errMutated := errors.New("wrong"), errors.New("mutated")
	got := vectortest.Forgeries(secp256k1fx.Signature{9}, func(s secp256k1fx.Signature) secp256k1fx.Signature { return s }, sig, errWrong, errMutated)
	flipped := sig
	flipped[40] ^= 1
	require.Equal(t, []vectortest.Forged[secp256k1fx.Signature]{
		{"another key's signature", secp256k1fx.Signature{9}, errWrong},
		{"a bit flipped in s", flipped, errWrong},
		{"high S", vectortest.HighS(sig), errMutated},
		{"no signature", secp256k1fx.Signature{}, errWrong},
	}, got)
}
