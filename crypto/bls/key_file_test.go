package bls

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadOrGenerateSecretKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "staking", "nested", "signer.key")

	_, err := LoadOrGenerateSecretKey(path, false)
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorContains(t, err, "could not read signing key from "+path+": ")

	sk, err := LoadOrGenerateSecretKey(path, true)
	require.NoError(t, err)

	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o400), info.Mode().Perm())
	require.Equal(t, int64(SecretKeyLen), info.Size())
	dirInfo, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o750), dirInfo.Mode().Perm())

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, sk.Bytes(), raw)

	// Loading again, with or without generate, gives the same key.
	for _, generate := range []bool{false, true} {
		again, err := LoadOrGenerateSecretKey(path, generate)
		require.NoError(t, err)
		require.Equal(t, sk.Bytes(), again.Bytes())
	}

	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file is left behind")
}

func TestLoadOrGenerateSecretKeyBadFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "signer.key")
	require.NoError(t, os.WriteFile(path, []byte("too short"), 0o600))
	for _, generate := range []bool{false, true} {
		_, err := LoadOrGenerateSecretKey(path, generate)
		require.ErrorIs(t, err, ErrInvalidSecretKey)
	}
}
