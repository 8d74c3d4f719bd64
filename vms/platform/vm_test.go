package platform_test

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/genesis/genesistest"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/utxovmtest"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Keys of the local network (platform-exchange.md §2.5).
const (
	ewoqKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"
	vmrqKeyHex = "7a14fdf6bb1d53e28384f70209280dd8848bdc96b5f9eb7fdde9fcddc7ef1a0d"
	ewoqP      = "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
	vmrqP      = "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2"
	// burn is what the txs of these tests burn: well above their dynamic fee at the minimum
	// price (§4.8).
	burn = 1_000_000
)

// vectorTime is the vectors' fixed time (§8.3): the fake clock's start.
var vectorTime = genesistest.VectorTime

// genesisValidatorsAt is platform.getValidatorsAt's Primary Network set from the genesis on: its
// five stakers, 2e15 nAVAX each, under their BLS keys (§7.4).
func genesisValidatorsAt(g *genesis.Genesis) string {
	var entries []string
	for _, tx := range g.P.Validators {
		u := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
		entries = append(entries, `"`+u.Validator.NodeID.String()+`":{"publicKey":"`+
			pkHex(u.Signer.(*txs.ProofOfPossession).PublicKey)+`","weight":"2000000000000000"}`)
	}
	slices.Sort(entries)
	return "{" + strings.Join(entries, ",") + "}"
}

// thisNode is the validator the tests' factory names.
var thisNode = platform.Factory{
	NodeID: ids.NodeID{7, 7, 7},
	Signer: &txs.ProofOfPossession{PublicKey: [48]byte{1}, Signature: [96]byte{2}},
	Weight: 10_000_000_000_000_000,
}

// node is a chain manager running the local P-Chain over a database in a directory, its API served
// by an httptest server.
type node struct {
	*vectortest.Chain
	t testing.TB
	g *genesis.Genesis
}

func startNode(t testing.TB, dir string, clk clock.Clock) *node {
	t.Helper()
	return startNodeWith(t, dir, clk, thisNode)
}

// startNodeWith is startNode with the P-Chain factory f (its Aliases are set here).
func startNodeWith(t testing.TB, dir string, clk clock.Clock, f platform.Factory) *node {
	t.Helper()
	g := genesistest.Local(t)
	c := vectortest.StartChain(t, dir, clk, genesis.LocalNetworkID, "platform", func(reg *chains.Registry) chains.Spec {
		require.NoError(t, reg.PreAlias(g.XChainID, "X", "avm"))
		// The X-Chain is registered, as on a node: the peer of the P-Chain's atomic txs.
		require.NoError(t, reg.Register(chains.Chain{ID: g.XChainID, Name: "X-Chain"}))
		f.Aliases = reg
		return chains.Spec{
			Chain:   chains.Chain{ID: ids.Empty, VMID: ids.FromName("platformvm"), Name: "P-Chain"},
			Aliases: []string{"P", "platform"},
			Prefix:  storage.PrefixPlatform,
			Factory: f,
			Genesis: g.PGenesis,
			Indexed: true,
		}
	})
	return &node{Chain: c, t: t, g: g}
}

// issueBytes issues signed tx bytes and waits until the tx is committed.
func (n *node) issueBytes(b []byte) ids.ID {
	n.t.Helper()
	txID := n.IssueBytes(b)
	n.waitCommitted(txID)
	return txID
}

func (n *node) issue(tx *txs.Tx) {
	n.t.Helper()
	require.Equal(n.t, tx.ID(), n.issueBytes(tx.Bytes()))
}

func (n *node) waitCommitted(txID ids.ID) {
	n.t.Helper()
	n.WaitStatus(txID, "Committed")
}

func (n *node) balance(addr string) uint64 {
	n.t.Helper()
	var b struct {
		Balance uint64 `json:"balance,string"`
	}
	n.Result("getBalance", `{"addresses":["`+addr+`"]}`, &b)
	return b.Balance
}

// utxos returns the UTXOs addr owns, parsed.
func (n *node) utxos(addr string) []*txs.UTXO {
	n.t.Helper()
	return vectortest.ParseAll(n.t, n.UTXOBytes(addr), txs.ParseUTXO)
}

func vectorBytes(t *testing.T, vec map[string]json.RawMessage) []byte {
	t.Helper()
	b, err := ids.HexNC.Decode(vectortest.RawString(t, vec, "signedBytesHex"))
	require.NoError(t, err)
	return b
}

// liveError returns the error message of the live node's reply to a P-Chain call with these
// params (reference/platform-exchange.md §8.1).
func liveError(t *testing.T, method, params string) string {
	t.Helper()
	var resp struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	live := vectortest.Load[vectortest.RawFile](t).LiveNodeSamples.Response(t, "/ext/bc/P", method, params)
	require.NoError(t, json.Unmarshal([]byte(live), &resp))
	return resp.Error.Message
}

func key(t testing.TB, h string) *ecdsa.PrivateKey { return utxovmtest.Key(t, h) }

func addrOf(k *ecdsa.PrivateKey) ids.ShortID { return utxovmtest.Addr(k) }

// sign signs unsigned with one credential per key, each holding that key's signature (§3.2).
func sign(t testing.TB, unsigned txs.UnsignedTx, keys ...*ecdsa.PrivateKey) *txs.Tx {
	t.Helper()
	return utxovmtest.Sign(t, unsigned, txs.UnsignedBytes, txs.NewTx, keys...)
}

func owner(to ids.ShortID) secp256k1fx.OutputOwners {
	return secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{to}}
}

func amountOf(ux *txs.UTXO) uint64 { return ux.Out.(*secp256k1fx.TransferOutput).Amount }

// baseTx spends ux, sends amount to `to` and the rest, less burn, back to change; outputs sorted
// by amount (§3.3: one-address TransferOutputs of one asset sort by amount first).
func (n *node) baseTx(ux *txs.UTXO, amount uint64, to, change ids.ShortID) txs.BaseTx {
	outs := []txs.TransferableOutput{txs.TransferTo(ux.AssetID, amountOf(ux)-amount-burn, change)}
	if amount > 0 {
		outs = append(outs, txs.TransferTo(ux.AssetID, amount, to))
	}
	slices.SortFunc(outs, func(a, b txs.TransferableOutput) int {
		x, y := a.Out.(*secp256k1fx.TransferOutput).Amount, b.Out.(*secp256k1fx.TransferOutput).Amount
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return txs.BaseTx{NetworkID: genesis.LocalNetworkID, Outs: outs, Ins: []txs.TransferableInput{txs.SpendUTXO(ux)}}
}

// ewoqPays returns a BaseTx that spends ewoq's largest UTXO, its change back to ewoq less the
// burn and amount, which the tx's own fields put elsewhere (a balance, a stake).
func (n *node) ewoqPays(amount uint64) txs.BaseTx {
	n.t.Helper()
	ewoq := addrOf(key(n.t, ewoqKeyHex))
	b := n.baseTx(n.largest(ewoqP), 0, ewoq, ewoq)
	b.Outs[0].Out.(*secp256k1fx.TransferOutput).Amount -= amount
	return b
}

// increaseBalance returns an IncreaseL1ValidatorBalanceTx that adds amount to vid's balance,
// paid and signed by ewoq.
func (n *node) increaseBalance(vid ids.ID, amount uint64) *txs.Tx {
	n.t.Helper()
	return sign(n.t, &txs.IncreaseL1ValidatorBalanceTx{BaseTx: n.ewoqPays(amount), ValidationID: vid, Balance: amount}, key(n.t, ewoqKeyHex))
}

// createSubnet issues a CreateSubnetTx that ewoq pays for and owns alone, and returns the
// subnet's ID.
func (n *node) createSubnet() ids.ID {
	n.t.Helper()
	ewoq := key(n.t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	tx := sign(n.t, &txs.CreateSubnetTx{BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), Owner: owner(ewoqAddr)}, ewoq)
	n.issue(tx)
	return tx.ID()
}

// largest returns the largest UTXO addr owns.
func (n *node) largest(addr string) *txs.UTXO {
	n.t.Helper()
	us := n.utxos(addr)
	require.NotEmpty(n.t, us)
	return slices.MaxFunc(us, func(a, b *txs.UTXO) int {
		switch x, y := amountOf(a), amountOf(b); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
}

// TestGenesisState checks what a new node starts with: the genesis block, the ewoq UTXOs, the X
// and C chains, this node as the only Primary Network validator, and the fee config.
func TestGenesisState(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	g := n.g
	last := n.LastAccepted(ids.Empty)
	require.Equal(t, g.PGenesisBlock().ID(), last)
	require.Equal(t, "0", n.Height())

	require.Equal(t, uint64(30_000_000_000_000_000), n.balance(ewoqP))
	require.Len(t, n.utxos(ewoqP), 2)
	require.JSONEq(t, `{"blockchains":[
		{"id":"`+g.XChainID.String()+`","name":"X-Chain","subnetID":"11111111111111111111111111111111LpoYY","vmID":"jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq"},
		{"id":"`+g.CChainID.String()+`","name":"C-Chain","subnetID":"11111111111111111111111111111111LpoYY","vmID":"mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6"}]}`,
		n.RawResult("getBlockchains", `{}`))
	require.Equal(t, `{"subnets":[{"id":"11111111111111111111111111111111LpoYY","controlKeys":[],"threshold":"0"}]}`,
		n.RawResult("getSubnets", `{}`))
	require.Equal(t, `{"status":"Validating"}`, n.RawResult("getBlockchainStatus", `{"blockchainID":"X"}`))
	require.Equal(t, `{"status":"Created"}`, n.RawResult("getBlockchainStatus", `{"blockchainID":"`+g.CChainID.String()+`"}`))
	require.Equal(t, `{"status":"Unknown"}`, n.RawResult("getBlockchainStatus", `{"blockchainID":"2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst"}`))
	require.Equal(t, liveError(t, "platform.getBlockchainStatus", `{}`), n.CallError("getBlockchainStatus", `{}`))
	require.Equal(t, `{"status":"Committed"}`, n.RawResult("getTxStatus", `{"txID":"`+g.XChainID.String()+`"}`))

	// The five genesis stakers are current validators (§4.6, §7.4); staker1 stakes for a year.
	start := g.P.Timestamp
	var cur struct {
		Validators []json.RawMessage `json:"validators"`
	}
	n.Result("getCurrentValidators", `{}`, &cur)
	require.Len(t, cur.Validators, 5)
	staker1 := `{"txID":"` + g.P.Validators[3].ID().String() + `","startTime":"` + u64(start) + `","endTime":"` + u64(start+31_536_000) +
		`","weight":"2000000000000000","nodeID":"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg",` +
		`"validationRewardOwner":{"locktime":"0","threshold":"1","addresses":["` + ewoqP + `"]},` +
		`"delegationRewardOwner":{"locktime":"0","threshold":"1","addresses":["` + ewoqP + `"]},` +
		`"potentialReward":"239043697070926","accruedDelegateeReward":"0","delegationFee":"100.0000","uptime":"0.0000","connected":false,` +
		`"signer":{"publicKey":"0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d",` +
		`"proofOfPossession":"0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2"},` +
		`"delegatorCount":"0","delegatorWeight":"0"`
	require.Equal(t, staker1+`}`, string(cur.Validators[0]))
	require.Equal(t, `{"validators":[`+staker1+`,"delegators":[]}]}`,
		n.RawResult("getCurrentValidators", `{"nodeIDs":["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"]}`))
	require.Equal(t, `{"validators":[]}`, n.RawResult("getCurrentValidators", `{"nodeIDs":["`+thisNode.NodeID.String()+`"]}`))

	// As this node runs the network it is the Primary Network's validator, holding the genesis
	// stake; as the P-Chain records it, the genesis stakers are, with their BLS keys.
	vm, ok := n.Manager.VM(ids.Empty)
	require.True(t, ok)
	pvm := vm.(*platform.VM)
	tpk := thisNode.Signer.PublicKey
	set, err := pvm.ValidatorsAt(ids.Empty, 0)
	require.NoError(t, err)
	require.Equal(t, []platform.SetValidator{{NodeID: thisNode.NodeID, PublicKey: &tpk, Weight: thisNode.Weight}}, set)
	own, err := pvm.SubnetValidators(ids.Empty)
	require.NoError(t, err)
	require.Equal(t, []platform.SubnetValidator{{NodeID: thisNode.NodeID, Weight: thisNode.Weight, StartTime: start, EndTime: start + 31_536_000}}, own)
	recorded, err := pvm.PrimaryValidators()
	require.NoError(t, err)
	require.Len(t, recorded, 5)
	for _, tx := range g.P.Validators {
		u := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
		pk := u.Signer.(*txs.ProofOfPossession).PublicKey
		require.Contains(t, recorded, platform.SetValidator{NodeID: u.Validator.NodeID, PublicKey: &pk, Weight: 2_000_000_000_000_000})
	}
	require.True(t, slices.IsSortedFunc(recorded, func(a, b platform.SetValidator) int { return a.NodeID.Compare(b.NodeID) }))
	// The stakers as the API lists them, whose uptime the node tracks among other validators.
	stakers, err := pvm.PrimaryStakers()
	require.NoError(t, err)
	require.Len(t, stakers, 5)
	staker1ID, err := ids.NodeIDFromString("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")
	require.NoError(t, err)
	require.Equal(t, platform.SubnetValidator{TxID: g.P.Validators[3].ID(), NodeID: staker1ID, Weight: 2_000_000_000_000_000,
		StartTime: start, EndTime: start + 31_536_000}, stakers[0])
	require.True(t, slices.IsSortedFunc(stakers, func(a, b platform.SubnetValidator) int { return a.NodeID.Compare(b.NodeID) }))

	require.Equal(t, `{"weights":[1,1000,1000,4],"maxCapacity":1000000,"maxPerSecond":100000,"targetPerSecond":50000,"minPrice":1,"excessConversionConstant":2164043}`,
		n.RawResult("getFeeConfig", `{}`))
	ts := time.Unix(int64(start), 0).UTC().Format(time.RFC3339)
	require.Equal(t, `{"capacity":20000,"target":10000,"minPrice":1,"excessConversionConstant":865617}`, n.RawResult("getValidatorFeeConfig", `{}`))
	require.Equal(t, `{"excess":0,"price":1,"timestamp":"`+ts+`"}`, n.RawResult("getValidatorFeeState", `{}`))
	require.Equal(t, `{"timestamp":"`+ts+`"}`, n.RawResult("getTimestamp", `{}`))
	require.Equal(t, `{"capacity":0,"excess":0,"price":1,"timestamp":"`+ts+`"}`, n.RawResult("getFeeState", `{}`))
	require.Equal(t, liveError(t, "platform.getBlockByHeight", `{"height":"99","encoding":"hex"}`),
		n.CallError("getBlockByHeight", `{"height":"99","encoding":"hex"}`))
	require.Equal(t, liveError(t, "platform.getSubnet", `{"subnetID":"11111111111111111111111111111111LpoYY"}`),
		n.CallError("getSubnet", `{"subnetID":"11111111111111111111111111111111LpoYY"}`))
	require.Equal(t, `{"block":{"parentID":"`+ids.ID(sha256.Sum256(g.PGenesis)).String()+`","height":0,"id":"`+last.String()+`"},"encoding":"json"}`,
		n.RawResult("getBlockByHeight", `{"height":"0","encoding":"json"}`))
}

func u64(v uint64) string { return strings.TrimSpace(mustJSONNum(v)) }

func mustJSONNum(v uint64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestVectorSequence issues the reference's BaseTx, CreateSubnetTx and CreateChainTx vectors,
// which the live node accepted: each is committed, and getTx in json is byte for byte the
// reference's; the BaseTx issued again fails with the live node's words (§5.1).
func TestVectorSequence(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, t.TempDir(), clk)
	names := []string{"p_base_tx_transfer_avax", "p_create_subnet_tx", "p_create_chain_tx"}
	var txIDs []ids.ID
	for i, name := range names {
		clk.Advance(time.Second)
		vec := vectortest.Named(t, name)
		id := n.issueBytes(vectorBytes(t, vec))
		txIDs = append(txIDs, id)
		require.Equal(t, u64(uint64(i+1)), n.Height())
		// The vector file's reply has its keys sorted; the tx inside is as the node sent it.
		var want struct {
			Tx json.RawMessage `json:"tx"`
		}
		require.NoError(t, json.Unmarshal(vec["platform.getTx(json)"], &want))
		require.Equal(t, `{"tx":`+vectortest.Compact(t, want.Tx)+`,"encoding":"json"}`,
			n.RawResult("getTx", `{"txID":"`+id.String()+`","encoding":"json"}`))
	}
	base := vectortest.Named(t, "p_base_tx_transfer_avax")
	hexTx, err := ids.Hex.Encode(vectorBytes(t, base))
	require.NoError(t, err)
	params := `{"tx":"` + hexTx + `","encoding":"hex"}`
	require.Equal(t, liveError(t, "platform.issueTx", params), n.CallError("issueTx", params))
	require.Equal(t, liveError(t, "platform.issueTx", `{"tx":"0x00","encoding":"hex"}`), n.CallError("issueTx", `{"tx":"0x00","encoding":"hex"}`))

	subnetID, chainID := txIDs[1], txIDs[2]
	require.Equal(t, `{"subnets":[{"id":"`+subnetID.String()+`","controlKeys":["`+ewoqP+`"],"threshold":"1"},`+
		`{"id":"11111111111111111111111111111111LpoYY","controlKeys":[],"threshold":"0"}]}`, n.RawResult("getSubnets", `{}`))
	require.Equal(t, `{"isPermissioned":true,"controlKeys":["`+ewoqP+`"],"threshold":"1","locktime":"0",`+
		`"subnetTransformationTxID":"11111111111111111111111111111111LpoYY","conversionID":"11111111111111111111111111111111LpoYY",`+
		`"managerChainID":"11111111111111111111111111111111LpoYY","managerAddress":null}`,
		n.RawResult("getSubnet", `{"subnetID":"`+subnetID.String()+`"}`))
	require.Equal(t, `{"status":"Created"}`, n.RawResult("getBlockchainStatus", `{"blockchainID":"`+chainID.String()+`"}`))
	var chainsReply api.GetBlockchainsReply
	n.Result("getBlockchains", `{}`, &chainsReply)
	require.Len(t, chainsReply.Blockchains, 3)
	require.Equal(t, api.APIBlockchain{ID: chainID, Name: "testchain", SubnetID: subnetID, VMID: ids.FromName("subnetevm")}, chainsReply.Blockchains[0])

	// The blocks are a second apart: each refills the capacity to the maximum and drains the
	// excess (50,000 a second) before consuming its own gas, the vectors' (§4.8).
	var fs api.GetFeeStateReply
	n.Result("getFeeState", `{}`, &fs)
	require.Equal(t, api.GetFeeStateReply{Capacity: 1_000_000 - 9246, Excess: 9246, Price: 1,
		Timestamp: vectorTime.Add(3 * time.Second).UTC().Format(time.RFC3339)}, fs)
	require.Len(t, n.Index.Blocks(), 3)
}

// TestLifecycle builds and signs its own txs: a BaseTx from ewoq, a subnet owned by vmRQ, and a
// chain on it authorized by vmRQ; every rejection leaves the state as it was, and a restart
// keeps it all.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := clock.NewFake(vectorTime)
	n := startNode(t, dir, clk)
	avax := n.g.AVAXAssetID
	ewoq, vmrq := key(t, ewoqKeyHex), key(t, vmrqKeyHex)
	ewoqAddr, vmrqAddr := addrOf(ewoq), addrOf(vmrq)

	// A BaseTx gives vmRQ 5 AVAX.
	ux := n.largest(ewoqP)
	b := n.baseTx(ux, 5_000_000_000, vmrqAddr, ewoqAddr)
	transfer := sign(t, &b, ewoq)
	n.issue(transfer)
	require.Equal(t, uint64(5_000_000_000), n.balance(vmrqP))
	ewoqBalance := n.balance(ewoqP)
	require.Equal(t, uint64(30_000_000_000_000_000-5_000_000_000-burn), ewoqBalance)

	// vmRQ creates a subnet it owns.
	vux := n.largest(vmrqP)
	csBase := n.baseTx(vux, 0, vmrqAddr, vmrqAddr)
	cs := &txs.CreateSubnetTx{BaseTx: csBase, Owner: owner(vmrqAddr)}
	createSubnet := sign(t, cs, vmrq)
	n.issue(createSubnet)
	subnetID := createSubnet.ID()

	ccTx := func(ux *txs.UTXO, name string) *txs.CreateChainTx {
		return &txs.CreateChainTx{
			BaseTx:      n.baseTx(ux, 0, ewoqAddr, ewoqAddr),
			SubnetID:    subnetID,
			ChainName:   name,
			VMID:        ids.FromName("subnetevm"),
			GenesisData: []byte(`{"config":{}}`),
			SubnetAuth:  secp256k1fx.Input{SigIndices: []uint32{0}},
		}
	}

	height := n.Height()
	ewoqUTXOs := n.utxos(ewoqP)
	rejected := []struct {
		name string
		tx   *txs.Tx
		want error
	}{
		{"bad signature", sign(t, ptr(n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)), vmrq), utxo.ErrWrongSig},
		{"double spend", sign(t, ptr(n.baseTx(ux, 1, vmrqAddr, ewoqAddr)), ewoq), utxo.ErrUTXONotFound},
		{"missing fee", sign(t, &txs.BaseTx{NetworkID: genesis.LocalNetworkID,
			Outs: []txs.TransferableOutput{txs.TransferTo(avax, amountOf(n.largest(ewoqP)), ewoqAddr)},
			Ins:  []txs.TransferableInput{txs.SpendUTXO(n.largest(ewoqP))}}, ewoq), utxo.ErrInsufficientFunds},
		{"wrong subnet owner", sign(t, ccTx(n.largest(ewoqP), "wrong"), ewoq, ewoq), platform.ErrUnauthorizedSubnetModification},
		{"unknown subnet", sign(t, func() *txs.CreateChainTx {
			cc := ccTx(n.largest(ewoqP), "nosubnet")
			cc.SubnetID = ids.ID{9}
			return cc
		}(), ewoq, vmrq), platform.ErrSubnetNotFound},
		{"memo", sign(t, func() *txs.BaseTx {
			b := n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)
			b.Memo = []byte{1}
			return &b
		}(), ewoq), platform.ErrMemoNotEmpty},
		{"wrong network", sign(t, func() *txs.BaseTx {
			b := n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)
			b.NetworkID = 1
			return &b
		}(), ewoq), utxo.ErrWrongNetworkID},
		{"missing auth credential", sign(t, ccTx(n.largest(ewoqP), "nocred"), ewoq), utxo.ErrWrongNumberOfCredentials},
	}
	for _, tt := range rejected {
		msg := n.IssueTxError(tt.tx)
		require.True(t, strings.HasPrefix(msg, "couldn't issue tx: failed verification: "), "%s: %s", tt.name, msg)
		require.Contains(t, msg, tt.want.Error(), tt.name)
		var st chainapi.GetTxStatusReply
		n.Result("getTxStatus", `{"txID":"`+tt.tx.ID().String()+`"}`, &st)
		require.Equal(t, "Unknown", st.Status, tt.name)
	}
	require.Equal(t, height, n.Height())
	require.Equal(t, ewoqBalance, n.balance(ewoqP))
	require.Equal(t, ewoqUTXOs, n.utxos(ewoqP))

	// The subnet owner authorizes a chain; ewoq pays.
	createChain := sign(t, ccTx(n.largest(ewoqP), "my chain 1"), ewoq, vmrq)
	n.issue(createChain)
	require.Equal(t, `{"status":"Created"}`, n.RawResult("getBlockchainStatus", `{"blockchainID":"`+createChain.ID().String()+`"}`))

	// A tx issued twice: the second time is refused, nothing changes. Until the VM has been told
	// of the commit (Accepted runs just after it) the mempool still holds the tx and refuses it as
	// a duplicate; after that its spent UTXOs refuse it.
	require.Eventually(t, func() bool {
		return strings.Contains(n.IssueTxError(createChain), utxo.ErrUTXONotFound.Error())
	}, 10*time.Second, time.Millisecond)

	// The chain time follows the clock, never backwards.
	clk.Advance(time.Minute)
	n.issue(sign(t, ptr(n.baseTx(n.largest(ewoqP), 1, vmrqAddr, ewoqAddr)), ewoq))
	var ts api.GetTimestampReply
	n.Result("getTimestamp", `{}`, &ts)
	require.Equal(t, clk.Now().UTC().Format(time.RFC3339), ts.Timestamp)

	// Restart: everything is still there.
	height = n.Height()
	chainsBefore := n.RawResult("getBlockchains", `{}`)
	utxosBefore := n.utxos(ewoqP)
	n.Stop()
	n = startNode(t, dir, clk)
	require.Equal(t, height, n.Height())
	require.Equal(t, chainsBefore, n.RawResult("getBlockchains", `{}`))
	require.Equal(t, utxosBefore, n.utxos(ewoqP))
	require.Equal(t, uint64(5_000_000_000-burn+1), n.balance(vmrqP))
	var subnet api.GetSubnetReply
	n.Result("getSubnet", `{"subnetID":"`+subnetID.String()+`"}`, &subnet)
	require.Equal(t, []string{vmrqP}, subnet.ControlKeys)
	// And it keeps building on what it has.
	n.issue(sign(t, ptr(n.baseTx(n.largest(ewoqP), 2, vmrqAddr, ewoqAddr)), ewoq))
	var blk chainapi.GetBlockReply
	n.Result("getBlockByHeight", `{"height":"`+n.Height()+`","encoding":"hexnc"}`, &blk)
	var hexBlk string
	require.NoError(t, json.Unmarshal(blk.Block, &hexBlk))
	raw, err := ids.HexNC.Decode(hexBlk)
	require.NoError(t, err)
	parsed, err := txs.ParseBlock(raw)
	require.NoError(t, err)
	require.Len(t, parsed.Txs(), 1)
	require.GreaterOrEqual(t, parsed.(*txs.StandardBlock).Time(), uint64(clk.Now().Unix()))
}

func ptr[T any](v T) *T { return &v }

// TestBareShortIDAddresses checks that an address given as a bare CB58 short ID, the form the
// reference's own platformvm.Client sends, is read as the P-Chain address it names, as the
// reference's avax.ParseServiceAddress reads it (§2.4).
func TestBareShortIDAddresses(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	bare := addrOf(key(t, ewoqKeyHex)).String()
	require.Equal(t, "6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV", bare)
	utxovmtest.TestBareAddresses(t, n.Call, ewoqP, bare,
		utxovmtest.AddressForms{Method: "getBalance", Bech32: `{"addresses":["` + ewoqP + `"]}`, Bare: `{"addresses":["` + bare + `"]}`},
	)
}
