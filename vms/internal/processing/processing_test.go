package processing_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/processing"
)

func TestSet(t *testing.T) {
	t.Parallel()
	var s processing.Set[string]
	_, ok := s.Preferred()
	require.False(t, ok, "the zero Set prefers nothing")
	a, b, c := ids.ID{1}, ids.ID{2}, ids.ID{3}
	s.Add(a, "a")
	s.Add(b, "b") // b's parent is a
	s.Prefer(b)
	got, ok := s.Preferred()
	require.True(t, ok)
	require.Equal(t, "b", got)
	require.ElementsMatch(t, []string{"a", "b"}, slices.Collect(s.Blocks()))

	// Rejecting the preferred block prefers its parent.
	s.Decided(b, a)
	_, ok = s.Get(b)
	require.False(t, ok)
	got, ok = s.Preferred()
	require.True(t, ok)
	require.Equal(t, "a", got)

	// Accepting it: no longer processing, so the VM builds on its last accepted block.
	s.Decided(a, c)
	_, ok = s.Preferred()
	require.False(t, ok)
	require.Empty(t, slices.Collect(s.Blocks()))
}
