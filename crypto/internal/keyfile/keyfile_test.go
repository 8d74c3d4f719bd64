package keyfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWrite(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "staking")
	path := filepath.Join(dir, "signer.key")
	require.NoError(t, Write(path, []byte("secret")))

	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, []byte("secret"), got)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, FilePerm, fi.Mode().Perm())
	di, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, DirPerm, di.Mode().Perm())

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file is left behind")
}
