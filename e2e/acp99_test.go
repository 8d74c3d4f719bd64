package e2e_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
	"github.com/cornice-node/cornice/wallet/acp99"
	"github.com/cornice-node/cornice/warp/acp77"
)

// acp99ManagerAddress is where acp99Genesis puts the manager.
var acp99ManagerAddress = common.HexToAddress("0x0feedc0de0000000000000000000000000000099")

// acp99Genesis returns the fixture genesis with chain ID chainID, the compiled ValidatorManager
// at acp99ManagerAddress owned by owner, owner funded, and no transaction allow list.
func acp99Genesis(t testing.TB, chainID int, owner common.Address) []byte {
	t.Helper()
	var g map[string]any
	require.NoError(t, json.Unmarshal(l1FixtureGenesis(t, chainID), &g))
	// Anyone may send transactions: the fixture's allow list does not know the owner.
	delete(g["config"].(map[string]any), "txAllowListConfig")
	storage := map[string]string{}
	for k, v := range acp99.GenesisStorage(owner) {
		storage[k.Hex()] = v.Hex()
	}
	alloc := g["alloc"].(map[string]any)
	alloc[strings.TrimPrefix(acp99ManagerAddress.Hex(), "0x")] = map[string]any{
		"balance": "0x0", "code": "0x" + hex.EncodeToString(acp99.Contract().Runtime), "storage": storage,
	}
	alloc[strings.TrimPrefix(owner.Hex(), "0x")] = map[string]any{"balance": "0x3635c9adc5dea00000"} // 1000 ether
	b, err := json.Marshal(g)
	require.NoError(t, err)
	return b
}

// l1CLI returns a runner of `cornice l1 <command> <flags> <*shared>`, which requires success and
// logs the output; shared is read at each run, so that a test may add to it between commands.
func l1CLI(t *testing.T, shared *[]string) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, append(args, *shared...)...)
		require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
		t.Logf("cornice %s:\n%s", args[1], out)
		return out
	}
}

// TestL1ValidatorManagerCLI runs the ACP-99 flow on one node against our ValidatorManager
// contract (wallet/acp99/contracts), placed in the L1's genesis, through the CLI:
// `cornice l1 init-validator-set` (initializeValidatorSet with the P-Chain's
// SubnetToL1Conversion), then `add-validator`, `set-weight` and `remove-validator`, checking the
// P-Chain, the manager and the L1's validators API after each.
func TestL1ValidatorManagerCLI(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	n := startL1Node(t, nil)
	xn := n.xn
	ewoq := localKey(t)
	l1 := convertedL1(t, xn, "acp99", acp99Genesis(t, 77799, ewoq.EthAddress()), acp99ManagerAddress)
	me, subnetID, bcID, convTx := l1.me, l1.subnetID, l1.bcID, l1.convTx

	client, err := wallet.NewClient(xn.base, nil)
	require.NoError(t, err)
	flow, err := acp99.NewFlow(ctx, client, ewoq, subnetID, nil, acceptWait, io.Discard)
	require.NoError(t, err)
	defer flow.Close()
	require.Equal(t, acp99ManagerAddress, flow.Manager(), "the manager the P-Chain recorded")
	d, err := flow.ConversionData(ctx)
	require.NoError(t, err)
	require.Equal(t, []acp77.ConversionValidator{{NodeID: me.NodeID[:], BLSPublicKey: me.NodePOP.PublicKey, Weight: 100}}, d.Validators)

	l1Args := []string{"--node-uri", xn.base, "--subnet-id", subnetID.String(), "--wait", acceptWait.String()}
	cli := l1CLI(t, &l1Args)

	// init-validator-set: the P-Chain's SubnetToL1Conversion, justified by the subnet ID.
	out := cli("l1", "init-validator-set")
	require.Contains(t, out, "(SubnetToL1Conversion) signed")
	require.Contains(t, out, "initializeValidatorSet: tx")
	initial, err := flow.ValidationID(ctx, me.NodeID)
	require.NoError(t, err)
	require.Equal(t, convTx.Unsigned().(*txs.ConvertSubnetToL1Tx).ValidationID(0), initial, "the manager's validation ID of the initial validator")
	// Once only: the manager refuses it before anything is sent.
	code, _, errOut := runCLI(t, append([]string{"l1", "init-validator-set"}, l1Args...)...)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "already initialized")

	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	nodeB := ids.NodeID{0xb0, 0x0b, 0x99}
	l1Args = append(l1Args, "--node-id", nodeB.String())
	lv := func(vid ids.ID) (api.GetL1ValidatorReply, error) {
		var v api.GetL1ValidatorReply
		err := xn.client.Call(ctx, "/ext/bc/P", "platform.getL1Validator", map[string]string{"validationID": vid.String()}, &v)
		return v, err
	}
	l1Weights := func() map[string]uint64 {
		ws := map[string]uint64{}
		for _, v := range xn.chainValidators(bcID) {
			ws[v.NodeID.String()] = uint64(v.Weight)
		}
		return ws
	}

	// add-validator.
	out = cli("l1", "add-validator", "--weight", "10", "--balance", "500000000",
		"--bls-public-key", hex.EncodeToString(pop.PublicKey[:]), "--bls-pop", hex.EncodeToString(pop.ProofOfPossession[:]))
	for _, step := range []string{"manager: " + acp99ManagerAddress.Hex(), "initiateValidatorRegistration: tx", "signed by the L1's validators",
		"RegisterL1ValidatorTx:", "(L1ValidatorRegistration) signed", "completeValidatorRegistration: tx"} {
		require.Contains(t, out, step)
	}
	vid, err := flow.ValidationID(ctx, nodeB)
	require.NoError(t, err)
	require.Contains(t, out, "validationID: "+vid.String())
	v, err := lv(vid)
	require.NoError(t, err)
	require.Equal(t, nodeB, v.NodeID)
	require.Equal(t, uint64(10), uint64(v.Weight))
	require.Equal(t, subnetID, v.SubnetID)
	require.Equal(t, map[string]uint64{me.NodeID.String(): 100, nodeB.String(): 10}, l1Weights())
	// The same node again is refused by the manager before anything reaches the P-Chain.
	code, _, errOut = runCLI(t, append([]string{"l1", "add-validator",
		"--bls-public-key", hex.EncodeToString(pop.PublicKey[:]), "--bls-pop", hex.EncodeToString(pop.ProofOfPossession[:])}, l1Args...)...)
	require.NotEqual(t, 0, code)
	require.Contains(t, errOut, "initiateValidatorRegistration")
	require.Contains(t, errOut, "NodeAlreadyRegistered")

	// set-weight.
	out = cli("l1", "set-weight", "--weight", "20")
	require.Contains(t, out, "initiateValidatorWeightUpdate: tx")
	require.Contains(t, out, fmt.Sprintf("validation ID %s, nonce 1", vid))
	require.Contains(t, out, "SetL1ValidatorWeightTx:")
	require.Contains(t, out, "completeValidatorWeightUpdate: tx")
	v, err = lv(vid)
	require.NoError(t, err)
	require.Equal(t, uint64(20), uint64(v.Weight))
	require.Equal(t, uint64(2), uint64(v.MinNonce))
	require.Equal(t, map[string]uint64{me.NodeID.String(): 100, nodeB.String(): 20}, l1Weights())

	// remove-validator.
	out = cli("l1", "remove-validator")
	require.Contains(t, out, "initiateValidatorRemoval: tx")
	require.Contains(t, out, "completeValidatorRemoval: tx")
	_, err = lv(vid)
	require.ErrorContains(t, err, "not found")
	var current struct {
		Validators []map[string]any `json:"validators"`
	}
	xn.call("/ext/bc/P", "platform.getCurrentValidators", map[string]string{"subnetID": subnetID.String()}, &current)
	require.Len(t, current.Validators, 1)
	require.Equal(t, me.NodeID.String(), current.Validators[0]["nodeID"])
	require.Equal(t, map[string]uint64{me.NodeID.String(): 100}, l1Weights())
	_, err = flow.ValidationID(ctx, nodeB)
	require.ErrorIs(t, err, acp99.ErrUnknownValidator, "the manager forgot the node")
	// The initial validator cannot be removed by this flow (yet): refused before any tx.
	code, _, errOut = runCLI(t, "l1", "remove-validator", "--node-uri", xn.base, "--subnet-id", subnetID.String(), "--node-id", me.NodeID.String())
	require.NotEqual(t, 0, code)
	require.Contains(t, errOut, "initial validator is not supported")
}
