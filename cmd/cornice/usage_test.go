package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUsageErrors runs the command line in-process on the mistakes a new user makes (issue #17
// §2): each exits 1 with one line that says what was typed and what was expected, before any
// node is started or contacted (the node URI has nothing listening, and no case gets that far
// except the last, which is about that).
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	const nowhere = "--node-uri=127.0.0.1:1"
	const id = "11111111111111111111111111111111LpoYY"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"l1", "creat"}, `unknown command "creat" for "cornice l1"; did you mean "create"?`},
		{[]string{"l1", "creat", "--genesis", "f"}, `unknown command "creat" for "cornice l1"; did you mean "create"?`},
		{[]string{"p", "sned"}, `unknown command "sned" for "cornice p"; did you mean "send"?`},
		{[]string{"x", "sedn", "--amount", "1"}, `unknown command "sedn" for "cornice x"; did you mean "send"?`},
		{[]string{"rnu"}, `unknown command "rnu" for "cornice"; did you mean "run"?`},
		{[]string{"p", "create"}, `unknown command "create" for "cornice p"; did you mean "create-chain" or "create-subnet"?`},
		{[]string{"x", "zzz"}, `unknown command "zzz" for "cornice x"; its commands are create-asset, export, import, send`},
		{[]string{"l1", "--genesis", "f"}, `unknown command "f" for "cornice l1"; its commands are add-validator, create, init-validator-set, remove-validator, set-weight`},
		{[]string{"p", "--bogus"}, `unknown flag --bogus for "cornice p": give one of its commands: add-delegator, add-validator, convert-subnet, create-chain, create-subnet, disable-validator, export, import, increase-balance, send`},
		{[]string{"p", "send", "--to", "P-local1x", "--amount", "-5"}, `--amount: "-5" is not a whole number from 0 to 18446744073709551615`},
		{[]string{"x", "send", "--to", "X-local1x", "--amount", "1.5"}, `--amount: "1.5" is not a whole number from 0 to 18446744073709551615`},
		{[]string{"x", "create-asset", "--name", "a", "--symbol", "A", "--supply", "1", "--denomination", "300"}, `--denomination: "300" is not a whole number from 0 to 255`},
		{[]string{"x", "send", "--to", "X-local1x", "--amount", "1", "--wait", "5"}, `--wait: "5" is not a duration such as 30s, 2m or 1h30m`},
		{[]string{"p", "create-chain", "--subnet", "abc", "--name", "a", "--vm", "subnetevm", "--genesis", "g"}, `--subnet: "abc" is not an ID: expected the CB58 text of one, as a command printed it`},
		{[]string{"p", "increase-balance", "--validation-id", "x", "--amount", "1"}, `--validation-id: "x" is not an ID: expected the CB58 text of one, as a command printed it`},
		{[]string{"p", "create-subnet", "--node-uri", "ftp://h"}, `--node-uri: "ftp://h" is not a node's URI such as http://127.0.0.1:9650`},
		{[]string{"p", "create-subnet", "--node-uri", "http://"}, `--node-uri: "http://" is not a node's URI such as http://127.0.0.1:9650`},
		{[]string{"p", "convert-subnet", "--subnet", id, "--chain", id, "--address", "zz", "--validator-node-id", "NodeID-x"}, `--address: not hex of the right length: "zz" is not hex`},
		{[]string{"p", "convert-subnet", "--subnet", id, "--chain", id, "--address", "", "--validator-node-id", "x", "--validator-bls-key", "00", "--validator-pop", "00", "--weight", "1"}, `--validator-node-id: "x" is not a node ID: expected NodeID-<CB58>, as info.getNodeID answers`},
		{[]string{"p", "create-subnet", nowhere}, "no node answers at http://127.0.0.1:1: start one with `cornice run`, or give its URI with --node-uri"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			_, started, code, stdout, stderr := runCLI(t, tt.args...)
			require.False(t, started)
			require.Equal(t, 1, code)
			require.Empty(t, stdout)
			require.Equal(t, "cornice: "+tt.want+"\n", stderr)
		})
	}
}

// TestGroupHelp: a command that groups others prints its help and exits 0 when given nothing or
// only --help, as before.
func TestGroupHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--help"}, {"l1"}, {"l1", "-h"}, {"p", "--help"}, {"x"}} {
		_, started, code, stdout, stderr := runCLI(t, args...)
		require.False(t, started)
		require.Equal(t, 0, code, args)
		require.Contains(t, stdout, "Usage:", args)
		require.Empty(t, stderr, args)
	}
}

// TestValidatorFieldText: a --validator weight or balance that is not a whole number says so.
func TestValidatorFieldText(t *testing.T) {
	t.Parallel()
	_, err := parseUintField("--validator weight", "-1")
	require.EqualError(t, err, `--validator weight: "-1" is not a whole number from 0 to 18446744073709551615`)
}

// TestCreateChainUnknownVM: `cornice p create-chain` refuses a VM this binary does not run unless
// --force, which only warns (issue #17 §3). The VMs it runs pass the check, by name or ID.
func TestCreateChainUnknownVM(t *testing.T) {
	t.Parallel()
	const id = "11111111111111111111111111111111LpoYY"
	gfile := filepath.Join(t.TempDir(), "g.json")
	require.NoError(t, os.WriteFile(gfile, []byte("{}"), 0o600))
	args := []string{"p", "create-chain", "--subnet", id, "--name", "a", "--vm", "subnetvm", "--genesis", gfile, "--node-uri", "127.0.0.1:1"}
	const refusal = `--vm "subnetvm": this cornice runs no VM srEXiWaHy6X5ttaZXBU8TXWHW3VWUX2ibzbBvf4VFm8Gr8xML (it runs avm, evm, subnetevm), so no cornice node would run the chain`

	_, _, code, _, stderr := runCLI(t, args...)
	require.Equal(t, 1, code)
	require.Equal(t, "cornice: "+refusal+"; pass --force to create it anyway\n", stderr)

	// With --force it goes on to the node (none here) after a warning.
	_, _, code, _, stderr = runCLI(t, append(args, "--force")...)
	require.Equal(t, 1, code)
	require.Equal(t, "warning: "+refusal+"\ncornice: no node answers at http://127.0.0.1:1: start one with `cornice run`, or give its URI with --node-uri\n", stderr)

	for _, vm := range []string{"subnetevm", "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy", "avm", "evm"} {
		args[7] = vm
		_, _, code, _, stderr = runCLI(t, args...)
		require.Equal(t, 1, code)
		require.Equal(t, "cornice: no node answers at http://127.0.0.1:1: start one with `cornice run`, or give its URI with --node-uri\n", stderr, vm)
	}
}
