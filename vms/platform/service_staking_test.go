package platform_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis/genesistest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestStakingMethodsGenesis checks the staking and validator-set methods on the genesis state, as
// JSON replies and error texts (reference/platform-exchange.md §5.1, "Others present").
func TestStakingMethodsGenesis(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	g := n.g
	primary := ids.Empty.String()
	x := g.XChainID.String()

	// The genesis stakers' stake outputs, as their owners should get them from getStake.
	stakedBy := map[ids.ShortID]uint64{}
	outsBy := map[ids.ShortID][]string{}
	stakes, stakerTxID := genesistest.Stakes(t, g)
	for a, list := range stakes {
		for _, s := range list {
			str, err := ids.Hex.Encode(s.Bytes)
			require.NoError(t, err)
			stakedBy[a] += s.Amount
			outsBy[a] = append(outsBy[a], str)
		}
	}
	var staker ids.ShortID
	var stakerTotal uint64
	for a, v := range stakedBy {
		staker, stakerTotal = a, v
	}
	stakerOuts, err := json.Marshal(outsBy[staker])
	require.NoError(t, err)
	stakerAddr, err := address.Format("P", "local", staker)
	require.NoError(t, err)

	for _, tt := range []struct {
		name, method, params, want string
	}{
		{"proposed height", "getProposedHeight", `{}`, `{"height":"0"}`},
		{"staking asset", "getStakingAssetID", `{}`, `{"assetID":"` + g.AVAXAssetID.String() + `"}`},
		{"staking asset of the primary network", "getStakingAssetID", `{"subnetID":"` + primary + `"}`, `{"assetID":"` + g.AVAXAssetID.String() + `"}`},
		{"min stake", "getMinStake", `{}`, `{"minValidatorStake":"2000000000000","minDelegatorStake":"25000000000"}`},
		{"total stake", "getTotalStake", `{}`, `{"stake":"10000000000000000","weight":"10000000000000000"}`},
		{"total stake of an unknown subnet", "getTotalStake", `{"subnetID":"` + x + `"}`, `{"stake":"0","weight":"0"}`},
		// The initial supply plus the five genesis stakers' potential rewards, each on the supply
		// the ones before it left (§4.6, §4.10).
		{"current supply", "getCurrentSupply", `{}`, `{"supply":"361196333750752149","height":"0"}`},
		{"validated by X", "validatedBy", `{"blockchainID":"` + x + `"}`, `{"subnetID":"` + primary + `"}`},
		{"validated by P", "validatedBy", `{"blockchainID":"` + primary + `"}`, `{"subnetID":"` + primary + `"}`},
		{"validates", "validates", `{}`, `{"blockchainIDs":` + mustJSON(t, sortedIDs(g.XChainID, g.CChainID)) + `}`},
		{"sample none", "sampleValidators", `{"size":"0"}`, `{"validators":[]}`},
		{"stake of a genesis staker", "getStake", `{"addresses":["` + stakerAddr + `"]}`,
			`{"staked":"` + u64(stakerTotal) + `","stakeds":{"` + g.AVAXAssetID.String() + `":"` + u64(stakerTotal) +
				`"},"stakedOutputs":` + string(stakerOuts) + `,"encoding":"hex"}`},
		{"stake of a non-staker", "getStake", `{"addresses":["` + ewoqP + `"],"validatorsOnly":true}`,
			`{"staked":"0","stakeds":{},"stakedOutputs":[],"encoding":"hex"}`},
		{"stake of no one", "getStake", `{"addresses":[]}`, `{"staked":"0","stakeds":{},"stakedOutputs":[],"encoding":"hex"}`},
		{"reward UTXOs", "getRewardUTXOs", `{"txID":"` + stakerTxID.String() + `"}`, `{"numFetched":"0","utxos":[],"encoding":"hex"}`},
	} {
		require.JSONEq(t, tt.want, n.RawResult(tt.method, tt.params), tt.name)
	}

	// Samples and warp sets are of the genesis stakers.
	stakers := map[ids.NodeID]string{}
	for _, tx := range g.P.Validators {
		u := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
		stakers[u.Validator.NodeID] = pkHex(u.Signer.(*txs.ProofOfPossession).PublicKey)
	}
	var sample api.SampleValidatorsReply
	n.Result("sampleValidators", `{"size":3}`, &sample)
	require.Len(t, sample.Validators, 3)
	for _, id := range sample.Validators {
		require.Contains(t, stakers, id)
	}
	for _, height := range []string{`"0"`, `"proposed"`} {
		var all api.GetAllValidatorsAtReply
		n.Result("getAllValidatorsAt", `{"height":`+height+`}`, &all)
		require.Len(t, all.ValidatorSets, 1)
		set := all.ValidatorSets[ids.Empty]
		require.Equal(t, "10000000000000000", fmt.Sprint(uint64(set.TotalWeight)))
		require.Len(t, set.Validators, 5)
		for _, v := range set.Validators {
			require.Len(t, v.NodeIDs, 1)
			require.Equal(t, stakers[v.NodeIDs[0]], v.PublicKey)
			require.Equal(t, "2000000000000000", fmt.Sprint(uint64(v.Weight)))
		}
	}

	tooMany := make([]string, platform.MaxGetStakeAddrs+1)
	for i := range tooMany {
		tooMany[i] = ewoqP
	}
	for _, tt := range []struct {
		name, method, params, want string
	}{
		{"staking asset of a subnet", "getStakingAssetID", `{"subnetID":"` + x + `"}`, "failed fetching subnet transformation for " + x + ": not found"},
		{"min stake of a subnet", "getMinStake", `{"subnetID":"` + x + `"}`, "failed fetching subnet transformation for " + x + ": not found"},
		{"supply of a subnet", "getCurrentSupply", `{"subnetID":"` + x + `"}`, "fetching current supply failed: not found"},
		{"validated by an unknown chain", "validatedBy", `{"blockchainID":"` + ids.ID{1}.String() + `"}`,
			`problem retrieving blockchain "` + ids.ID{1}.String() + `": not found`},
		{"validated by a tx that is not a chain", "validatedBy", `{"blockchainID":"` + stakerTxID.String() + `"}`,
			`"` + stakerTxID.String() + `" is not a blockchain`},
		{"validates an unknown subnet", "validates", `{"subnetID":"` + ids.ID{1}.String() + `"}`,
			`problem retrieving subnet "` + ids.ID{1}.String() + `": not found`},
		{"validates a chain", "validates", `{"subnetID":"` + x + `"}`, `"` + x + `" is not a subnet`},
		{"sample an empty subnet", "sampleValidators", `{"size":"1","subnetID":"` + x + `"}`, "sampling " + x + " errored with missing validators"},
		{"sample size out of range", "sampleValidators", `{"size":"65536"}`, "couldn't unmarshal"},
		{"all validators in the future", "getAllValidatorsAt", `{"height":"5"}`,
			"failed to get validator sets at 5: failed to fetch validator set at unfinalized height: current P-chain height (0) < requested P-Chain height (5)"},
		{"too many stake addresses", "getStake", `{"addresses":` + mustJSON(t, tooMany) + `}`, "257 addresses provided but this method can take at most 256"},
	} {
		require.Contains(t, n.CallError(tt.method, tt.params), tt.want, tt.name)
	}
}

// TestStakingMethodsSubnet checks them on a subnet with a chain, a legacy validator (this node,
// weight 5) and an L1 validator (weight 100).
func TestStakingMethodsSubnet(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	subnetID := n.createSubnet()
	chain := sign(t, &txs.CreateChainTx{
		BaseTx:      n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
		SubnetID:    subnetID,
		ChainName:   "staking test",
		VMID:        ids.FromName("subnetevm"),
		GenesisData: []byte(`{}`),
		SubnetAuth:  secp256k1fx.Input{SigIndices: []uint32{0}},
	}, ewoq, ewoq)
	n.issue(chain)
	now := uint64(vectorTime.Unix())
	n.issue(sign(t, &txs.AddSubnetValidatorTx{
		BaseTx:     n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
		Validator:  txs.Validator{NodeID: thisNode.NodeID, Start: now, End: now + 3600, Weight: 5},
		SubnetID:   subnetID,
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}, ewoq, ewoq))
	pop := newPoP(t)
	l1Node := ids.NodeID([]byte(strings.Repeat("\x09", 20)))
	rbo := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoqAddr}}
	b := n.ewoqPays(2_000_000_000)
	n.issue(sign(t, &txs.ConvertSubnetToL1Tx{
		BaseTx:   b,
		SubnetID: subnetID,
		ChainID:  chain.ID(),
		Address:  []byte{1},
		Validators: []txs.ConvertSubnetToL1Validator{{
			NodeID: l1Node[:], Weight: 100, Balance: 2_000_000_000, Signer: pop,
			RemainingBalanceOwner: rbo, DeactivationOwner: rbo,
		}},
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}, ewoq, ewoq))
	require.Equal(t, "4", n.Height())
	sub := subnetID.String()

	require.JSONEq(t, `{"stake":"105","weight":"105"}`, n.RawResult("getTotalStake", `{"subnetID":"`+sub+`"}`))
	require.JSONEq(t, `{"subnetID":"`+sub+`"}`, n.RawResult("validatedBy", `{"blockchainID":"`+chain.ID().String()+`"}`))
	require.JSONEq(t, `{"blockchainIDs":["`+chain.ID().String()+`"]}`, n.RawResult("validates", `{"subnetID":"`+sub+`"}`))
	require.JSONEq(t, `{"height":"4"}`, n.RawResult("getProposedHeight", `{}`))

	// 105 units: every unit, so each validator once per unit of its weight.
	var sample api.SampleValidatorsReply
	n.Result("sampleValidators", `{"size":"105","subnetID":"`+sub+`"}`, &sample)
	require.Len(t, sample.Validators, 105)
	require.True(t, slices.IsSortedFunc(sample.Validators, ids.NodeID.Compare))
	counts := map[ids.NodeID]int{}
	for _, id := range sample.Validators {
		counts[id]++
	}
	require.Equal(t, map[ids.NodeID]int{thisNode.NodeID: 5, l1Node: 100}, counts)
	require.Equal(t, "sampling "+sub+" errored with insufficient weight",
		n.CallError("sampleValidators", `{"size":"106","subnetID":"`+sub+`"}`))

	// The warp sets: the subnet's two keys, sorted by uncompressed key, at height 4; none at 3.
	var all api.GetAllValidatorsAtReply
	n.Result("getAllValidatorsAt", `{"height":"4"}`, &all)
	require.Len(t, all.ValidatorSets, 2)
	ws := all.ValidatorSets[subnetID]
	require.EqualValues(t, 105, ws.TotalWeight)
	want := []api.APIWarpValidator{
		{PublicKey: "0x01" + strings.Repeat("00", 47), Weight: 5, NodeIDs: []ids.NodeID{thisNode.NodeID}},
		{PublicKey: "0x" + hex.EncodeToString(pop.PublicKey[:]), Weight: 100, NodeIDs: []ids.NodeID{l1Node}},
	}
	a, bb := pop.PublicKey, [48]byte{1}
	if platform.CompareWarpKeys(&a, &bb) < 0 {
		want[0], want[1] = want[1], want[0]
	}
	require.Equal(t, want, ws.Validators)
	all = api.GetAllValidatorsAtReply{}
	n.Result("getAllValidatorsAt", `{"height":"3"}`, &all)
	require.Len(t, all.ValidatorSets, 2, "the legacy validator is current at 3")
	require.Len(t, all.ValidatorSets[subnetID].Validators, 1)
	all = api.GetAllValidatorsAtReply{}
	n.Result("getAllValidatorsAt", `{"height":"2"}`, &all)
	require.Len(t, all.ValidatorSets, 1, "no subnet validator before block 3")
	require.Contains(t, all.ValidatorSets, ids.Empty)
}

// TestSampleSizeJSON checks the size param's forms.
func TestSampleSizeJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want api.SampleSize
		ok   bool
	}{
		{`"3"`, 3, true},
		{`3`, 3, true},
		{`"65535"`, 65535, true},
		{`"65536"`, 0, false},
		{`-1`, 0, false},
		{`"x"`, 0, false},
		{`null`, 0, true},
	} {
		var s api.SampleSize
		err := json.Unmarshal([]byte(tt.in), &s)
		if !tt.ok {
			require.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, s, tt.in)
	}
	b, err := json.Marshal(api.SampleSize(7))
	require.NoError(t, err)
	require.JSONEq(t, `"7"`, string(b))
}

// FuzzSampleSize checks that the size decoder never panics and round-trips what it accepts.
func FuzzSampleSize(f *testing.F) {
	for _, s := range []string{`"3"`, `3`, `"65536"`, `null`, `""`, `"-1"`, `1e3`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s api.SampleSize
		if json.Unmarshal(b, &s) != nil {
			return
		}
		out, err := json.Marshal(s)
		require.NoError(t, err)
		var back api.SampleSize
		require.NoError(t, json.Unmarshal(out, &back))
		require.Equal(t, s, back)
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func sortedIDs(xs ...ids.ID) []ids.ID {
	slices.SortFunc(xs, ids.ID.Compare)
	return xs
}
