package jsonrpc

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLookupExactName checks that lookup's shortcut for a name spelled as registered finds what the
// mapping rules find, for every registered name and for spellings around them.
func TestLookupExactName(t *testing.T) {
	t.Parallel()
	s := NewServer("info", slog.New(slog.DiscardHandler))
	h := func(context.Context, *struct{}) (*struct{}, error) { return nil, nil }
	// ǅ is title case: not upper case, and ToUpper changes it.
	registered := []string{"getNodeID", "_x", "9lives", "ǅa", "éte"}
	for _, n := range registered {
		Register(s, n, h)
	}
	var names []string
	for _, n := range registered {
		names = append(names, "info."+n, "Info."+n, "info.."+n, "info."+n+".x", n, "info"+n, "other."+n)
	}
	names = append(names, "info.GetNodeID", "info._X", "info.Ǆa", "info.Éte", "info.", "info", "", ".", "info.\xff")
	for _, n := range names {
		got, gotErr := s.lookup([]byte(n))
		want, wantErr := s.mapLookup([]byte(n))
		require.Same(t, want, got, n)
		if wantErr == nil {
			require.NoError(t, gotErr, n)
			continue
		}
		require.EqualError(t, gotErr, wantErr.Error(), n)
	}
	m, err := s.lookup([]byte("info.getNodeID"))
	require.NoError(t, err)
	require.Equal(t, "info.getNodeID", m.name)
}
