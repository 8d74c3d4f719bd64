// Package configtest is what the tests of the node's configuration share: the config package's
// own and the command line's (cmd/cornice), which both check a config that names staking files.
package configtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// StakingFiles writes placeholder staking key, certificate and signer key files into dir and
// returns their paths: enough for a config's validation, which checks that the files a config
// names exist, not what they hold.
func StakingFiles(t testing.TB, dir string) (key, cert, signer string) {
	t.Helper()
	key, cert, signer = filepath.Join(dir, "staker.key"), filepath.Join(dir, "staker.crt"), filepath.Join(dir, "signer.key")
	for _, p := range []string{key, cert, signer} {
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
	}
	return key, cert, signer
}
