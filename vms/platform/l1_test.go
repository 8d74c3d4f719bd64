package platform_test

import (
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// newPoP returns the proof of possession of a fresh BLS key.
func newPoP(t *testing.T) txs.ProofOfPossession {
	t.Helper()
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	return txs.ProofOfPossession{PublicKey: pop.PublicKey, Signature: pop.ProofOfPossession}
}

// TestConversionIDVector checks ConversionID against the reference's conversion vector (§2.3).
func TestConversionIDVector(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "codec-vectors.json"))
	require.NoError(t, err)
	var f struct {
		Vectors []struct {
			Name        string `json:"name"`
			SignedTxHex string `json:"signedBytesHex"`
		} `json:"vectors"`
	}
	require.NoError(t, json.Unmarshal(b, &f))
	for _, v := range f.Vectors {
		if v.Name != "p_convert_subnet_to_l1_tx" {
			continue
		}
		raw, err := ids.HexNC.Decode(v.SignedTxHex)
		require.NoError(t, err)
		tx, err := txs.ParseTx(raw)
		require.NoError(t, err)
		conv, ok := tx.Unsigned().(*txs.ConvertSubnetToL1Tx)
		require.True(t, ok)
		require.Equal(t, "2SH738j9p71yqrH5rKrkc2hjBRQw6Lk7hwhYyQ5Dyufz5DU5m7", txs.ConversionID(conv).String())
		return
	}
	t.Fatal("no p_convert_subnet_to_l1_tx vector")
}

// TestSubnetToL1 adds a subnet validator to a subnet, converts the subnet to an L1 with one
// validator, refuses what must be refused, and restarts.
func TestSubnetToL1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, dir, clk)
	ewoq, vmrq := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoqAddr := addrOf(ewoq)
	start := n.g.P.Timestamp

	subnetID := n.createSubnet()

	addVal := func(v txs.Validator) *txs.AddSubnetValidatorTx {
		return &txs.AddSubnetValidatorTx{
			BaseTx:     n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
			Validator:  v,
			SubnetID:   subnetID,
			SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
		}
	}
	now := uint64(vectorTime.Unix())
	window := txs.Validator{NodeID: thisNode.NodeID, Start: now, End: now + 3600, Weight: 5}
	pop := newPoP(t)
	const balance = 2_000_000_000
	rbo := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoqAddr}}
	convert := func(ux *txs.UTXO, pop txs.ProofOfPossession, pay uint64) *txs.ConvertSubnetToL1Tx {
		b := n.baseTx(ux, 0, ewoqAddr, ewoqAddr)
		b.Outs[0].Out.(*secp256k1fx.TransferOutput).Amount -= pay
		return &txs.ConvertSubnetToL1Tx{
			BaseTx:   b,
			SubnetID: subnetID,
			ChainID:  ids.ID{1, 2, 3},
			Address:  []byte{0x0f, 0xee, 0xdc, 0x0d, 0xe0},
			Validators: []txs.ConvertSubnetToL1Validator{{
				NodeID: []byte(strings.Repeat("\x09", 20)), Weight: 100, Balance: balance, Signer: pop,
				RemainingBalanceOwner: rbo, DeactivationOwner: rbo,
			}},
			SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
		}
	}
	badPoP := pop
	badPoP.Signature = newPoP(t).Signature

	height := n.Height()
	balanceBefore := n.balance(ewoqP)
	for _, tt := range []struct {
		name string
		tx   *txs.Tx
		want error
	}{
		{"bad proof of possession", sign(t, convert(n.largest(ewoqP), badPoP, balance), ewoq, ewoq), platform.ErrInvalidProofOfPossession},
		{"wrong owner", sign(t, convert(n.largest(ewoqP), pop, balance), ewoq, vmrq), platform.ErrUnauthorizedSubnetModification},
		{"balance unpaid", sign(t, convert(n.largest(ewoqP), pop, 0), ewoq, ewoq), utxo.ErrInsufficientFunds},
		{"no validators", sign(t, func() *txs.ConvertSubnetToL1Tx {
			c := convert(n.largest(ewoqP), pop, balance)
			c.Validators = nil
			return c
		}(), ewoq, ewoq), platform.ErrConvertNoValidators},
		{"subnet validator outside the primary window", sign(t, addVal(txs.Validator{
			NodeID: thisNode.NodeID, Start: start, End: start + 2*31_536_000, Weight: 5,
		}), ewoq, ewoq), platform.ErrValidatorWindow},
		{"subnet validator not a primary validator", sign(t, addVal(txs.Validator{
			NodeID: ids.NodeID{1}, Start: now, End: now + 3600, Weight: 5,
		}), ewoq, ewoq), platform.ErrNotPrimaryValidator},
		{"subnet validator wrong owner", sign(t, addVal(window), ewoq, vmrq), platform.ErrUnauthorizedSubnetModification},
	} {
		msg := n.IssueTxError(tt.tx)
		require.Contains(t, msg, tt.want.Error(), tt.name)
	}
	require.Equal(t, height, n.Height())
	require.Equal(t, balanceBefore, n.balance(ewoqP))

	// The subnet owner adds this node as a subnet validator, then converts the subnet.
	n.issue(sign(t, addVal(window), ewoq, ewoq))
	before := n.balance(ewoqP)
	convTx := convert(n.largest(ewoqP), pop, balance)
	n.issue(sign(t, convTx, ewoq, ewoq))
	require.Equal(t, before-burn-balance, n.balance(ewoqP))

	check := func(n *node) {
		t.Helper()
		var subnet api.GetSubnetReply
		n.Result("getSubnet", `{"subnetID":"`+subnetID.String()+`"}`, &subnet)
		require.False(t, subnet.IsPermissioned)
		require.Equal(t, txs.ConversionID(convTx), subnet.ConversionID)
		require.Equal(t, ids.ID{1, 2, 3}, subnet.ManagerChainID)
		require.NotNil(t, subnet.ManagerAddress)
		require.Equal(t, "0x0feedc0de0", *subnet.ManagerAddress)

		cvm, ok := n.Manager.VM(ids.Empty)
		require.True(t, ok)
		_, vals, err := cvm.(*platform.VM).CurrentValidators(subnetID)
		require.NoError(t, err)
		require.Equal(t, []platform.L1Validator{{
			ValidationID: convTx.ValidationID(0), SubnetID: subnetID, NodeID: ids.NodeID([]byte(strings.Repeat("\x09", 20))),
			PublicKey: pop.PublicKey, Weight: 100, StartTime: uint64(vectorTime.Unix()), Balance: balance,
			RemainingBalanceOwner: rbo, DeactivationOwner: rbo,
		}}, vals)

		// A subnet converts once; it has no owner any more.
		require.Contains(t, n.IssueTxError(sign(t, convert(n.largest(ewoqP), pop, balance), ewoq, ewoq)), platform.ErrSubnetImmutable.Error())
		require.Contains(t, n.IssueTxError(sign(t, addVal(window), ewoq, ewoq)), platform.ErrSubnetImmutable.Error())
	}
	check(n)

	clk.Advance(time.Minute)
	n.Stop()
	n = startNode(t, dir, clk)
	check(n)
}

// TestL1ValidatorBalance converts a subnet with an active and an inactive L1 validator, adds to
// both balances (reactivating the inactive one), disables one (refunding its balance as the
// output after the tx's own), refuses what must be refused, and restarts.
func TestL1ValidatorBalance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, dir, clk)
	ewoq, vmrq := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoqAddr, vmrqAddr := addrOf(ewoq), addrOf(vmrq)
	// The remaining balance owner owns nothing else, so its balance is the refund.
	rboAddr := ids.ShortID{0xaa, 0x01}
	rboP, err := address.Format("P", "local", rboAddr)
	require.NoError(t, err)

	subnetID := n.createSubnet()

	const balance = 2_000_000_000
	rbo := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{rboAddr}}
	deact := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{vmrqAddr}}
	pop0, pop1 := newPoP(t), newPoP(t)
	b := n.ewoqPays(balance)
	convTx := &txs.ConvertSubnetToL1Tx{
		BaseTx:   b,
		SubnetID: subnetID,
		ChainID:  ids.ID{1},
		Address:  []byte{0x01},
		Validators: []txs.ConvertSubnetToL1Validator{
			{NodeID: []byte(strings.Repeat("\x01", 20)), Weight: 10, Balance: balance, Signer: pop0, RemainingBalanceOwner: rbo, DeactivationOwner: deact},
			{NodeID: []byte(strings.Repeat("\x02", 20)), Weight: 20, Signer: pop1, RemainingBalanceOwner: rbo, DeactivationOwner: deact},
		},
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}
	n.issue(sign(t, convTx, ewoq, ewoq))
	vid0, vid1 := convTx.ValidationID(0), convTx.ValidationID(1)

	disable := func(vid ids.ID, auth *ecdsa.PrivateKey) *txs.Tx {
		return sign(t, &txs.DisableL1ValidatorTx{
			BaseTx:       n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
			ValidationID: vid,
			DisableAuth:  secp256k1fx.Input{SigIndices: []uint32{0}},
		}, ewoq, auth)
	}
	balances := func(n *node) map[ids.ID]uint64 {
		t.Helper()
		cvm, ok := n.Manager.VM(ids.Empty)
		require.True(t, ok)
		_, vals, err := cvm.(*platform.VM).CurrentValidators(subnetID)
		require.NoError(t, err)
		out := make(map[ids.ID]uint64, len(vals))
		for _, v := range vals {
			out[v.ValidationID] = v.Balance
		}
		return out
	}

	before := n.balance(ewoqP)
	for _, tt := range []struct {
		name string
		tx   *txs.Tx
		want error
	}{
		{"zero increase", n.increaseBalance(vid0, 0), platform.ErrZeroBalance},
		{"unknown validator", n.increaseBalance(ids.ID{9}, 1), platform.ErrL1ValidatorNotFound},
		{"increase unpaid", func() *txs.Tx {
			return sign(t, &txs.IncreaseL1ValidatorBalanceTx{
				BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), ValidationID: vid0, Balance: burn,
			}, ewoq)
		}(), utxo.ErrInsufficientFunds},
		{"disable by the wrong owner", disable(vid0, ewoq), platform.ErrUnauthorizedL1ValidatorModification},
		{"disable unknown validator", disable(ids.ID{9}, vmrq), platform.ErrL1ValidatorNotFound},
	} {
		require.Contains(t, n.IssueTxError(tt.tx), tt.want.Error(), tt.name)
	}
	require.Equal(t, before, n.balance(ewoqP))
	require.Equal(t, map[ids.ID]uint64{vid0: balance, vid1: 0}, balances(n))

	// Increases are paid from the inputs on top of the fee; the inactive validator is reactivated.
	n.issue(n.increaseBalance(vid0, 300))
	n.issue(n.increaseBalance(vid1, 700))
	require.Equal(t, before-2*burn-1000, n.balance(ewoqP))
	require.Equal(t, map[ids.ID]uint64{vid0: balance + 300, vid1: 700}, balances(n))

	// The deactivation owner disables vid0: its balance goes to the remaining balance owner as
	// output 1, after the tx's one output.
	dis := disable(vid0, vmrq)
	n.issue(dis)
	require.Equal(t, uint64(balance+300), n.balance(rboP))
	refunds := n.utxos(rboP)
	require.Len(t, refunds, 1)
	require.Equal(t, dis.ID(), refunds[0].TxID)
	require.Equal(t, uint32(1), refunds[0].OutputIndex)
	// Disabling again changes nothing and refunds nothing.
	n.issue(disable(vid0, vmrq))
	require.Equal(t, uint64(balance+300), n.balance(rboP))

	check := func(n *node) {
		t.Helper()
		require.Equal(t, map[ids.ID]uint64{vid0: 0, vid1: 700}, balances(n))
		require.Equal(t, uint64(balance+300), n.balance(rboP))
		var reply struct {
			Validators []map[string]any `json:"validators"`
		}
		n.Result("getCurrentValidators", `{"subnetID":"`+subnetID.String()+`"}`, &reply)
		require.Len(t, reply.Validators, 2)
		byID := map[string]map[string]any{}
		for _, v := range reply.Validators {
			require.ElementsMatch(t, []string{"nodeID", "weight", "startTime", "validationID", "publicKey",
				"remainingBalanceOwner", "deactivationOwner", "minNonce", "balance"}, keysOf(v))
			byID[v["validationID"].(string)] = v
		}
		owner := func(p string) map[string]any {
			return map[string]any{"locktime": "0", "threshold": "1", "addresses": []any{p}}
		}
		v1 := byID[vid1.String()]
		require.Equal(t, ids.NodeID([]byte(strings.Repeat("\x02", 20))).String(), v1["nodeID"])
		require.Equal(t, "20", v1["weight"])
		require.Equal(t, strconv.FormatInt(vectorTime.Unix(), 10), v1["startTime"])
		require.Equal(t, "0x"+hex.EncodeToString(pop1.PublicKey[:]), v1["publicKey"])
		require.Equal(t, owner(rboP), v1["remainingBalanceOwner"])
		require.Equal(t, owner(vmrqP), v1["deactivationOwner"])
		require.Equal(t, "0", v1["minNonce"])
		require.Equal(t, "700", v1["balance"])
		require.Equal(t, "0", byID[vid0.String()]["balance"])

		n.Result("getCurrentValidators", `{"subnetID":"`+subnetID.String()+`","nodeIDs":["`+
			ids.NodeID([]byte(strings.Repeat("\x01", 20))).String()+`"]}`, &reply)
		require.Len(t, reply.Validators, 1)
		require.Equal(t, vid0.String(), reply.Validators[0]["validationID"])
	}
	check(n)

	clk.Advance(time.Minute)
	n.Stop()
	n = startNode(t, dir, clk)
	check(n)
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestL1ValidatorContinuousFee checks the continuous fee (§4.7) at the local constants: with two
// active validators, below the target, each pays 1 nAVAX a second; the VM builds an empty block
// when one runs out, and an increase reactivates it.
func TestL1ValidatorContinuousFee(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, t.TempDir(), clk)
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	subnetID := n.createSubnet()

	const small, large = 5, 1_000_000
	po := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoqAddr}}
	b := n.ewoqPays(small + large)
	convTx := &txs.ConvertSubnetToL1Tx{
		BaseTx:   b,
		SubnetID: subnetID,
		ChainID:  ids.ID{1},
		Address:  []byte{0x01},
		Validators: []txs.ConvertSubnetToL1Validator{
			{NodeID: []byte(strings.Repeat("\x01", 20)), Weight: 10, Balance: small, Signer: newPoP(t), RemainingBalanceOwner: po, DeactivationOwner: po},
			{NodeID: []byte(strings.Repeat("\x02", 20)), Weight: 20, Balance: large, Signer: newPoP(t), RemainingBalanceOwner: po, DeactivationOwner: po},
		},
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}
	n.issue(sign(t, convTx, ewoq, ewoq))
	vid0, vid1 := convTx.ValidationID(0), convTx.ValidationID(1)
	balances := func() map[ids.ID]string {
		var reply struct {
			Validators []struct {
				ValidationID ids.ID `json:"validationID"`
				Balance      string `json:"balance"`
			} `json:"validators"`
		}
		n.Result("getCurrentValidators", `{"subnetID":"`+subnetID.String()+`"}`, &reply)
		out := map[ids.ID]string{}
		for _, v := range reply.Validators {
			out[v.ValidationID] = v.Balance
		}
		return out
	}
	timestamp := func() time.Time {
		var reply struct {
			Timestamp time.Time `json:"timestamp"`
		}
		n.Result("getTimestamp", `{}`, &reply)
		return reply.Timestamp
	}
	require.Equal(t, map[ids.ID]string{vid0: "5", vid1: "1000000"}, balances())

	// Three seconds at 1 nAVAX a second each, charged by the block that carries the increase.
	clk.Advance(3 * time.Second)
	n.issue(n.increaseBalance(vid1, 1))
	require.Equal(t, map[ids.ID]string{vid0: "2", vid1: "999998"}, balances())

	// vid0 runs out 5 s after the conversion: the VM builds an empty block at that time, not at
	// the clock's, and vid0 stays listed with balance 0.
	h := n.Height()
	clk.Advance(10 * time.Second)
	require.Eventually(t, func() bool { return balances()[vid0] == "0" }, 20*time.Second, 5*time.Millisecond)
	require.Equal(t, vectorTime.Add(5*time.Second).UTC(), timestamp().UTC())
	require.NotEqual(t, h, n.Height())
	require.Equal(t, map[ids.ID]string{vid0: "0", vid1: "999996"}, balances())

	// From then on vid1 pays alone; an increase reactivates vid0 with the new balance.
	n.issue(n.increaseBalance(vid0, 100))
	require.Equal(t, vectorTime.Add(13*time.Second).UTC(), timestamp().UTC())
	require.Equal(t, map[ids.ID]string{vid0: "100", vid1: "999988"}, balances())
	clk.Advance(4 * time.Second)
	n.issue(n.increaseBalance(vid1, 1))
	require.Equal(t, map[ids.ID]string{vid0: "96", vid1: "999985"}, balances())
}
