package storage

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrefixesDistinct(t *testing.T) {
	t.Parallel()
	require.Len(t, allPrefixes, 11, "update this test when adding a prefix")
	for i, p := range allPrefixes {
		for j, q := range allPrefixes {
			if i == j {
				continue
			}
			require.False(t, bytes.HasPrefix(q.Bytes(), p.Bytes()),
				"prefix %q is a prefix of %q", p.Bytes(), q.Bytes())
		}
	}
}
