package acp99

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestContractUpToDate compiles ValidatorManager.sol with solc-js 0.8.30 (SOLC_JS_DIR, or
// e2e/foundry's node_modules) and compares the result with the committed manager.json; it is
// skipped when node or solc-js is missing.
func TestContractUpToDate(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	dir := os.Getenv("SOLC_JS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "e2e", "foundry", "node_modules", "solc")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("solc-js is not installed: npm ci --prefix e2e/foundry, or set SOLC_JS_DIR")
	}
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	cmd := exec.Command("node", "contracts/compile.mjs")
	cmd.Env = append(os.Environ(), "SOLC_JS_DIR="+abs)
	out, err := cmd.Output()
	require.NoError(t, err)
	committed, err := os.ReadFile("contracts/manager.json")
	require.NoError(t, err)
	require.Equal(t, string(committed), string(out), "manager.json is stale: run wallet/acp99/contracts/build.sh")
}

// TestContract checks that manager.json parses into the ACP-99 functions and events the flow
// calls. (TestL1ValidatorManagerCLI in e2e runs them, from a genesis made with GenesisStorage.)
func TestContract(t *testing.T) {
	c := Contract()
	require.NotEmpty(t, c.Runtime)
	require.NotEmpty(t, c.Creation)
	for _, m := range []string{"initializeValidatorSet", "initiateValidatorRegistration", "completeValidatorRegistration",
		"initiateValidatorWeightUpdate", "completeValidatorWeightUpdate", "initiateValidatorRemoval", "completeValidatorRemoval",
		"getNodeValidationID", "registrationMessage", "owner"} {
		require.Contains(t, c.ABI.Methods, m)
	}
	for _, e := range []string{"InitiatedValidatorRegistration", "CompletedValidatorRegistration", "InitiatedValidatorWeightUpdate",
		"CompletedValidatorWeightUpdate", "InitiatedValidatorRemoval", "CompletedValidatorRemoval", "RegisteredInitialValidator"} {
		require.Contains(t, c.ABI.Events, e)
	}
}
