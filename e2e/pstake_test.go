package e2e_test

import (
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// stakeOutput matches what `cornice p add-validator` and `add-delegator` print.
var stakeOutput = regexp.MustCompile(`^txID: (\w+)\nnodeID: (NodeID-\w+)\nstake: ([0-9.]+ AVAX \(\d+ nAVAX\))\nfee: [0-9.]+ AVAX \((\d+) nAVAX\)\nstatus: Committed\n$`)

// TestPStake makes the node a staking validator with `cornice p add-validator` (its node ID and
// proof of possession from its info.getNodeID) and delegates to it with `cornice p add-delegator`,
// amounts in AVAX and nAVAX; each prints the fee the tx burned. A delegation below the minimum is
// refused with the reference's text and changes nothing (issue #14 §3).
func TestPStake(t *testing.T) {
	t.Parallel()
	xn := startXNode(t, t.TempDir())
	var self struct {
		NodeID ids.NodeID `json:"nodeID"`
	}
	xn.call("/ext/info", "info.getNodeID", nil, &self)

	run := func(args ...string) []string {
		t.Helper()
		code, stdout, stderr := runCLI(t, append(args, "--node-uri", xn.base)...)
		require.Equal(t, 0, code, stderr)
		m := stakeOutput.FindStringSubmatch(stdout)
		require.NotNil(t, m, stdout)
		return m
	}
	val := run("p", "add-validator", "--stake", "2000AVAX", "--delegation-fee", "2.5")
	require.Equal(t, self.NodeID.String(), val[2])
	require.Equal(t, "2000 AVAX (2000000000000 nAVAX)", val[3])
	del := run("p", "add-delegator", "--stake", "25000000000nAVAX", "--duration", "168h")
	require.Equal(t, "25 AVAX (25000000000 nAVAX)", del[3])

	// The printed fee is what the tx burned: inputs less outputs and stake.
	for _, m := range [][]string{val, del} {
		txID, err := ids.FromString(m[1])
		require.NoError(t, err)
		var reply struct {
			Tx string `json:"tx"`
		}
		xn.call("/ext/bc/P", "platform.getTx", map[string]string{"txID": txID.String(), "encoding": "hex"}, &reply)
		b, err := ids.Hex.Decode(reply.Tx)
		require.NoError(t, err)
		tx, err := txs.ParseTx(b)
		require.NoError(t, err)
		var in, out uint64
		for _, i := range tx.Unsigned().Base().Ins {
			in += i.In.(*secp256k1fx.TransferInput).Amount
		}
		stake := slices.Clone(tx.Unsigned().Base().Outs)
		switch u := tx.Unsigned().(type) {
		case *txs.AddPermissionlessValidatorTx:
			stake = append(stake, u.Stake...)
			require.Equal(t, uint32(25_000), u.DelegationShares)
		case *txs.AddPermissionlessDelegatorTx:
			stake = append(stake, u.Stake...)
		}
		for _, o := range stake {
			out += o.Out.(*secp256k1fx.TransferOutput).Amount
		}
		require.Equal(t, m[4], strconv.FormatUint(in-out, 10))
	}

	var cur struct {
		Validators []api.APIPrimaryValidator `json:"validators"`
	}
	xn.call("/ext/bc/P", "platform.getCurrentValidators", map[string]any{}, &cur)
	require.Len(t, cur.Validators, 6, "the five genesis stakers and this node")
	i := slices.IndexFunc(cur.Validators, func(v api.APIPrimaryValidator) bool { return v.TxID.String() == val[1] })
	require.NotEqual(t, -1, i)
	require.Equal(t, "2.5000", cur.Validators[i].DelegationFee)
	require.Equal(t, "1", strconv.FormatUint(uint64(cur.Validators[i].DelegatorCount), 10))

	before := xn.pBalance("P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
	code, stdout, stderr := runCLI(t, "p", "add-delegator", "--stake", "24AVAX", "--node-uri", xn.base)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "weight of this validator is too low\n")
	code, _, stderr = runCLI(t, "p", "add-validator", "--stake", "2x", "--node-uri", xn.base)
	require.Equal(t, 1, code)
	require.Equal(t, "cornice: --stake \"2x\": want an amount such as 2000AVAX, 0.5AVAX or 25000000000nAVAX (a bare number is nAVAX)\n", stderr)
	require.Equal(t, before, xn.pBalance("P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"))
}
