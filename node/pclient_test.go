//lint:file-ignore SA1019 the deprecated client methods are called on purpose: the reference's clients still offer them.

package node_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"slices"
	"testing"
	"time"

	refapi "github.com/ava-labs/avalanchego/api"
	refids "github.com/ava-labs/avalanchego/ids"
	refvalidators "github.com/ava-labs/avalanchego/snow/validators"
	refconstants "github.com/ava-labs/avalanchego/utils/constants"
	refavax "github.com/ava-labs/avalanchego/vms/components/avax"
	refgas "github.com/ava-labs/avalanchego/vms/components/gas"
	refplatformvm "github.com/ava-labs/avalanchego/vms/platformvm"
	refpapi "github.com/ava-labs/avalanchego/vms/platformvm/api"
	refpblock "github.com/ava-labs/avalanchego/vms/platformvm/block"
	refstatus "github.com/ava-labs/avalanchego/vms/platformvm/status"
	refptxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	refvalidatorfee "github.com/ava-labs/avalanchego/vms/platformvm/validators/fee"
	refsecp256k1fx "github.com/ava-labs/avalanchego/vms/secp256k1fx"
	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/vms/exchange"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The tests in this file and in xclient_test.go drive a real node with the reference node's own
// P-Chain and X-Chain clients (avalanchego v1.14.2, vms/platformvm and vms/avm): every method of
// those clients that cornice implements is called, and what the client decodes is checked value
// by value (reference/platform-exchange.md §5). The txs they issue are built with cornice's types
// and signed here with decred's secp256k1 (the link rule keeps go-ethereum's crypto out of node).

// ewoqKeyHex is the local network's funded key (platform-exchange.md §2.5).
const ewoqKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"

// pBurn is what the P-Chain txs of these tests burn: well above their dynamic fee at the minimum
// price (platform-exchange.md §4.8).
const pBurn = 1_000_000

// startPX starts a local node whose identity is staker1's, running the P-Chain and the X-Chain
// with the exchange VM configured as cmd/cornice configures it; no EVM is linked.
func startPX(t *testing.T) (*running, *genesis.Genesis) {
	t.Helper()
	cfg := stakerConfig(t)
	fees := config.TxFeesFor(cfg.NetworkID, cfg.TxFee, cfg.CreateAssetTxFee)
	vms := node.VMs{genesis.AVMID: exchange.Factory{
		CortinaTime:      cfg.Upgrades.CortinaTime,
		StopVertexID:     cfg.Upgrades.CortinaXChainStopVertexID,
		TxFee:            fees.TxFee,
		CreateAssetTxFee: fees.CreateAssetTxFee,
	}}
	// The genesis the node builds: the local start time moves in 270-day steps (§7.2), so a
	// node started now has the genesis built now.
	gcfg, err := genesis.Local()
	require.NoError(t, err)
	g, err := genesis.Build(gcfg, clock.Real{}.Now())
	require.NoError(t, err)

	n, err := node.New(cfg, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})), vms)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return &running{Node: n, url: "http://" + n.HTTPAddr().String()}, g
}

// ewoqKeyBytes returns the local funded key's 32 bytes.
func ewoqKeyBytes(t *testing.T) []byte {
	t.Helper()
	b, err := hex.DecodeString(ewoqKeyHex)
	require.NoError(t, err)
	return b
}

// ewoqKey returns the local funded key and its address.
func ewoqKey(t *testing.T) (*secp.PrivateKey, ids.ShortID) {
	t.Helper()
	b := ewoqKeyBytes(t)
	k := secp.PrivKeyFromBytes(b)
	return k, secp256k1fx.PublicKeyAddress(k.PubKey().SerializeCompressed())
}

// signHash signs a 32-byte hash with k in the r ‖ s ‖ v form of §3.2.
func signHash(k *secp.PrivateKey, h [sha256.Size]byte) secp256k1fx.Signature {
	compact := ecdsa.SignCompact(k, h[:], false) // 27 + recovery flag, r, s
	var sig secp256k1fx.Signature
	copy(sig[:64], compact[1:])
	sig[64] = compact[0] - 27
	return sig
}

// credentials returns one credential per key, each holding that key's signature of the SHA-256
// of the unsigned tx bytes b (§3.2).
func credentials(b []byte, keys ...*secp.PrivateKey) []secp256k1fx.Credential {
	h := sha256.Sum256(b)
	creds := make([]secp256k1fx.Credential, len(keys))
	for i, k := range keys {
		creds[i].Sigs = []secp256k1fx.Signature{signHash(k, h)}
	}
	return creds
}

// signP signs unsigned with one credential per key (§3.2).
func signP(t *testing.T, unsigned txs.UnsignedTx, keys ...*secp.PrivateKey) *txs.Tx {
	t.Helper()
	return signTx(t, unsigned, txs.UnsignedBytes, txs.NewTx, keys...)
}

// pBaseTx spends ux (a TransferOutput of one key) and returns all of it but pBurn and pay to to.
func pBaseTx(ux *txs.UTXO, pay uint64, to ids.ShortID) txs.BaseTx {
	amount := ux.Out.(*secp256k1fx.TransferOutput).Amount
	return txs.BaseTx{
		NetworkID: genesis.LocalNetworkID,
		Outs: []txs.TransferableOutput{{AssetID: ux.AssetID, Out: &secp256k1fx.TransferOutput{
			Amount: amount - pBurn - pay, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{to}},
		}}},
		Ins: []txs.TransferableInput{{UTXOID: ux.UTXOID, AssetID: ux.AssetID,
			In: &secp256k1fx.TransferInput{Amount: amount, Input: secp256k1fx.Input{SigIndices: []uint32{0}}}}},
	}
}

// pClient is the reference's P-Chain client on a node, with the helpers of these tests.
type pClient struct {
	*refplatformvm.Client
	t *testing.T
}

// utxos returns the UTXOs addr owns on the P-Chain, read with the client and parsed by cornice.
func (c pClient) utxos(addr ids.ShortID) []*txs.UTXO {
	c.t.Helper()
	return refUTXOs(c.t, c, addr, txs.ParseUTXO)
}

// spendable returns addr's largest unlocked UTXO.
func (c pClient) spendable(addr ids.ShortID) *txs.UTXO {
	c.t.Helper()
	var best *txs.UTXO
	for _, ux := range c.utxos(addr) {
		out, ok := ux.Out.(*secp256k1fx.TransferOutput)
		if ok && out.Locktime == 0 && (best == nil || out.Amount > best.Out.(*secp256k1fx.TransferOutput).Amount) {
			best = ux
		}
	}
	require.NotNil(c.t, best)
	return best
}

// issue issues tx with the client's IssueTx and waits until GetTxStatus says it is committed.
func (c pClient) issue(tx *txs.Tx) ids.ID {
	c.t.Helper()
	refIssue(c.t, c, tx.ID(), tx.Bytes(), func(id refids.ID) bool {
		st, err := c.GetTxStatus(c.t.Context(), id)
		return err == nil && st.Status == refstatus.Committed
	})
	return tx.ID()
}

// block returns the block at height h, read with GetBlockByHeight and parsed by cornice; the
// reference's parser reads the same block from the bytes, and GetBlock by its ID answers them.
func (c pClient) block(h uint64) txs.Block {
	c.t.Helper()
	blk, _ := refBlock(c.t, c, h, txs.ParseBlock,
		func(b []byte) (refpblock.Block, error) { return refpblock.Parse(refpblock.Codec, b) },
		func(b txs.Block) blockView { return viewOf(b.ID(), b.Height(), b.Txs()) },
		func(r refpblock.Block) blockView { return viewOf(r.ID(), r.Height(), r.Txs()) })
	return blk
}

// TestPlatformClient drives the P-Chain with avalanchego v1.14.2's platformvm.Client: the genesis
// state, then a subnet, a chain on it and its conversion to an L1, each tx issued with the client.
func TestPlatformClient(t *testing.T) {
	t.Parallel()
	n, g := startPX(t)
	c := pClient{Client: refplatformvm.NewClient(n.url), t: t}
	ctx := t.Context()
	key, ewoq := ewoqKey(t)
	genesisTime := time.Unix(int64(g.P.Timestamp), 0)
	nodeID := refids.NodeID(n.NodeID())

	// The genesis state.
	height, err := c.GetHeight(ctx)
	require.NoError(t, err)
	require.Zero(t, height)
	ts, err := c.GetTimestamp(ctx)
	require.NoError(t, err)
	require.True(t, genesisTime.Equal(ts), "%s != %s", ts, genesisTime)
	require.Equal(t, g.PGenesisBlock().ID(), c.block(0).ID())

	// ewoq's P-Chain allocation: 2e16 nAVAX unlocked and 1e16 whose lock ended in 2021
	// (§4.6), both spendable now.
	bal, err := c.GetBalance(ctx, []refids.ShortID{refids.ShortID(ewoq)})
	require.NoError(t, err)
	const ewoqP = 30_000_000_000_000_000
	require.EqualValues(t, ewoqP, bal.Balance)
	require.EqualValues(t, ewoqP, bal.Unlocked)
	require.Zero(t, bal.LockedStakeable)
	require.Zero(t, bal.LockedNotStakeable)
	avax := refids.ID(g.AVAXAssetID)
	require.EqualValues(t, ewoqP, bal.Balances[avax])
	require.EqualValues(t, ewoqP, bal.Unlockeds[avax])
	utxos := c.utxos(ewoq)
	require.Len(t, utxos, 2)
	require.Len(t, bal.UTXOIDs, 2)
	var sum uint64
	for i, ux := range utxos {
		require.Equal(t, g.AVAXAssetID, ux.AssetID)
		switch out := ux.Out.(type) {
		case *secp256k1fx.TransferOutput:
			sum += out.Amount
		case *txs.LockOut:
			sum += out.Out.Amount
		default:
			t.Fatalf("UTXO %d: %T", i, ux.Out)
		}
		require.True(t, slices.ContainsFunc(bal.UTXOIDs, func(id *refavaxUTXOID) bool {
			return id.TxID == refids.ID(ux.TxID) && id.OutputIndex == ux.OutputIndex
		}), "UTXO %d in utxoIDs", i)
	}
	require.EqualValues(t, ewoqP, sum)

	// Paging: one UTXO a page, the end index naming where the next page starts.
	page, endAddr, endUTXO, err := c.GetUTXOs(ctx, []refids.ShortID{refids.ShortID(ewoq)}, 1, refids.ShortEmpty, refids.Empty)
	require.NoError(t, err)
	require.Len(t, page, 1)
	require.Equal(t, refids.ShortID(ewoq), endAddr)
	require.Equal(t, refids.ID(utxos[0].InputID()), endUTXO)
	page, _, endUTXO, err = c.GetUTXOs(ctx, []refids.ShortID{refids.ShortID(ewoq)}, 1, endAddr, endUTXO)
	require.NoError(t, err)
	require.Len(t, page, 1)
	require.Equal(t, refids.ID(utxos[1].InputID()), endUTXO)

	// The Primary Network's validators are the five genesis stakers; this node is staker1, whose
	// stake lasts a year from the genesis.
	primary := primaryValidatorCheck(t, n, g)
	vals, err := c.GetCurrentValidators(ctx, refconstants.PrimaryNetworkID, nil)
	require.NoError(t, err)
	require.Len(t, vals, 5)
	primary(vals[0])
	vals, err = c.GetCurrentValidators(ctx, refconstants.PrimaryNetworkID, []refids.NodeID{nodeID})
	require.NoError(t, err)
	require.Len(t, vals, 1)
	primary(vals[0])
	require.Empty(t, vals[0].Delegators, "asked for one node: its delegators, none")
	vals, err = c.GetCurrentValidators(ctx, refconstants.PrimaryNetworkID, []refids.NodeID{{1}})
	require.NoError(t, err)
	require.Empty(t, vals)

	at, err := c.GetValidatorsAt(ctx, refconstants.PrimaryNetworkID, refpapi.Height(0))
	require.NoError(t, err)
	require.Len(t, at, 5)
	require.Equal(t, nodeID, at[nodeID].NodeID)
	require.Equal(t, config.LocalGenesisStake/5, at[nodeID].Weight)
	require.Equal(t, staker1PublicKey, "0x"+hex.EncodeToString(at[nodeID].PublicKey.Compress()))
	proposed, err := c.GetValidatorsAt(ctx, refconstants.PrimaryNetworkID, refpapi.Height(refpapi.ProposedHeight))
	require.NoError(t, err)
	require.Equal(t, at, proposed)

	// The staking and validator-set methods on the genesis state (§5.1 "Others present").
	checkGenesisStaking(t, c, g, nodeID)

	// The local network's fees (§4.8).
	feeConfig, err := c.GetFeeConfig(ctx)
	require.NoError(t, err)
	require.Equal(t, &refgas.Config{
		Weights:                  refgas.Dimensions{1, 1000, 1000, 4},
		MaxCapacity:              1_000_000,
		MaxPerSecond:             100_000,
		TargetPerSecond:          50_000,
		MinPrice:                 1,
		ExcessConversionConstant: 2_164_043,
	}, feeConfig)
	state, price, feeTime, err := c.GetFeeState(ctx)
	require.NoError(t, err)
	require.Equal(t, refgas.State{}, state, "the genesis block's state")
	require.Equal(t, refgas.Price(1), price)
	require.True(t, genesisTime.Equal(feeTime))
	vfConfig, err := c.GetValidatorFeeConfig(ctx)
	require.NoError(t, err)
	require.Equal(t, &refvalidatorfee.Config{Capacity: 20_000, Target: 10_000, MinPrice: 1, ExcessConversionConstant: 865_617}, vfConfig)
	excess, price, feeTime, err := c.GetValidatorFeeState(ctx)
	require.NoError(t, err)
	require.Zero(t, excess)
	require.Equal(t, refgas.Price(1), price)
	require.True(t, genesisTime.Equal(feeTime))

	// The Primary Network's chains and subnet.
	chainsList, err := c.GetBlockchains(ctx)
	require.NoError(t, err)
	require.ElementsMatch(t, []refplatformvm.APIBlockchain{
		{ID: refids.ID(g.XChainID), Name: "X-Chain", SubnetID: refconstants.PrimaryNetworkID, VMID: refconstants.AVMID},
		{ID: refids.ID(g.CChainID), Name: "C-Chain", SubnetID: refconstants.PrimaryNetworkID, VMID: refconstants.EVMID},
	}, chainsList)
	for alias, want := range map[string]refstatus.BlockchainStatus{
		"X":                      refstatus.Validating,
		g.XChainID.String():      refstatus.Validating,
		ids.ID{1, 2, 3}.String(): refstatus.UnknownChain,
		"not a chain":            refstatus.UnknownChain,
	} {
		st, err := c.GetBlockchainStatus(ctx, alias)
		require.NoError(t, err, alias)
		require.Equal(t, want, st, alias)
	}
	subnets, err := c.GetSubnets(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, []refplatformvm.ClientSubnet{{ID: refconstants.PrimaryNetworkID, ControlKeys: []refids.ShortID{}}}, subnets)

	// A subnet owned by ewoq.
	createSubnet := signP(t, &txs.CreateSubnetTx{
		BaseTx: pBaseTx(c.spendable(ewoq), 0, ewoq),
		Owner:  secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}},
	}, key)
	subnetID := c.issue(createSubnet)
	st, err := c.GetTxStatus(ctx, refids.ID(subnetID))
	require.NoError(t, err)
	require.Equal(t, &refplatformvm.GetTxStatusResponse{Status: refstatus.Committed}, st)
	txBytes, err := c.GetTx(ctx, refids.ID(subnetID))
	require.NoError(t, err)
	require.Equal(t, createSubnet.Bytes(), txBytes)
	refTx, err := refptxs.Parse(refptxs.Codec, txBytes)
	require.NoError(t, err)
	require.Equal(t, refids.ID(subnetID), refTx.ID())
	require.IsType(t, &refptxs.CreateSubnetTx{}, refTx.Unsigned)
	blk := c.block(1)
	require.Len(t, blk.Txs(), 1)
	require.Equal(t, subnetID, blk.Txs()[0].ID())
	height, err = c.GetHeight(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 1, height)
	ts, err = c.GetTimestamp(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(blk.(*txs.StandardBlock).Time()), ts.Unix())

	subnet, err := c.GetSubnet(ctx, refids.ID(subnetID))
	require.NoError(t, err)
	require.Equal(t, refplatformvm.GetSubnetClientResponse{
		IsPermissioned: true,
		ControlKeys:    []refids.ShortID{refids.ShortID(ewoq)},
		Threshold:      1,
	}, subnet)
	subnets, err = c.GetSubnets(ctx, []refids.ID{refids.ID(subnetID)})
	require.NoError(t, err)
	require.Equal(t, []refplatformvm.ClientSubnet{{ID: refids.ID(subnetID), ControlKeys: []refids.ShortID{refids.ShortID(ewoq)}, Threshold: 1}}, subnets)

	// A chain on it, of a VM this node does not run.
	subnetEVM := ids.FromName("subnetevm")
	chainTx := signP(t, &txs.CreateChainTx{
		BaseTx:      pBaseTx(c.spendable(ewoq), 0, ewoq),
		SubnetID:    subnetID,
		ChainName:   "client test",
		VMID:        subnetEVM,
		GenesisData: []byte(`{"config":{}}`),
		SubnetAuth:  secp256k1fx.Input{SigIndices: []uint32{0}},
	}, key, key)
	chainID := c.issue(chainTx)
	chainsList, err = c.GetBlockchains(ctx)
	require.NoError(t, err)
	require.Contains(t, chainsList, refplatformvm.APIBlockchain{
		ID: refids.ID(chainID), Name: "client test", SubnetID: refids.ID(subnetID), VMID: refids.ID(subnetEVM),
	})
	bst, err := c.GetBlockchainStatus(ctx, chainID.String())
	require.NoError(t, err)
	require.Equal(t, refstatus.Created, bst)

	// The subnet becomes an L1 with one validator.
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	const l1Balance = 2_000_000_000
	l1NodeID := ids.NodeID{9, 9, 9}
	owner := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoq}}
	convert := &txs.ConvertSubnetToL1Tx{
		BaseTx:   pBaseTx(c.spendable(ewoq), l1Balance, ewoq),
		SubnetID: subnetID,
		ChainID:  chainID,
		Address:  []byte{0x0f, 0xee, 0xdc, 0x0d, 0xe0},
		Validators: []txs.ConvertSubnetToL1Validator{{
			NodeID: l1NodeID[:], Weight: 100, Balance: l1Balance,
			Signer:                txs.ProofOfPossession{PublicKey: pop.PublicKey, Signature: pop.ProofOfPossession},
			RemainingBalanceOwner: owner, DeactivationOwner: owner,
		}},
		SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}},
	}
	c.issue(signP(t, convert, key, key))
	convBlock := c.block(3).(*txs.StandardBlock)
	validationID := refids.ID(convert.ValidationID(0))

	subnet, err = c.GetSubnet(ctx, refids.ID(subnetID))
	require.NoError(t, err)
	require.Equal(t, refplatformvm.GetSubnetClientResponse{
		IsPermissioned: false,
		ControlKeys:    []refids.ShortID{refids.ShortID(ewoq)},
		Threshold:      1,
		ConversionID:   refids.ID(txs.ConversionID(convert)),
		ManagerChainID: refids.ID(chainID),
		ManagerAddress: []byte{0x0f, 0xee, 0xdc, 0x0d, 0xe0},
	}, subnet)

	// The L1 validator's balance pays 1 nAVAX a second from the conversion on (§4.7), as of
	// the last accepted block: the conversion's.
	wantOwner := &refplatformvm.ClientOwner{Threshold: 1, Addresses: []refids.ShortID{refids.ShortID(ewoq)}}
	vals, err = c.GetCurrentValidators(ctx, refids.ID(subnetID), nil)
	require.NoError(t, err)
	require.Len(t, vals, 1)
	v := vals[0]
	zero, left := uint64(0), uint64(l1Balance)
	require.Equal(t, refplatformvm.ClientPermissionlessValidator{
		ClientStaker: refplatformvm.ClientStaker{StartTime: convBlock.Time(), Weight: 100, NodeID: refids.NodeID(l1NodeID)},
		ClientL1Validator: refplatformvm.ClientL1Validator{
			ValidationID:          &validationID,
			RemainingBalanceOwner: wantOwner,
			DeactivationOwner:     wantOwner,
			MinNonce:              &zero,
			Balance:               &left,
		},
	}, v)

	l1v, h, err := c.GetL1Validator(ctx, validationID)
	require.NoError(t, err)
	require.EqualValues(t, 3, h)
	require.NotNil(t, l1v.PublicKey)
	require.Equal(t, pop.PublicKey[:], l1v.PublicKey.Compress())
	l1v.PublicKey = nil
	require.Equal(t, refplatformvm.L1Validator{
		SubnetID:              refids.ID(subnetID),
		NodeID:                refids.NodeID(l1NodeID),
		RemainingBalanceOwner: &refsecp256k1fx.OutputOwners{Threshold: 1, Addrs: []refids.ShortID{refids.ShortID(ewoq)}},
		DeactivationOwner:     &refsecp256k1fx.OutputOwners{Threshold: 1, Addrs: []refids.ShortID{refids.ShortID(ewoq)}},
		StartTime:             convBlock.Time(),
		Weight:                100,
		Balance:               l1Balance,
	}, l1v)

	at, err = c.GetValidatorsAt(ctx, refids.ID(subnetID), refpapi.Height(3))
	require.NoError(t, err)
	require.Len(t, at, 1)
	l1NodeIDRef := refids.NodeID(l1NodeID)
	require.Equal(t, l1NodeIDRef, at[l1NodeIDRef].NodeID)
	require.EqualValues(t, 100, at[l1NodeIDRef].Weight)
	require.Equal(t, pop.PublicKey[:], at[l1NodeIDRef].PublicKey.Compress())
	at, err = c.GetValidatorsAt(ctx, refids.ID(subnetID), refpapi.Height(2))
	require.NoError(t, err)
	require.Empty(t, at, "before the conversion the subnet had no validator")

	// The L1's validator set through the staking methods: one validator of weight 100.
	total, err := c.GetTotalStake(ctx, refids.ID(subnetID))
	require.NoError(t, err)
	require.EqualValues(t, 100, total)
	sample, err := c.SampleValidators(ctx, refids.ID(subnetID), 100)
	require.NoError(t, err)
	require.Equal(t, slices.Repeat([]refids.NodeID{l1NodeIDRef}, 100), sample)
	_, err = c.SampleValidators(ctx, refids.ID(subnetID), 101)
	require.ErrorContains(t, err, "sampling "+subnetID.String()+" errored with insufficient weight")
	by, err := c.ValidatedBy(ctx, refids.ID(chainID))
	require.NoError(t, err)
	require.Equal(t, refids.ID(subnetID), by)
	validated, err := c.Validates(ctx, refids.ID(subnetID))
	require.NoError(t, err)
	require.Equal(t, []refids.ID{refids.ID(chainID)}, validated)
	sets, err := c.GetAllValidatorsAt(ctx, refpapi.Height(3))
	require.NoError(t, err)
	require.Len(t, sets, 2)
	require.EqualValues(t, 100, sets[refids.ID(subnetID)].TotalWeight)
	require.Len(t, sets[refids.ID(subnetID)].Validators, 1)
	wv := sets[refids.ID(subnetID)].Validators[0]
	require.Equal(t, pop.PublicKey[:], wv.PublicKey.Compress())
	require.EqualValues(t, 100, wv.Weight)
	require.Equal(t, []refids.NodeID{l1NodeIDRef}, wv.NodeIDs)
	sets, err = c.GetAllValidatorsAt(ctx, refpapi.Height(2))
	require.NoError(t, err)
	require.Len(t, sets, 1, "before the conversion only the Primary Network has validators")
	proposedHeight, err := c.GetProposedHeight(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 3, proposedHeight)

	// One L1 validator is active: the validator fee state has moved on with the chain time.
	excess, price, feeTime, err = c.GetValidatorFeeState(ctx)
	require.NoError(t, err)
	require.Zero(t, excess, "one active validator is below the target of 10,000")
	require.Equal(t, refgas.Price(1), price)
	require.Equal(t, int64(convBlock.Time()), feeTime.Unix())
	state, price, feeTime, err = c.GetFeeState(ctx)
	require.NoError(t, err)
	require.Equal(t, refgas.Price(1), price)
	require.Equal(t, int64(convBlock.Time()), feeTime.Unix())
	var raw api.GetFeeStateReply
	require.NoError(t, callRPC(n.url+"/ext/bc/P", "platform.getFeeState", `{}`, &raw))
	require.Equal(t, refgas.State{Capacity: refgas.Gas(raw.Capacity), Excess: refgas.Gas(raw.Excess)}, state)
	require.NotZero(t, state.Excess, "three txs consumed gas")

	// The balances after three txs: each burned pBurn, and the conversion paid the L1
	// validator's balance.
	bal, err = c.GetBalance(ctx, []refids.ShortID{refids.ShortID(ewoq)})
	require.NoError(t, err)
	require.EqualValues(t, ewoqP-3*pBurn-l1Balance, bal.Balance)
	height, err = c.GetHeight(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 3, height)
}

// refavaxUTXOID is the reference's UTXO reference in getBalance's utxoIDs.
type refavaxUTXOID = refavax.UTXOID

// primaryValidatorCheck returns a check of the client's view of this node as the Primary
// Network's genesis validator.
func primaryValidatorCheck(t *testing.T, n *running, g *genesis.Genesis) func(refplatformvm.ClientPermissionlessValidator) {
	return func(v refplatformvm.ClientPermissionlessValidator) {
		t.Helper()
		require.Equal(t, refids.NodeID(n.NodeID()), v.NodeID)
		require.Equal(t, refids.ID(g.P.Validators[3].ID()), v.TxID, "staker1's genesis tx, fourth in the genesis's heap order")
		require.Equal(t, g.P.Timestamp, v.StartTime)
		require.Equal(t, g.P.Timestamp+31_536_000, v.EndTime)
		require.Equal(t, config.LocalGenesisStake/5, v.Weight)
		require.NotNil(t, v.Signer)
		require.NoError(t, v.Signer.Verify())
		require.Equal(t, staker1PublicKey, "0x"+hex.EncodeToString(v.Signer.PublicKey[:]))
		require.Equal(t, staker1PoP, "0x"+hex.EncodeToString(v.Signer.ProofOfPossession[:]))
		require.NotNil(t, v.Uptime)
		require.InDelta(t, 100, *v.Uptime, 0)
		require.NotNil(t, v.Connected)
		require.True(t, *v.Connected)
		require.InDelta(t, 100, v.DelegationFee, 0)
		require.NotNil(t, v.PotentialReward)
		require.Equal(t, uint64(239_043_697_070_926), *v.PotentialReward, "§4.10 on the supply the stakers before it left")
		require.NotNil(t, v.AccruedDelegateeReward)
		require.Zero(t, *v.AccruedDelegateeReward)
		require.NotNil(t, v.DelegatorCount)
		require.Zero(t, *v.DelegatorCount)
		require.NotNil(t, v.DelegatorWeight)
		require.Zero(t, *v.DelegatorWeight)
		require.Nil(t, v.ValidationID, "not an L1 validator")
		_, ewoq := ewoqKey(t)
		for _, o := range []*refplatformvm.ClientOwner{v.ValidationRewardOwner, v.DelegationRewardOwner} {
			require.NotNil(t, o)
			require.Equal(t, []refids.ShortID{refids.ShortID(ewoq)}, o.Addresses)
		}
	}
}

// checkGenesisStaking checks, through the reference client, the staking and validator-set methods
// on the genesis state: this node as the Primary Network's only validator, the genesis stakers'
// stake, the local staking rules and supply, no rewards (platform-exchange.md §4.6, §4.9, §5.1).
func checkGenesisStaking(t *testing.T, c pClient, g *genesis.Genesis, nodeID refids.NodeID) {
	t.Helper()
	ctx := t.Context()
	avax := refids.ID(g.AVAXAssetID)

	proposed, err := c.GetProposedHeight(ctx)
	require.NoError(t, err)
	require.Zero(t, proposed, "no proposer VM: the last accepted height")
	asset, err := c.GetStakingAssetID(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.Equal(t, avax, asset)
	_, err = c.GetStakingAssetID(ctx, refids.ID(g.XChainID))
	require.ErrorContains(t, err, "failed fetching subnet transformation for "+g.XChainID.String()+": not found")
	minVal, minDel, err := c.GetMinStake(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.EqualValues(t, 2_000_000_000_000, minVal)
	require.EqualValues(t, 25_000_000_000, minDel)
	total, err := c.GetTotalStake(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.Equal(t, config.LocalGenesisStake, total)
	supply, height, err := c.GetCurrentSupply(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.Equal(t, uint64(361_196_333_750_752_149), supply, "the initial supply and the genesis stakers' potential rewards")
	require.Zero(t, height)
	_, _, err = c.GetCurrentSupply(ctx, refids.ID(g.XChainID))
	require.ErrorContains(t, err, "fetching current supply failed: not found")

	by, err := c.ValidatedBy(ctx, refids.ID(g.XChainID))
	require.NoError(t, err)
	require.Equal(t, refconstants.PrimaryNetworkID, by)
	_, err = c.ValidatedBy(ctx, refids.ID{1})
	require.ErrorContains(t, err, `problem retrieving blockchain "`+refids.ID{1}.String()+`": not found`)
	chainIDs, err := c.Validates(ctx, refconstants.PrimaryNetworkID)
	require.NoError(t, err)
	require.ElementsMatch(t, []refids.ID{refids.ID(g.XChainID), refids.ID(g.CChainID)}, chainIDs)
	_, err = c.Validates(ctx, refids.ID(g.XChainID))
	require.ErrorContains(t, err, `"`+g.XChainID.String()+`" is not a subnet`)

	sample, err := c.SampleValidators(ctx, refconstants.PrimaryNetworkID, 2)
	require.NoError(t, err)
	require.Len(t, sample, 2, "two units of the genesis stakers' weight")
	sample, err = c.SampleValidators(ctx, refconstants.PrimaryNetworkID, 0)
	require.NoError(t, err)
	require.Empty(t, sample)
	_, err = c.SampleValidators(ctx, refids.ID(g.XChainID), 1)
	require.ErrorContains(t, err, "sampling "+g.XChainID.String()+" errored with missing validators")

	sets, err := c.GetAllValidatorsAt(ctx, refpapi.Height(refpapi.ProposedHeight))
	require.NoError(t, err)
	require.Len(t, sets, 1)
	ws := sets[refconstants.PrimaryNetworkID]
	require.Equal(t, config.LocalGenesisStake, ws.TotalWeight)
	require.Len(t, ws.Validators, 5)
	i := slices.IndexFunc(ws.Validators, func(v *refvalidators.Warp) bool { return slices.Equal(v.NodeIDs, []refids.NodeID{nodeID}) })
	require.NotEqual(t, -1, i)
	require.Equal(t, staker1PublicKey, "0x"+hex.EncodeToString(ws.Validators[i].PublicKey.Compress()))
	require.Equal(t, config.LocalGenesisStake/5, ws.Validators[i].Weight)
	_, err = c.GetAllValidatorsAt(ctx, refpapi.Height(7))
	require.ErrorContains(t, err, "failed to get validator sets at 7")

	// The genesis stakers' stake outputs, for the addresses that own them.
	want := map[refids.ShortID][][]byte{}
	var stakerTxID ids.ID
	for _, tx := range g.P.Validators {
		stakerTxID = tx.ID()
		v, ok := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
		require.True(t, ok)
		for i := range v.Stake {
			o := &v.Stake[i]
			out, ok := o.Out.(*secp256k1fx.TransferOutput)
			if lock, isLock := o.Out.(*txs.LockOut); isLock {
				out, ok = lock.Out, true
			}
			require.True(t, ok)
			p := codec.NewPacker(nil)
			p.Version()
			o.Marshal(p)
			b, err := p.Bytes()
			require.NoError(t, err)
			for _, a := range out.Addrs {
				want[refids.ShortID(a)] = append(want[refids.ShortID(a)], b)
			}
		}
	}
	require.NotEmpty(t, want)
	var sum uint64
	for addr, outs := range want {
		staked, got, err := c.GetStake(ctx, []refids.ShortID{addr}, true)
		require.NoError(t, err)
		require.Equal(t, outs, got)
		for _, b := range got {
			var o refavax.TransferableOutput
			_, err := refptxs.Codec.Unmarshal(b, &o)
			require.NoError(t, err)
			require.Equal(t, avax, o.AssetID())
			sum += o.Out.Amount()
		}
		require.Len(t, staked, 1)
		require.NotZero(t, staked[avax])
	}
	require.Equal(t, config.LocalGenesisStake, sum, "the genesis stakers' stake")
	_, ewoq := ewoqKey(t)
	staked, outs, err := c.GetStake(ctx, []refids.ShortID{refids.ShortID(ewoq)}, false)
	require.NoError(t, err)
	require.Empty(t, staked)
	require.Empty(t, outs)

	rewards, err := c.GetRewardUTXOs(ctx, &refapi.GetTxArgs{TxID: refids.ID(stakerTxID)})
	require.NoError(t, err)
	require.Empty(t, rewards, "no staking period ends: no rewards")
}
