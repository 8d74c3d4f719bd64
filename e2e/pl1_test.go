package e2e_test

import (
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// l1Validators returns platform.getCurrentValidators of the L1 subnetID.
func (xn *xNode) l1Validators(subnetID ids.ID) []api.APIL1Validator {
	xn.t.Helper()
	var reply struct {
		Validators []api.APIL1Validator `json:"validators"`
	}
	xn.call("/ext/bc/P", "platform.getCurrentValidators", api.GetCurrentValidatorsArgs{SubnetID: subnetID}, &reply)
	return reply.Validators
}

// startWithSubnet starts a node and returns it, the local key's P-Chain wallet on it, and a
// subnet that key owns, made with the CLI.
func startWithSubnet(t *testing.T) (*xNode, *wallet.P, ids.ID) {
	t.Helper()
	xn := startXNode(t, t.TempDir())
	ewoq := localKey(t)
	return xn, xn.pWallet(ewoq), xn.cliCreateSubnet(t)
}

// cliCreateSubnet creates a subnet with `cornice p create-subnet` and returns its ID.
func (xn *xNode) cliCreateSubnet(t *testing.T) ids.ID {
	t.Helper()
	code, stdout, stderr := runCLI(t, "p", "create-subnet", "--node-uri", xn.base)
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`^txID: (\w+)\nsubnetID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	subnetID, err := ids.FromString(m[2])
	require.NoError(t, err)
	return subnetID
}

// TestPChainL1 converts a subnet into an L1 with the CLI through a real node, adds to its
// validator's balance, disables it and finds the refund with the key, which owns the validator
// (issue #5 §4).
func TestPChainL1(t *testing.T) {
	t.Parallel()
	xn, alice, subnetID := startWithSubnet(t)

	val := newPCValidator(t, 0x07, "10", "2000000000")
	nodeID, pkHex, popHex := val.nodeID, val.pk, val.pop
	other, err := bls.NewSecretKey()
	require.NoError(t, err)
	badPoP := hex.EncodeToString(bls.NewProofOfPossession(other).ProofOfPossession[:])
	convert := func(extra ...string) []string {
		args := []string{"p", "convert-subnet", "--node-uri", xn.base, "--subnet", subnetID.String(), "--chain", ids.ID{1}.String(),
			"--address", "0x0102", "--validator-node-id", nodeID.String(), "--weight", "10", "--balance", "2000000000"}
		return append(args, extra...)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"short bls key", convert("--validator-bls-key", "0x01", "--validator-pop", popHex), "cornice: --validator-bls-key: not hex of the right length: 1 bytes, want 48\n"},
		{"bad pop hex", convert("--validator-bls-key", pkHex, "--validator-pop", "zz"), "cornice: --validator-pop: not hex of the right length"},
		{"wrong pop", convert("--validator-bls-key", pkHex, "--validator-pop", badPoP), platform.ErrInvalidProofOfPossession.Error()},
		{"not the owner", convert("--validator-bls-key", pkHex, "--validator-pop", popHex, "--key", "0x"+strings.Repeat("11", 32)), wallet.ErrNotSubnetOwner.Error()},
		{"bad node id", []string{"p", "convert-subnet", "--node-uri", xn.base, "--subnet", subnetID.String(), "--chain", subnetID.String(), "--address", "01",
			"--validator-node-id", "x", "--validator-bls-key", pkHex, "--validator-pop", popHex, "--weight", "1"}, "cornice: --validator-node-id: "},
		{"increase zero", []string{"p", "increase-balance", "--node-uri", xn.base, "--validation-id", subnetID.String(), "--amount", "0"}, wallet.ErrZeroAmount.Error()},
		{"increase unknown", []string{"p", "increase-balance", "--node-uri", xn.base, "--validation-id", subnetID.String(), "--amount", "1"}, platform.ErrL1ValidatorNotFound.Error()},
		{"missing flag", []string{"p", "disable-validator", "--node-uri", xn.base}, "required flag(s)"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		require.Equal(t, 1, code, tc.name)
		require.Empty(t, stdout, tc.name)
		require.Contains(t, stderr, tc.want, tc.name)
	}

	code, stdout, stderr := runCLI(t, convert("--validator-bls-key", pkHex, "--validator-pop", popHex)...)
	require.Equal(t, 0, code, stderr)
	mc := regexp.MustCompile(`^txID: (\w+)\nvalidationID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, mc, stdout)
	vid := subnetID.Append(0)
	require.Equal(t, vid.String(), mc[2])

	vals := xn.l1Validators(subnetID)
	require.Len(t, vals, 1)
	v := vals[0]
	require.Equal(t, vid, v.ValidationID)
	require.Equal(t, nodeID, v.NodeID)
	require.Equal(t, uint64(10), uint64(v.Weight))
	require.Equal(t, strings.ToLower(pkHex), v.PublicKey)
	require.Equal(t, []string{alice.Address()}, v.RemainingBalanceOwner.Addresses)
	require.Equal(t, []string{alice.Address()}, v.DeactivationOwner.Addresses)
	// The continuous fee drains the balance as the chain time passes.
	require.LessOrEqual(t, uint64(v.Balance), uint64(2_000_000_000))
	require.Greater(t, uint64(v.Balance), uint64(1_000_000_000))

	// A converted subnet takes no more chains.
	tx, err := alice.CreateChain(t.Context(), subnetID, "late", ids.FromName("subnetevm"), []byte("{}"))
	require.NoError(t, err)
	_, err = alice.Issue(t.Context(), tx)
	rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Contains(t, rpcErr.Message, platform.ErrSubnetImmutable.Error())

	code, stdout, stderr = runCLI(t, "p", "increase-balance", "--node-uri", xn.base, "--validation-id", mc[2], "--amount", "500000000")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `^txID: \w+\nstatus: Committed\n$`, stdout)
	vals = xn.l1Validators(subnetID)
	require.Len(t, vals, 1)
	require.Greater(t, uint64(vals[0].Balance), uint64(v.Balance))
	require.LessOrEqual(t, uint64(vals[0].Balance), uint64(2_500_000_000))
	before := uint64(vals[0].Balance)

	// Only the deactivation owner disables it: a tx the key pays but another key authorizes is
	// refused.
	b, err := alice.Builder(t.Context())
	require.NoError(t, err)
	utxos, err := alice.UTXOs(t.Context())
	require.NoError(t, err)
	tx, err = b.DisableValidator(localKey(t), utxos, vid, wallet.PAuth{SigIndices: []uint32{0}, Keys: []*wallet.Key{testKey(t, "p-l1-other")}})
	require.NoError(t, err)
	_, err = alice.Issue(t.Context(), tx)
	rpcErr, ok = errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Contains(t, rpcErr.Message, platform.ErrUnauthorizedL1ValidatorModification.Error())

	code, stdout, stderr = runCLI(t, "p", "disable-validator", "--node-uri", xn.base, "--validation-id", mc[2])
	require.Equal(t, 0, code, stderr)
	md := regexp.MustCompile(`^txID: (\w+)\nstatus: Committed\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, md, stdout)
	disableID, err := ids.FromString(md[1])
	require.NoError(t, err)
	vals = xn.l1Validators(subnetID)
	require.Len(t, vals, 1)
	require.Zero(t, uint64(vals[0].Balance))

	// The refund is the disable tx's output after its change, owned by the key.
	utxos, err = alice.UTXOs(t.Context())
	require.NoError(t, err)
	var refund uint64
	for _, ux := range utxos {
		if ux.TxID == disableID && ux.OutputIndex == 1 {
			out, ok := ux.Out.(*secp256k1fx.TransferOutput)
			require.True(t, ok)
			refund = out.Amount
		}
	}
	require.NotZero(t, refund)
	require.LessOrEqual(t, refund, before)
	require.Greater(t, refund, before-100_000_000)
}
