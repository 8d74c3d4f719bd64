package node_test

import (
	"testing"
	"time"

	refids "github.com/ava-labs/avalanchego/ids"
	refsigner "github.com/ava-labs/avalanchego/vms/platformvm/signer"
	refptxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	refmessage "github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/payload"
)

// TestReferenceWalletL1Validators has the reference's Go wallet (avalanchego v1.14.2
// wallet/chain/p) run an L1's validator txs on a node: a conversion whose validator's BLS key
// the test holds, a RegisterL1ValidatorTx and SetL1ValidatorWeightTxs carrying manager messages
// signed by that key. The node accepts each, and what the wallet burns is exactly twice the gas
// the node's fee formula gives each tx at the minimum price (the wallet doubles the price it
// reads): the two agree on every complexity, warp messages included.
func TestReferenceWalletL1Validators(t *testing.T) {
	t.Parallel()
	r, _ := startPX(t)
	ctx := t.Context()
	w := newRefWallets(t, r.url)

	// burned checks that tx burned exactly its gas at 1 nAVAX, besides what it pays in.
	burned := func(tx *refptxs.Tx, paidIn uint64) {
		t.Helper()
		ours, err := txs.ParseTx(tx.Bytes())
		require.NoError(t, err)
		var in, out uint64
		for _, i := range ours.Unsigned().Base().Ins {
			in += i.In.(*secp256k1fx.TransferInput).Amount
		}
		for _, o := range ours.Unsigned().Base().Outs {
			out += o.Out.(*secp256k1fx.TransferOutput).Amount
		}
		// The wallet pays twice the price it read (its context's gas price multiplier); these
		// few txs keep the price at its minimum, 1 nAVAX.
		require.Equal(t, 2*txs.LocalFeeConfig.Weights.Gas(txs.Complexity(ours)), in-out-paidIn)
	}

	subnetTx, err := w.p.IssueCreateSubnetTx(w.owner())
	require.NoError(t, err)
	chainTx, err := w.p.IssueCreateChainTx(subnetTx.ID(), []byte(`{}`), refids.ID{0xee}, nil, "managed")
	require.NoError(t, err)
	manager := []byte{0xc0, 0xde}
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	owner := refmessage.PChainOwner{Threshold: 1, Addresses: []refids.ShortID{w.addr}}
	convTx, err := w.p.IssueConvertSubnetToL1Tx(subnetTx.ID(), chainTx.ID(), manager, []*refptxs.ConvertSubnetToL1Validator{{
		NodeID: make([]byte, 20), Weight: 100, Balance: 1_000_000_000,
		Signer:                refsigner.ProofOfPossession{PublicKey: pop.PublicKey, ProofOfPossession: pop.ProofOfPossession},
		RemainingBalanceOwner: owner, DeactivationOwner: owner,
	}})
	require.NoError(t, err)
	burned(convTx, 1_000_000_000)

	// signed is inner from the manager, signed by sk as the canonical validator index of set.
	subnetID, chainID := ids.ID(subnetTx.ID()), ids.ID(chainTx.ID())
	keys := []warp.Validator{{NodeID: ids.NodeID{1}, Weight: 100, PublicKey: &pop.PublicKey}}
	signed := func(inner acp77.Message) []byte {
		t.Helper()
		set, err := warp.NewCanonicalSet(keys)
		require.NoError(t, err)
		i, ok := set.Index(sk.PublicKey())
		require.True(t, ok)
		u := warp.NewUnsignedMessage(12345, chainID, (&payload.AddressedCall{SourceAddress: manager, Payload: inner.Bytes()}).Bytes())
		m, err := warp.Aggregate(u, map[int]*bls.Signature{i: sk.Sign(u.Bytes())})
		require.NoError(t, err)
		return m.Bytes()
	}

	skB, err := bls.NewSecretKey()
	require.NoError(t, err)
	popB := bls.NewProofOfPossession(skB)
	reg := &acp77.RegisterL1Validator{
		SubnetID: subnetID, NodeID: []byte{0xb, 19: 0}, BLSPublicKey: popB.PublicKey, Expiry: uint64(time.Now().Unix()) + 600,
		RemainingBalanceOwner: acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ids.ShortID(w.addr)}},
		DisableOwner:          acp77.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ids.ShortID(w.addr)}},
		Weight:                10,
	}
	regTx, err := w.p.IssueRegisterL1ValidatorTx(300_000_000, popB.ProofOfPossession, signed(reg))
	require.NoError(t, err)
	burned(regTx, 300_000_000)
	keys = append(keys, warp.Validator{NodeID: ids.NodeID{0xb}, Weight: 10, PublicKey: &popB.PublicKey})

	weightTx, err := w.p.IssueSetL1ValidatorWeightTx(signed(&acp77.L1ValidatorWeight{ValidationID: reg.ValidationID(), Nonce: 0, Weight: 20}))
	require.NoError(t, err)
	burned(weightTx, 0)
	keys[1].Weight = 20
	removeTx, err := w.p.IssueSetL1ValidatorWeightTx(signed(&acp77.L1ValidatorWeight{ValidationID: reg.ValidationID(), Nonce: 1, Weight: 0}))
	require.NoError(t, err)
	// The removal refunds the rest of the balance at the output after the tx's own.
	ours, err := txs.ParseTx(removeTx.Bytes())
	require.NoError(t, err)
	require.Len(t, ours.Unsigned().Base().Outs, 1)
	burned(removeTx, 0)
	_, _, err = w.pClient.GetL1Validator(ctx, refids.ID(reg.ValidationID()))
	require.ErrorContains(t, err, "not found")
}
