package platform_test

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// l1Fixture is a node with a subnet that has this node as a legacy validator and was then
// converted to an L1 with two validators: vid0 (node 0x01…, weight 10, a balance of 5 nAVAX)
// and vid1 (node 0x02…, weight 20, a large balance).
type l1Fixture struct {
	n          *node
	clk        *clock.Fake
	dir        string
	subnetID   ids.ID
	vid0, vid1 ids.ID
	pop0, pop1 txs.ProofOfPossession
	node0      ids.NodeID
	node1      ids.NodeID
	convTime   uint64
}

func newL1Fixture(t *testing.T) *l1Fixture {
	t.Helper()
	f := &l1Fixture{dir: t.TempDir(), clk: clock.NewFake(vectorTime)}
	f.n = startNode(t, f.dir, f.clk)
	n := f.n
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)

	// Height 1: the subnet.
	f.clk.Advance(time.Second)
	f.subnetID = n.createSubnet()

	// Height 2: this node as a legacy validator, for an hour.
	f.clk.Advance(time.Second)
	now := uint64(f.clk.Now().Unix())
	n.issue(sign(t, &txs.AddSubnetValidatorTx{
		BaseTx:     n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
		Validator:  txs.Validator{NodeID: thisNode.NodeID, Start: now, End: now + 3600, Weight: 5},
		SubnetID:   f.subnetID,
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}, ewoq, ewoq))

	// Height 3: the conversion.
	f.clk.Advance(time.Second)
	f.convTime = uint64(f.clk.Now().Unix())
	const small, large = 5, 1_000_000
	po := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoqAddr}}
	f.pop0, f.pop1 = newPoP(t), newPoP(t)
	f.node0, f.node1 = ids.NodeID([]byte(strings.Repeat("\x01", 20))), ids.NodeID([]byte(strings.Repeat("\x02", 20)))
	b := n.ewoqPays(small + large)
	convTx := &txs.ConvertSubnetToL1Tx{
		BaseTx:   b,
		SubnetID: f.subnetID,
		ChainID:  ids.ID{1},
		Address:  []byte{0x01},
		Validators: []txs.ConvertSubnetToL1Validator{
			{NodeID: f.node0[:], Weight: 10, Balance: small, Signer: f.pop0, RemainingBalanceOwner: po, DeactivationOwner: po},
			{NodeID: f.node1[:], Weight: 20, Balance: large, Signer: f.pop1, RemainingBalanceOwner: po, DeactivationOwner: po},
		},
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}
	n.issue(sign(t, convTx, ewoq, ewoq))
	f.vid0, f.vid1 = convTx.ValidationID(0), convTx.ValidationID(1)
	require.Equal(t, "3", n.Height())
	return f
}

// runOut lets vid0's balance run out: the VM builds the block that deactivates it (height 4).
func (f *l1Fixture) runOut(t *testing.T) {
	t.Helper()
	f.clk.Advance(10 * time.Second)
	require.Eventually(t, func() bool { return f.n.Height() == "4" }, 20*time.Second, 2*time.Millisecond)
}

func (f *l1Fixture) increase(t *testing.T, vid ids.ID, amount uint64) {
	t.Helper()
	f.n.issue(f.n.increaseBalance(vid, amount))
}

func (f *l1Fixture) disable(t *testing.T, vid ids.ID) {
	t.Helper()
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	f.n.issue(sign(t, &txs.DisableL1ValidatorTx{
		BaseTx:       f.n.baseTx(f.n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
		ValidationID: vid,
		DisableAuth:  secp256k1fx.Input{SigIndices: []uint32{0}},
	}, ewoq, ewoq))
}

func pkHex(pk [48]byte) string { return "0x" + hex.EncodeToString(pk[:]) }

// TestGetL1Validator checks platform.getL1Validator: a known validator byte for byte, an unknown
// one with the reference's text, and a validator whose balance ran out, with balance "0".
func TestGetL1Validator(t *testing.T) {
	t.Parallel()
	f := newL1Fixture(t)
	n := f.n
	owner := `{"locktime":"0","threshold":"1","addresses":["` + ewoqP + `"]}`
	want := func(vid ids.ID, nodeID ids.NodeID, pop txs.ProofOfPossession, weight, balance, height string) string {
		return `{"nodeID":"` + nodeID.String() + `","weight":"` + weight + `","startTime":"` + strconv.FormatUint(f.convTime, 10) +
			`","validationID":"` + vid.String() + `","publicKey":"` + pkHex(pop.PublicKey) + `","remainingBalanceOwner":` + owner +
			`,"deactivationOwner":` + owner + `,"minNonce":"0","balance":"` + balance + `","subnetID":"` + f.subnetID.String() +
			`","height":"` + height + `"}`
	}
	require.Equal(t, want(f.vid0, f.node0, f.pop0, "10", "5", "3"), n.RawResult("getL1Validator", `{"validationID":"`+f.vid0.String()+`"}`))

	tests := []struct {
		name   string
		params string
	}{
		{name: "live sample", params: `{"validationID":"2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst"}`},
		{name: "subnet ID is not a validation ID", params: `{"validationID":"` + f.subnetID.String() + `"}`},
	}
	for _, tt := range tests {
		var id struct {
			ValidationID string `json:"validationID"`
		}
		require.NoError(t, json.Unmarshal([]byte(tt.params), &id), tt.name)
		require.Equal(t, `fetching L1 validator "`+id.ValidationID+`" failed: not found`, n.CallError("getL1Validator", tt.params), tt.name)
	}
	require.Equal(t, liveError(t, "platform.getL1Validator", tests[0].params), n.CallError("getL1Validator", tests[0].params))

	f.runOut(t)
	require.Equal(t, want(f.vid0, f.node0, f.pop0, "10", "0", "4"), n.RawResult("getL1Validator", `{"validationID":"`+f.vid0.String()+`"}`))
	// vid1 paid for the 5 s until the run-out.
	require.Equal(t, want(f.vid1, f.node1, f.pop1, "20", "999995", "4"), n.RawResult("getL1Validator", `{"validationID":"`+f.vid1.String()+`"}`))
}

// TestGetValidatorsAt checks the validator sets of a subnet at every height across a legacy
// validator, a conversion, a run-out, an increase and a disable; the primary network's; the
// errors; and that a restart keeps them.
func TestGetValidatorsAt(t *testing.T) {
	t.Parallel()
	f := newL1Fixture(t)
	f.runOut(t)                // height 4: vid0 inactive
	f.increase(t, f.vid0, 100) // height 5: vid0 active again
	f.disable(t, f.vid1)       // height 6: vid1 inactive
	require.Equal(t, "6", f.n.Height())

	legacy := `"` + thisNode.NodeID.String() + `":{"publicKey":"` + pkHex(thisNode.Signer.PublicKey) + `","weight":"5"}`
	v0 := `"` + f.node0.String() + `":{"publicKey":"` + pkHex(f.pop0.PublicKey) + `","weight":"10"}`
	v1 := `"` + f.node1.String() + `":{"publicKey":"` + pkHex(f.pop1.PublicKey) + `","weight":"20"}`
	inactive := func(w string) string {
		return `"NodeID-111111111111111111116DBWJs":{"publicKey":null,"weight":"` + w + `"}`
	}
	// Map keys are in node ID string order, byte-wise (encoding/json sorts them).
	sorted := func(entries ...string) string {
		slices.Sort(entries)
		return "{" + strings.Join(entries, ",") + "}"
	}
	tests := []struct {
		height string
		want   string
	}{
		{"0", `{}`},
		{"1", `{}`},
		{"2", sorted(legacy)},
		{"3", sorted(v0, legacy, v1)},
		{"4", sorted(inactive("10"), legacy, v1)},
		{"5", sorted(v0, legacy, v1)},
		{"6", sorted(inactive("20"), v0, legacy)},
		{`"proposed"`, sorted(inactive("20"), v0, legacy)},
		{"6", sorted(inactive("20"), v0, legacy)},
	}
	check := func(n *node) {
		t.Helper()
		for _, tt := range tests {
			h := tt.height
			if !strings.HasPrefix(h, `"`) {
				h = `"` + h + `"`
			}
			require.Equal(t, tt.want, n.RawResult("getValidatorsAt", `{"height":`+h+`,"subnetID":"`+f.subnetID.String()+`"}`), "height %s", tt.height)
		}
		// Bare numbers are accepted too.
		require.Equal(t, sorted(legacy), n.RawResult("getValidatorsAt", `{"height":2,"subnetID":"`+f.subnetID.String()+`"}`))
		// The primary network (the default subnet) is the genesis's stakers at every height.
		primary := genesisValidatorsAt(f.n.g)
		require.Equal(t, primary, n.RawResult("getValidatorsAt", `{"height":"0"}`))
		require.Equal(t, primary, n.RawResult("getValidatorsAt", `{"height":"proposed","subnetID":"11111111111111111111111111111111LpoYY"}`))
		// An unknown subnet has no validators.
		require.Equal(t, `{}`, n.RawResult("getValidatorsAt", `{"height":"3","subnetID":"2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst"}`))

		require.Equal(t, "failed to get validator set at 9999: failed to fetch validator set at unfinalized height with SubnetID = "+
			f.subnetID.String()+": current P-chain height (6) < requested P-Chain height (9999)",
			n.CallError("getValidatorsAt", `{"height":"9999","subnetID":"`+f.subnetID.String()+`"}`))
		require.Equal(t, "failed to get validator set at 7: failed to fetch validator set at unfinalized height with SubnetID = "+
			"11111111111111111111111111111111LpoYY: current P-chain height (6) < requested P-Chain height (7)",
			n.CallError("getValidatorsAt", `{"height":"7"}`))
		for _, bad := range []string{`"x"`, `"18446744073709551615"`, `-1`, `"1.5"`} {
			require.NotEmpty(t, n.CallError("getValidatorsAt", `{"height":`+bad+`}`), bad)
		}
	}
	check(f.n)

	// The accessor agrees with the API.
	cvm, ok := f.n.Manager.VM(ids.Empty)
	require.True(t, ok)
	vm := cvm.(*platform.VM)
	set, err := vm.ValidatorsAt(f.subnetID, 4)
	require.NoError(t, err)
	pk1 := f.pop1.PublicKey
	tpk := thisNode.Signer.PublicKey
	require.Equal(t, []platform.SetValidator{
		{NodeID: ids.EmptyNodeID, Weight: 10},
		{NodeID: f.node1, PublicKey: &pk1, Weight: 20},
		{NodeID: thisNode.NodeID, PublicKey: &tpk, Weight: 5},
	}, set)
	_, err = vm.ValidatorsAt(f.subnetID, 7)
	require.ErrorIs(t, err, platform.ErrUnfinalizedHeight)

	// A restart keeps the per-height sets.
	f.clk.Advance(time.Minute)
	f.n.Stop()
	f.n = startNode(t, f.dir, f.clk)
	check(f.n)

	// Once the legacy validator's window ends, later heights no longer list it. vid0's 100 nAVAX
	// run out first (height 7, inside the window: both inactive); the increase reactivates vid1 at
	// height 8.
	f.clk.Advance(2 * time.Hour)
	require.Eventually(t, func() bool { return f.n.Height() == "7" }, 20*time.Second, 2*time.Millisecond)
	f.increase(t, f.vid1, 100)
	require.Equal(t, "8", f.n.Height())
	require.Equal(t, sorted(inactive("30"), legacy), f.n.RawResult("getValidatorsAt", `{"height":"7","subnetID":"`+f.subnetID.String()+`"}`))
	require.Equal(t, sorted(inactive("10"), v1), f.n.RawResult("getValidatorsAt", `{"height":"8","subnetID":"`+f.subnetID.String()+`"}`))
	require.Equal(t, sorted(inactive("20"), v0, legacy), f.n.RawResult("getValidatorsAt", `{"height":"6","subnetID":"`+f.subnetID.String()+`"}`))
}

// TestAccessors checks the node's read accessors on the L1 fixture, before and after a restart.
func TestAccessors(t *testing.T) {
	t.Parallel()
	f := newL1Fixture(t)
	check := func(n *node) {
		t.Helper()
		cvm, ok := n.Manager.VM(ids.Empty)
		require.True(t, ok)
		vm := cvm.(*platform.VM)
		require.Equal(t, uint64(3), vm.Height())

		legacy, err := vm.SubnetValidators(f.subnetID)
		require.NoError(t, err)
		require.Len(t, legacy, 1)
		require.Equal(t, thisNode.NodeID, legacy[0].NodeID)
		require.Equal(t, uint64(5), legacy[0].Weight)
		require.Equal(t, legacy[0].StartTime+3600, legacy[0].EndTime)
		none, err := vm.SubnetValidators(ids.ID{9})
		require.NoError(t, err)
		require.Empty(t, none)
		primary, err := vm.SubnetValidators(ids.Empty)
		require.NoError(t, err)
		require.Len(t, primary, 1, "the Primary Network's validator is this node")
		require.Equal(t, thisNode.NodeID, primary[0].NodeID)
		require.Equal(t, ids.Empty, primary[0].TxID)
		require.NotZero(t, primary[0].Weight)
		require.Less(t, primary[0].StartTime, primary[0].EndTime)

		chains, err := vm.Blockchains()
		require.NoError(t, err)
		require.Len(t, chains, 2)
		require.Equal(t, n.g.XChainID, chains[0].ID)
		require.Equal(t, "X-Chain", chains[0].Name)
		require.Equal(t, ids.Empty, chains[0].SubnetID)
		require.NotEmpty(t, chains[0].Genesis)
		require.Equal(t, n.g.CChainID, chains[1].ID)

		info, found, err := vm.Subnet(f.subnetID)
		require.NoError(t, err)
		require.True(t, found)
		require.True(t, info.IsL1)
		require.Equal(t, ids.ID{1}, info.ManagerChainID)
		require.Equal(t, []byte{0x01}, info.ManagerAddress)
		require.NotEqual(t, ids.Empty, info.ConversionID)
		require.Equal(t, owner(addrOf(key(t, ewoqKeyHex))), info.Owner)
		for _, id := range []ids.ID{ids.Empty, {9}} {
			_, found, err := vm.Subnet(id)
			require.NoError(t, err)
			require.False(t, found, id)
		}

		l1v, found, err := vm.L1Validator(f.vid1)
		require.NoError(t, err)
		require.True(t, found)
		require.Equal(t, f.node1, l1v.NodeID)
		_, found, err = vm.L1Validator(ids.ID{9})
		require.NoError(t, err)
		require.False(t, found)

		tests := []struct {
			name   string
			nodeID ids.NodeID
			subnet ids.ID
			want   bool
		}{
			{"this node, primary network", thisNode.NodeID, ids.Empty, true},
			{"other node, primary network", f.node0, ids.Empty, false},
			{"legacy validator", thisNode.NodeID, f.subnetID, true},
			{"active L1 validator", f.node1, f.subnetID, true},
			{"inactive L1 validator", f.node0, f.subnetID, true},
			{"stranger", ids.NodeID{5}, f.subnetID, false},
			{"unknown subnet", thisNode.NodeID, ids.ID{9}, false},
		}
		for _, tt := range tests {
			got, err := vm.ValidatesSubnet(tt.nodeID, tt.subnet)
			require.NoError(t, err, tt.name)
			require.Equal(t, tt.want, got, tt.name)
		}
	}
	// Let vid0 run out without a block yet: it is still listed as an L1 validator.
	check(f.n)
	f.n.Stop()
	f.n = startNode(t, f.dir, f.clk)
	check(f.n)

	// getCurrentValidators lists the legacy validator as a bare staker before the L1 validators.
	var reply struct {
		Validators []map[string]any `json:"validators"`
	}
	f.n.Result("getCurrentValidators", `{"subnetID":"`+f.subnetID.String()+`"}`, &reply)
	require.Len(t, reply.Validators, 3)
	require.ElementsMatch(t, []string{"txID", "startTime", "endTime", "weight", "nodeID"}, keysOf(reply.Validators[0]))
	require.Equal(t, thisNode.NodeID.String(), reply.Validators[0]["nodeID"])
}

// TestActiveL1ValidatorCapacity checks that no tx makes more L1 validators active than the
// continuous fee's capacity (§4.4): a conversion over it is refused, and so is reactivating one.
func TestActiveL1ValidatorCapacity(t *testing.T) {
	t.Parallel()
	fac := thisNode
	fac.ValidatorFees = platform.LocalValidatorFeeConfig
	fac.ValidatorFees.Capacity = 1
	clk := clock.NewFake(vectorTime)
	n := startNodeWith(t, t.TempDir(), clk, fac)
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	createSubnet := sign(t, &txs.CreateSubnetTx{BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), Owner: owner(ewoqAddr)}, ewoq)
	n.issue(createSubnet)
	po := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoqAddr}}
	convert := func(b0, b1 uint64) *txs.Tx {
		b := n.ewoqPays(b0 + b1)
		return sign(t, &txs.ConvertSubnetToL1Tx{
			BaseTx: b, SubnetID: createSubnet.ID(), ChainID: ids.ID{1}, Address: []byte{1},
			Validators: []txs.ConvertSubnetToL1Validator{
				{NodeID: []byte(strings.Repeat("\x01", 20)), Weight: 1, Balance: b0, Signer: newPoP(t), RemainingBalanceOwner: po, DeactivationOwner: po},
				{NodeID: []byte(strings.Repeat("\x02", 20)), Weight: 1, Balance: b1, Signer: newPoP(t), RemainingBalanceOwner: po, DeactivationOwner: po},
			},
			SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
		}, ewoq, ewoq)
	}
	require.Contains(t, n.IssueTxError(convert(1000, 1000)), platform.ErrMaxActiveL1Validators.Error())
	conv := convert(1000, 0)
	n.issue(conv)
	vid1 := conv.Unsigned().(*txs.ConvertSubnetToL1Tx).ValidationID(1)
	b := n.ewoqPays(10)
	inc := sign(t, &txs.IncreaseL1ValidatorBalanceTx{BaseTx: b, ValidationID: vid1, Balance: 10}, ewoq)
	require.Contains(t, n.IssueTxError(inc), platform.ErrMaxActiveL1Validators.Error())
}

// TestHeightJSON checks the height parameter's decoding (quoted, bare, "proposed") and that
// encoding round-trips.
func TestHeightJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    api.Height
		wantErr bool
	}{
		{in: `"12"`, want: 12},
		{in: `12`, want: 12},
		{in: `"proposed"`, want: api.ProposedHeight},
		{in: `"18446744073709551614"`, want: 18446744073709551614},
		{in: `"18446744073709551615"`, wantErr: true},
		{in: `"Proposed"`, wantErr: true},
		{in: `-1`, wantErr: true},
		{in: `"x"`, wantErr: true},
	}
	for _, tt := range tests {
		var h api.Height
		err := json.Unmarshal([]byte(tt.in), &h)
		if tt.wantErr {
			require.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, h, tt.in)
		b, err := json.Marshal(h)
		require.NoError(t, err)
		var back api.Height
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, h, back)
	}
	var h api.Height = 7
	require.NoError(t, json.Unmarshal([]byte(`null`), &h))
	require.Equal(t, api.Height(7), h)
}

// FuzzHeight checks that decoding a height never panics and that a decoded height encodes to a
// form that decodes to it again.
func FuzzHeight(f *testing.F) {
	for _, s := range []string{`"12"`, `12`, `"proposed"`, `null`, `"18446744073709551615"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var h api.Height
		if err := json.Unmarshal(b, &h); err != nil {
			return
		}
		enc, err := json.Marshal(h)
		require.NoError(t, err)
		var back api.Height
		require.NoError(t, json.Unmarshal(enc, &back))
		require.Equal(t, h, back)
	})
}

// TestGetCurrentValidatorsL1Exact checks platform.getCurrentValidators' L1 validators byte for
// byte, as getL1Validator shows them, without the subnet and height.
func TestGetCurrentValidatorsL1Exact(t *testing.T) {
	t.Parallel()
	f := newL1Fixture(t)
	owner := `{"locktime":"0","threshold":"1","addresses":["` + ewoqP + `"]}`
	val := func(vid ids.ID, nodeID ids.NodeID, pop txs.ProofOfPossession, weight, balance string) string {
		return `{"nodeID":"` + nodeID.String() + `","weight":"` + weight + `","startTime":"` + strconv.FormatUint(f.convTime, 10) +
			`","validationID":"` + vid.String() + `","publicKey":"` + pkHex(pop.PublicKey) + `","remainingBalanceOwner":` + owner +
			`,"deactivationOwner":` + owner + `,"minNonce":"0","balance":"` + balance + `"}`
	}
	v0, v1 := val(f.vid0, f.node0, f.pop0, "10", "5"), val(f.vid1, f.node1, f.pop1, "20", "1000000")
	if f.vid1.Compare(f.vid0) < 0 {
		v0, v1 = v1, v0
	}
	params := `{"subnetID":"` + f.subnetID.String() + `","nodeIDs":["` + f.node0.String() + `","` + f.node1.String() + `"]}`
	require.Equal(t, `{"validators":[`+v0+`,`+v1+`]}`, f.n.RawResult("getCurrentValidators", params))
}
