package platform_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// TestLegacySubnetTxs removes a legacy subnet validator before its end with
// RemoveSubnetValidatorTx and hands the subnet to a new owner with TransferSubnetOwnershipTx:
// the validator leaves the subnet's current validators and its set at the removal's height, and
// from then on only the new owner authorizes the subnet. Refusals carry the reference's texts and
// change nothing.
func TestLegacySubnetTxs(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	ewoq, vmrq := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoqAddr, vmrqAddr := addrOf(ewoq), addrOf(vmrq)
	subnetID := n.createSubnet()
	now := uint64(vectorTime.Unix())
	auth := secp256k1fx.Input{SigIndices: []uint32{0}}
	n.issue(sign(t, &txs.AddSubnetValidatorTx{
		BaseTx:     n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
		Validator:  txs.Validator{NodeID: thisNode.NodeID, Start: now, End: now + 3600, Weight: 5},
		SubnetID:   subnetID,
		SubnetAuth: auth,
	}, ewoq, ewoq))
	validators := func() string { return n.RawResult("getCurrentValidators", `{"subnetID":"`+subnetID.String()+`"}`) }
	require.Contains(t, validators(), thisNode.NodeID.String())

	remove := func(nodeID ids.NodeID) *txs.Tx {
		return sign(t, &txs.RemoveSubnetValidatorTx{
			BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), NodeID: nodeID, SubnetID: subnetID, SubnetAuth: auth,
		}, ewoq, ewoq)
	}
	other := ids.NodeID{4, 2}
	height := n.Height()
	require.True(t, strings.HasSuffix(n.IssueTxError(remove(other)),
		other.String()+" isn't a current or pending validator of "+subnetID.String()+": not found"), n.IssueTxError(remove(other)))
	primary := sign(t, &txs.RemoveSubnetValidatorTx{
		BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), NodeID: thisNode.NodeID, SubnetAuth: auth,
	}, ewoq, ewoq)
	require.True(t, strings.HasSuffix(n.IssueTxError(primary), "can't remove a permissionless validator"))
	require.Equal(t, height, n.Height())

	n.issue(remove(thisNode.NodeID))
	require.NotContains(t, validators(), thisNode.NodeID.String())
	var at map[string]any
	n.Result("getValidatorsAt", `{"height":"proposed","subnetID":"`+subnetID.String()+`"}`, &at)
	require.Empty(t, at)

	// The owner hands the subnet to vmrq: ewoq's authorization no longer works, vmrq's does.
	transfer := func() *txs.Tx {
		return sign(t, &txs.TransferSubnetOwnershipTx{
			BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), SubnetID: subnetID, SubnetAuth: auth, Owner: owner(vmrqAddr),
		}, ewoq, ewoq)
	}
	n.issue(transfer())
	var subnet struct {
		ControlKeys []string `json:"controlKeys"`
	}
	n.Result("getSubnet", `{"subnetID":"`+subnetID.String()+`"}`, &subnet)
	require.Equal(t, []string{vmrqP}, subnet.ControlKeys)
	require.Contains(t, n.IssueTxError(transfer()), "unauthorized subnet modification")
	chain := func() *txs.CreateChainTx {
		return &txs.CreateChainTx{
			BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), SubnetID: subnetID, ChainName: "moved",
			VMID: ids.ID{1}, SubnetAuth: auth,
		}
	}
	require.Contains(t, n.IssueTxError(sign(t, chain(), ewoq, ewoq)), "unauthorized subnet modification")
	n.issue(sign(t, chain(), ewoq, vmrq))
	primaryTransfer := sign(t, &txs.TransferSubnetOwnershipTx{
		BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), SubnetAuth: auth, Owner: owner(vmrqAddr),
	}, ewoq, ewoq)
	require.True(t, strings.HasSuffix(n.IssueTxError(primaryTransfer), "cannot transfer ownership of a permissionless subnet"))

	// A staking validator's node may validate the subnet within its staking period.
	pop := newPoP(t)
	n.issue(n.addValidator(t, other, &pop, 2_000*avax, now+2*24*3600, 20_000, ewoqAddr))
	addOther := func(end uint64) *txs.Tx {
		return sign(t, &txs.AddSubnetValidatorTx{
			BaseTx:     n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr),
			Validator:  txs.Validator{NodeID: other, Start: now, End: end, Weight: 7},
			SubnetID:   subnetID,
			SubnetAuth: auth,
		}, ewoq, vmrq)
	}
	require.Contains(t, n.IssueTxError(addOther(now+3*24*3600)), "staking period must be a subset of the primary network")
	n.issue(addOther(now + 3600))
	require.Contains(t, validators(), other.String())
}
