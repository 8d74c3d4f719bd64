package staking

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/stretchr/testify/require"
)

func TestLoadLocalStakers(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	for i, want := range localNodeIDs {
		t.Run("staker"+strconv.Itoa(i+1), func(t *testing.T) {
			t.Parallel()
			keyPath, certPath := stakerPaths(i + 1)
			for _, generate := range []bool{false, true} {
				cert, err := LoadOrGenerate(keyPath, certPath, generate, clk)
				require.NoError(t, err)
				require.NotNil(t, cert.Leaf)
				require.Equal(t, cert.Certificate[0], cert.Leaf.Raw)
				require.Equal(t, want, NodeIDFromCert(cert.Leaf.Raw).String())
			}
		})
	}
}

func TestLoadOrGenerateGenerates(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, time.July, 1, 12, 0, 0, 0, time.UTC)
	clk := clock.NewFake(now)
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "staking", "staker.key")
	certPath := filepath.Join(dir, "other", "staker.crt")

	cert, err := LoadOrGenerate(keyPath, certPath, true, clk)
	require.NoError(t, err)
	require.NotNil(t, cert.Leaf)
	require.Equal(t, now.AddDate(100, 0, 0), cert.Leaf.NotAfter)
	nodeID := NodeIDFromCert(cert.Leaf.Raw)

	for _, path := range []string{keyPath, certPath} {
		info, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o400), info.Mode().Perm(), path)
		dirInfo, err := os.Stat(filepath.Dir(path))
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o750), dirInfo.Mode().Perm(), path)
		entries, err := os.ReadDir(filepath.Dir(path))
		require.NoError(t, err)
		require.Len(t, entries, 1, "no temporary file is left behind")
	}

	// Loading again, with or without generate, gives the same identity.
	clk.Set(now.Add(time.Hour))
	for _, generate := range []bool{false, true} {
		again, err := LoadOrGenerate(keyPath, certPath, generate, clk)
		require.NoError(t, err)
		require.Equal(t, nodeID, NodeIDFromCert(again.Leaf.Raw))
		require.Equal(t, cert.Certificate, again.Certificate)
	}
}

func TestLoadOrGenerateMissingFiles(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "staker.key")
	certPath := filepath.Join(dir, "staker.crt")

	_, err := LoadOrGenerate(keyPath, certPath, false, clk)
	require.EqualError(t, err, "couldn't find staking key at "+keyPath)

	stakerKey, _ := stakerPaths(1)
	b, err := os.ReadFile(stakerKey)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(keyPath, b, 0o600))
	_, err = LoadOrGenerate(keyPath, certPath, false, clk)
	require.EqualError(t, err, "couldn't find staking certificate at "+certPath)

	// With generate, an existing key is never replaced, so a missing certificate is still an error.
	_, err = LoadOrGenerate(keyPath, certPath, true, clk)
	require.EqualError(t, err, "couldn't find staking certificate at "+certPath)

	// A key that does not match the certificate is refused.
	_, otherCert := stakerPaths(2)
	_, err = LoadOrGenerate(keyPath, otherCert, false, clk)
	require.Error(t, err)
}
