package e2e_test

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/wallet"
	"github.com/cornice-node/cornice/wallet/acp99"
	"github.com/cornice-node/cornice/warp/acp77"
)

// requireSameEverywhere waits until every node answers method with args on path as node 1 does,
// and returns node 1's answer. Each node accepts a P-Chain block on its own time: the answers
// agree once all five have it.
func (nw *localNetwork) requireSameEverywhere(t testing.TB, path, method string, args any) json.RawMessage {
	t.Helper()
	var answers []string
	require.Eventually(t, func() bool {
		answers = answers[:0]
		for i := range nw.nodes {
			var res json.RawMessage
			if err := nw.call(t, i, path, method, args, &res); err != nil {
				answers = append(answers, err.Error())
				continue
			}
			answers = append(answers, string(res))
		}
		return len(slices.Compact(slices.Clone(answers))) == 1
	}, networkWait, 50*time.Millisecond, "%s %v: %v", method, args, answers)
	return json.RawMessage(answers[0])
}

// TestNetworkL1ValidatorManager runs the ACP-99 flow of TestL1ValidatorManagerCLI on the
// five-node network: `cornice network start --l1 --l1-manager` makes an L1 whose genesis holds
// our ValidatorManager, validated by nodes 1-3 and managed by the contract; then, through node 1,
// `cornice l1 init-validator-set`, `add-validator` of node 4 (its ID and proof of possession from
// its info.getNodeID), `set-weight` and `remove-validator`. Node 1 alone holds a third of the
// L1's weight, so every Warp message of the flow is signed by validators its aggregator asked over
// the network. After each step all five nodes' P-Chains agree on the L1's validators.
func TestNetworkL1ValidatorManager(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	ewoq := localKey(t)
	genesis := filepath.Join(t.TempDir(), "acp99-genesis.json")
	require.NoError(t, os.WriteFile(genesis, acp99Genesis(t, 77899, ewoq.EthAddress()), 0o600))
	nw, stdout := startNetworkWith(t, 5, "--l1", genesis, "--l1-validators", "3", "--l1-manager", acp99ManagerAddress.Hex())
	l1 := nw.l1Of(t, stdout, "acp99 genesis")
	nw.requireL1Validators(t, l1, "100")
	subnetID, err := ids.FromString(l1.SubnetID)
	require.NoError(t, err)

	ids5 := make([]nodeIdentity, len(nw.nodes))
	for i := range nw.nodes {
		require.NoError(t, nw.call(t, i, "/ext/info", "info.getNodeID", nil, &ids5[i]))
	}
	client, err := wallet.NewClient(nw.nodes[0].URI(), nil)
	require.NoError(t, err)
	flow, err := acp99.NewFlow(t.Context(), client, ewoq, subnetID, nil, acceptWait, io.Discard)
	require.NoError(t, err)
	defer flow.Close()
	require.Equal(t, acp99ManagerAddress, flow.Manager(), "the manager the P-Chain recorded")
	d, err := flow.ConversionData(t.Context())
	require.NoError(t, err)
	require.Len(t, d.Validators, 3)
	for i, v := range d.Validators {
		require.Equal(t, acp77.ConversionValidator{NodeID: ids5[i].NodeID[:], BLSPublicKey: ids5[i].NodePOP.PublicKey, Weight: 100}, v)
	}

	node4 := ids5[3]
	l1Args := []string{"--node-uri", nw.nodes[0].URI(), "--subnet-id", l1.SubnetID, "--wait", acceptWait.String()}
	cli := l1CLI(t, &l1Args)
	type validator struct {
		NodeID ids.NodeID `json:"nodeID"`
		Weight string     `json:"weight"`
	}
	// current waits until the five P-Chains agree on the L1's validators, and returns them.
	current := func() map[ids.NodeID]string {
		t.Helper()
		var res struct {
			Validators []validator `json:"validators"`
		}
		require.NoError(t, json.Unmarshal(nw.requireSameEverywhere(t, "/ext/bc/P", "platform.getCurrentValidators", map[string]string{"subnetID": l1.SubnetID}), &res))
		ws := map[ids.NodeID]string{}
		for _, v := range res.Validators {
			ws[v.NodeID] = v.Weight
		}
		return ws
	}
	initial := map[ids.NodeID]string{ids5[0].NodeID: "100", ids5[1].NodeID: "100", ids5[2].NodeID: "100"}
	with := func(w string) map[ids.NodeID]string {
		m := map[ids.NodeID]string{node4.NodeID: w}
		for k, v := range initial {
			m[k] = v
		}
		return m
	}

	out := cli("l1", "init-validator-set")
	require.Contains(t, out, "(SubnetToL1Conversion) signed")
	require.Contains(t, out, "initializeValidatorSet: tx")
	require.Equal(t, initial, current())

	l1Args = append(l1Args, "--node-id", node4.NodeID.String())
	out = cli("l1", "add-validator", "--weight", "10", "--balance", "500000000",
		"--bls-public-key", hex.EncodeToString(node4.NodePOP.PublicKey[:]), "--bls-pop", hex.EncodeToString(node4.NodePOP.ProofOfPossession[:]))
	require.Contains(t, out, "signed by the L1's validators")
	require.Contains(t, out, "completeValidatorRegistration: tx")
	vid, err := flow.ValidationID(t.Context(), node4.NodeID)
	require.NoError(t, err)
	require.Contains(t, out, "validationID: "+vid.String())
	byID := map[string]string{"validationID": vid.String()}
	var v validator
	require.NoError(t, json.Unmarshal(nw.requireSameEverywhere(t, "/ext/bc/P", "platform.getL1Validator", byID), &v))
	require.Equal(t, validator{NodeID: node4.NodeID, Weight: "10"}, v)
	require.Equal(t, with("10"), current())

	out = cli("l1", "set-weight", "--weight", "20")
	require.Contains(t, out, "completeValidatorWeightUpdate: tx")
	require.NoError(t, json.Unmarshal(nw.requireSameEverywhere(t, "/ext/bc/P", "platform.getL1Validator", byID), &v))
	require.Equal(t, validator{NodeID: node4.NodeID, Weight: "20"}, v)
	require.Equal(t, with("20"), current())

	out = cli("l1", "remove-validator")
	require.Contains(t, out, "completeValidatorRemoval: tx")
	require.Equal(t, initial, current())
	for i := range nw.nodes {
		err := nw.call(t, i, "/ext/bc/P", "platform.getL1Validator", byID, &v)
		require.ErrorContains(t, err, "not found", nw.nodes[i].Name)
	}
	_, err = flow.ValidationID(t.Context(), node4.NodeID)
	require.ErrorIs(t, err, acp99.ErrUnknownValidator, "the manager forgot the node")
}
