//lint:file-ignore SA1019 the deprecated client methods are called on purpose: the reference's clients still offer them.

package node_test

import (
	"testing"
	"time"

	refapi "github.com/ava-labs/avalanchego/api"
	refinfo "github.com/ava-labs/avalanchego/api/info"
	refids "github.com/ava-labs/avalanchego/ids"
	refconstants "github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	refsecp "github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	refavax "github.com/ava-labs/avalanchego/vms/components/avax"
	refplatformvm "github.com/ava-labs/avalanchego/vms/platformvm"
	refsigner "github.com/ava-labs/avalanchego/vms/platformvm/signer"
	refptxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	refsecp256k1fx "github.com/ava-labs/avalanchego/vms/secp256k1fx"
	refpwallet "github.com/ava-labs/avalanchego/wallet/chain/p"
	refpbuilder "github.com/ava-labs/avalanchego/wallet/chain/p/builder"
	refpsigner "github.com/ava-labs/avalanchego/wallet/chain/p/signer"
	refpw "github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	refcommon "github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
)

// TestReferenceWalletStaking issues a Primary Network validator (a new node ID, with a proof of
// possession of a new BLS key: this node is staker1, a genesis validator already) and a delegator
// to it with avalanchego v1.14.2's own P-Chain wallet (wallet/subnet/primary), then reads them
// back with its P-Chain client: the validator with its delegator, potential rewards, uptime and
// connection (a node that never connected), the stake, the supply and the validator set. A
// validator for this node is refused as a duplicate, and a delegation beyond the validator's cap,
// with the reference's texts.
func TestReferenceWalletStaking(t *testing.T) {
	t.Parallel()
	n, _ := startPX(t)
	ctx := t.Context()
	b := ewoqKeyBytes(t)
	key, err := refsecp.ToPrivateKey(b)
	require.NoError(t, err)
	kc := refsecp256k1fx.NewKeychain(key)
	c := refplatformvm.NewClient(n.url)
	wallet := referencePWallet(t, n.url, c, kc)

	self, selfPoP, err := refinfo.NewClient(n.url).GetNodeID(ctx)
	require.NoError(t, err)
	nodeID := refids.GenerateTestNodeID()
	sk, err := localsigner.New()
	require.NoError(t, err)
	pop, err := refsigner.NewProofOfPossession(sk)
	require.NoError(t, err)
	avax, err := c.GetStakingAssetID(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	supply0, _, err := c.GetCurrentSupply(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	owner := &refsecp256k1fx.OutputOwners{Threshold: 1, Addrs: []refids.ShortID{key.Address()}}
	now := time.Now()
	end := uint64(now.Add(14 * 24 * time.Hour).Unix())

	vtx, err := wallet.IssueAddPermissionlessValidatorTx(&refptxs.SubnetValidator{
		Validator: refptxs.Validator{NodeID: nodeID, Start: uint64(now.Unix()), End: end, Wght: 2_000 * 1_000_000_000},
		Subnet:    refconstants.PrimaryNetworkID,
	}, pop, avax, owner, owner, 20_000)
	require.NoError(t, err)
	_, err = wallet.IssueAddPermissionlessValidatorTx(&refptxs.SubnetValidator{
		Validator: refptxs.Validator{NodeID: self, Start: uint64(now.Unix()), End: end, Wght: 2_000 * 1_000_000_000},
		Subnet:    refconstants.PrimaryNetworkID,
	}, selfPoP, avax, owner, owner, 20_000)
	require.ErrorContains(t, err, "duplicate validator: "+self.String())
	dtx, err := wallet.IssueAddPermissionlessDelegatorTx(&refptxs.SubnetValidator{
		Validator: refptxs.Validator{NodeID: nodeID, Start: uint64(now.Unix()), End: end - 3600, Wght: 25 * 1_000_000_000},
		Subnet:    refconstants.PrimaryNetworkID,
	}, avax, owner)
	require.NoError(t, err)
	_, err = wallet.IssueAddPermissionlessDelegatorTx(&refptxs.SubnetValidator{
		Validator: refptxs.Validator{NodeID: nodeID, Start: uint64(now.Unix()), End: end - 3600, Wght: 8_000 * 1_000_000_000},
		Subnet:    refconstants.PrimaryNetworkID,
	}, avax, owner)
	require.ErrorContains(t, err, "validator would be over delegated")

	vals, err := c.GetCurrentValidators(ctx, refconstants.PrimaryNetworkID, []refids.NodeID{nodeID})
	require.NoError(t, err)
	require.Len(t, vals, 1)
	v := vals[0]
	require.Equal(t, vtx.ID(), v.TxID)
	require.Equal(t, end, v.EndTime)
	require.Equal(t, uint64(2_000*1_000_000_000), v.Weight)
	require.NotNil(t, v.PotentialReward)
	require.Positive(t, *v.PotentialReward)
	require.Equal(t, float32(2), v.DelegationFee)
	require.Zero(t, *v.Uptime)
	require.False(t, *v.Connected)
	require.Equal(t, pop, v.Signer)
	require.Equal(t, []refids.ShortID{key.Address()}, v.ValidationRewardOwner.Addresses)
	require.Equal(t, uint64(1), *v.DelegatorCount)
	require.Equal(t, uint64(25*1_000_000_000), *v.DelegatorWeight)
	require.Len(t, v.Delegators, 1)
	require.Equal(t, dtx.ID(), v.Delegators[0].TxID)
	require.Equal(t, end-3600, v.Delegators[0].EndTime)
	require.Positive(t, *v.Delegators[0].PotentialReward)

	supply, _, err := c.GetCurrentSupply(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.Equal(t, supply0+*v.PotentialReward+*v.Delegators[0].PotentialReward, supply)
	staked, outs, err := c.GetStake(ctx, []refids.ShortID{key.Address()}, false)
	require.NoError(t, err)
	require.Equal(t, uint64(2_025*1_000_000_000), staked[avax])
	require.Len(t, outs, 2)
	total, err := c.GetTotalStake(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.Equal(t, config.LocalGenesisStake+2_025*1_000_000_000, total)
	rewards, err := c.GetRewardUTXOs(ctx, &refapi.GetTxArgs{TxID: vtx.ID()})
	require.NoError(t, err)
	require.Empty(t, rewards)
}

// referencePWallet is the reference's P-Chain wallet as its wallet/subnet/primary.MakePWallet
// composes it (context from the node, the key's UTXOs, backend, builder, signer), built here
// from the same parts: MakePWallet's package also links the C-Chain's client, which pulls in a
// module cornice does not depend on.
func referencePWallet(t *testing.T, uri string, c *refplatformvm.Client, kc *refsecp256k1fx.Keychain) refpw.Wallet {
	t.Helper()
	ctx := t.Context()
	pctx, err := refpwallet.NewContextFromClients(ctx, refinfo.NewClient(uri), c)
	require.NoError(t, err)
	addrs := kc.Addresses()
	raw, _, _, err := c.GetUTXOs(ctx, addrs.List(), 0, refids.ShortEmpty, refids.Empty)
	require.NoError(t, err)
	utxos := refcommon.NewUTXOs()
	for _, b := range raw {
		var ux refavax.UTXO
		_, err := refptxs.Codec.Unmarshal(b, &ux)
		require.NoError(t, err)
		require.NoError(t, utxos.AddUTXO(ctx, refconstants.PlatformChainID, refconstants.PlatformChainID, &ux))
	}
	backend := refpw.NewBackend(refcommon.NewChainUTXOs(refconstants.PlatformChainID, utxos), nil)
	return refpw.New(refpwallet.NewClient(c, backend), refpbuilder.New(addrs, pctx, backend), refpsigner.New(kc, backend))
}
