package e2e_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
)

func (xn *xNode) pWallet(k *wallet.Key) *wallet.P {
	xn.t.Helper()
	p, err := wallet.NewP(xn.t.Context(), xn.client, k, clock.Real{})
	require.NoError(xn.t, err)
	return p
}

// pBalance returns platform.getBalance's unlocked balance of addr.
func (xn *xNode) pBalance(addr string) uint64 {
	xn.t.Helper()
	var reply struct {
		Unlocked uint64 `json:"unlocked,string"`
	}
	xn.call("/ext/bc/P", "platform.getBalance", map[string][]string{"addresses": {addr}}, &reply)
	return reply.Unlocked
}

// pIssue issues tx and waits until it is committed.
func pIssue(t *testing.T, p *wallet.P, tx *txs.Tx) ids.ID {
	t.Helper()
	id, err := p.Issue(t.Context(), tx)
	require.NoError(t, err)
	require.Equal(t, tx.ID(), id)
	require.NoError(t, p.WaitAccepted(t.Context(), id, acceptWait))
	return id
}

// TestPChain runs the P-Chain of the node `cornice run` builds with the wallet: AVAX moves, a
// subnet and a chain on it are created with the dynamic fee the VM computes, a chain signed by
// a key other than the subnet owner's is refused, and the CLI does the same (issue #5 §4).
func TestPChain(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	ewoq := localKey(t)
	alice, bob := xn.pWallet(ewoq), xn.pWallet(testKey(t, "p-bob"))
	start := xn.pBalance(alice.Address())
	require.NotZero(t, start)

	// Send: bob gets the amount, alice pays it plus the exact fee.
	b, err := alice.Builder(t.Context())
	require.NoError(t, err)
	require.NotZero(t, b.GasPrice)
	tx, err := alice.Send(t.Context(), bob.Address(), 5_000_000_000)
	require.NoError(t, err)
	fee := b.Fee(tx)
	require.NotZero(t, fee)
	pIssue(t, alice, tx)
	require.Equal(t, uint64(5_000_000_000), xn.pBalance(bob.Address()))
	require.Equal(t, start-5_000_000_000-fee, xn.pBalance(alice.Address()))

	// bob creates a subnet he owns, then a chain on it.
	tx, err = bob.CreateSubnet(t.Context(), "")
	require.NoError(t, err)
	subnetID := pIssue(t, bob, tx)
	genesis := []byte(`{"config":{}}`)
	tx, err = bob.CreateChain(t.Context(), subnetID, "my chain", ids.FromName("subnetevm"), genesis)
	require.NoError(t, err)
	chainID := pIssue(t, bob, tx)
	var chains api.GetBlockchainsReply
	xn.call("/ext/bc/P", "platform.getBlockchains", nil, &chains)
	require.Contains(t, chains.Blockchains, api.APIBlockchain{ID: chainID, Name: "my chain", SubnetID: subnetID, VMID: ids.FromName("subnetevm")})

	// alice is not bob's subnet's owner: the wallet refuses, and so does the node when the tx is
	// built anyway with her signature.
	_, err = alice.CreateChain(t.Context(), subnetID, "other", ids.FromName("subnetevm"), genesis)
	require.ErrorIs(t, err, wallet.ErrNotSubnetOwner)
	b, err = alice.Builder(t.Context())
	require.NoError(t, err)
	utxos, err := alice.UTXOs(t.Context())
	require.NoError(t, err)
	tx, err = b.CreateChain(ewoq, utxos, subnetID, "other", ids.FromName("subnetevm"), genesis, wallet.PAuth{SigIndices: []uint32{0}, Keys: []*wallet.Key{ewoq}})
	require.NoError(t, err)
	_, err = alice.Issue(t.Context(), tx)
	rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Contains(t, rpcErr.Message, platform.ErrUnauthorizedSubnetModification.Error())

	// A tx without its fee is refused.
	free := b
	free.GasPrice = 0
	tx, err = free.Send(ewoq, utxos, ewoq.Address(), 1)
	require.NoError(t, err)
	_, err = alice.Issue(t.Context(), tx)
	rpcErr, ok = errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Contains(t, rpcErr.Message, platform.ErrInsufficientFunds.Error())

	// The CLI.
	bobP := bob.Address()
	bobBefore := xn.pBalance(bobP)
	code, stdout, stderr := runCLI(t, "p", "send", "--node-uri", xn.base, "--key", ewoqHexKey, "--to", bobP, "--amount", "7")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `^txID: \w+\nstatus: Committed\n$`, stdout)
	require.Equal(t, bobBefore+7, xn.pBalance(bobP))

	code, stdout, stderr = runCLI(t, "p", "create-subnet", "--node-uri", xn.base)
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`^txID: (\w+)\nsubnetID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, m[1], m[2])
	gfile := filepath.Join(t.TempDir(), "genesis.json")
	require.NoError(t, os.WriteFile(gfile, genesis, 0o600))
	code, stdout, stderr = runCLI(t, "p", "create-chain", "--node-uri", xn.base, "--subnet", m[2],
		"--name", "cli chain", "--vm", "subnetevm", "--genesis", gfile)
	require.Equal(t, 0, code, stderr)
	mc := regexp.MustCompile(`^txID: (\w+)\nblockchainID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, mc, stdout)
	xn.call("/ext/bc/P", "platform.getBlockchains", nil, &chains)
	cliChain, err := ids.FromString(mc[2])
	require.NoError(t, err)
	cliSubnet, err := ids.FromString(m[2])
	require.NoError(t, err)
	require.Contains(t, chains.Blockchains, api.APIBlockchain{ID: cliChain, Name: "cli chain", SubnetID: cliSubnet, VMID: ids.FromName("subnetevm")})

	badKey := "0x" + strings.Repeat("11", 32)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"send zero", []string{"send", "--to", bobP, "--amount", "0"}, "cornice: amount must be greater than zero\n"},
		{"send X address", []string{"send", "--to", "X-" + bobP[2:], "--amount", "1"}, "not an address of this chain"},
		{"create-chain not owner", []string{"create-chain", "--key", badKey, "--subnet", m[2], "--name", "x", "--vm", "subnetevm", "--genesis", gfile}, "the key is not the subnet's sole required owner"},
		{"create-chain bad vm", []string{"create-chain", "--subnet", m[2], "--name", "x", "--vm", "a-name-that-is-longer-than-32-bytes", "--genesis", gfile}, "not a VM ID nor a VM name"},
		{"create-chain no genesis", []string{"create-chain", "--subnet", m[2], "--name", "x", "--vm", "subnetevm", "--genesis", filepath.Join(t.TempDir(), "none")}, "cornice: --genesis: "},
		{"missing flag", []string{"create-chain", "--subnet", m[2]}, `required flag(s)`},
	} {
		args := append([]string{"p"}, tc.args...)
		args = append(args, "--node-uri", xn.base)
		code, stdout, stderr := runCLI(t, args...)
		require.Equal(t, 1, code, tc.name)
		require.Empty(t, stdout, tc.name)
		require.Contains(t, stderr, tc.want, tc.name)
	}
}
