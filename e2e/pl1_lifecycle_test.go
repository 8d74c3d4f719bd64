package e2e_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// lcChainID is the EVM chain ID of the lifecycle test's L1 chain, distinct from other tests'.
const lcChainID = 99517

// lcExampleGenesis is the example L1 genesis that ships with cornice; the test changes its chain
// ID to lcChainID.
const lcExampleGenesis = exampleGenesis

// lcCLI runs the command line, which must succeed, and returns the submatches of want in its
// output.
func lcCLI(t *testing.T, want string, args ...string) []string {
	t.Helper()
	code, stdout, stderr := runCLI(t, args...)
	require.Equal(t, 0, code, "%v: %s", args, stderr)
	m := regexp.MustCompile(want).FindStringSubmatch(stdout)
	require.NotNil(t, m, "%v: %q", args, stdout)
	return m
}

// lcHeight returns platform.getHeight.
func (xn *xNode) lcHeight() uint64 {
	xn.t.Helper()
	var reply struct {
		Height uint64 `json:"height,string"`
	}
	xn.call("/ext/bc/P", "platform.getHeight", nil, &reply)
	return reply.Height
}

// lcBlockAt returns the P-Chain block at height as platform.getBlockByHeight gives it in hex,
// parsed, and its hex string.
func (xn *xNode) lcBlockAt(height uint64) (txs.Block, string) {
	xn.t.Helper()
	var reply struct {
		Block    string `json:"block"`
		Encoding string `json:"encoding"`
	}
	xn.call("/ext/bc/P", "platform.getBlockByHeight", map[string]string{"height": strconv.FormatUint(height, 10), "encoding": "hex"}, &reply)
	require.Equal(xn.t, "hex", reply.Encoding)
	b, err := ids.Hex.Decode(reply.Block)
	require.NoError(xn.t, err)
	blk, err := txs.ParseBlock(b)
	require.NoError(xn.t, err)
	require.Equal(xn.t, height, blk.Height())
	return blk, reply.Block
}

// lcStandardBlockAt is lcBlockAt for a block that must be a Banff standard block.
func (xn *xNode) lcStandardBlockAt(height uint64) *txs.StandardBlock {
	xn.t.Helper()
	blk, _ := xn.lcBlockAt(height)
	sb, ok := blk.(*txs.StandardBlock)
	require.True(xn.t, ok, "block %d is a %T", height, blk)
	return sb
}

// lcL1Validator is platform.getL1Validator's reply, the fields the test reads.
type lcL1Validator struct {
	NodeID       ids.NodeID `json:"nodeID"`
	Weight       uint64     `json:"weight,string"`
	StartTime    uint64     `json:"startTime,string"`
	ValidationID ids.ID     `json:"validationID"`
	PublicKey    string     `json:"publicKey"`
	Balance      uint64     `json:"balance,string"`
	SubnetID     ids.ID     `json:"subnetID"`
	Height       uint64     `json:"height,string"`
}

func (xn *xNode) lcL1Validator(validationID ids.ID) lcL1Validator {
	xn.t.Helper()
	var reply lcL1Validator
	xn.call("/ext/bc/P", "platform.getL1Validator", map[string]ids.ID{"validationID": validationID}, &reply)
	return reply
}

// lcValidatorAt is one validator of platform.getValidatorsAt.
type lcValidatorAt struct {
	PublicKey *string `json:"publicKey"`
	Weight    uint64  `json:"weight,string"`
}

// lcValidatorsAt returns platform.getValidatorsAt of subnetID at height ("proposed" or a number).
func (xn *xNode) lcValidatorsAt(subnetID ids.ID, height string) map[ids.NodeID]lcValidatorAt {
	xn.t.Helper()
	var reply map[ids.NodeID]lcValidatorAt
	xn.call("/ext/bc/P", "platform.getValidatorsAt", map[string]any{"subnetID": subnetID, "height": height}, &reply)
	return reply
}

// lcState is what a refused command must not change and a restart must keep: the P-Chain's
// replies, verbatim.
type lcState map[string]json.RawMessage

// lcSnapshot records the height, chain time, fee states, the balances of addrs, the subnet, the
// chains, the L1's validators one by one and as a set at every height from 1.
func (xn *xNode) lcSnapshot(subnetID ids.ID, validationIDs []ids.ID, addrs ...string) lcState {
	xn.t.Helper()
	st := lcState{}
	get := func(key, method string, params any) {
		var raw json.RawMessage
		xn.call("/ext/bc/P", method, params, &raw)
		st[key] = raw
	}
	get("height", "platform.getHeight", nil)
	get("timestamp", "platform.getTimestamp", nil)
	get("feeState", "platform.getFeeState", nil)
	get("validatorFeeState", "platform.getValidatorFeeState", nil)
	get("subnet", "platform.getSubnet", map[string]ids.ID{"subnetID": subnetID})
	get("blockchains", "platform.getBlockchains", nil)
	get("validators", "platform.getCurrentValidators", map[string]ids.ID{"subnetID": subnetID})
	for _, a := range addrs {
		get("balance "+a, "platform.getBalance", map[string][]string{"addresses": {a}})
		get("utxos "+a, "platform.getUTXOs", map[string][]string{"addresses": {a}})
	}
	for _, id := range validationIDs {
		get("l1Validator "+id.String(), "platform.getL1Validator", map[string]ids.ID{"validationID": id})
	}
	for h := uint64(1); h <= xn.lcHeight(); h++ {
		get("validatorsAt "+strconv.FormatUint(h, 10), "platform.getValidatorsAt",
			map[string]any{"subnetID": subnetID, "height": strconv.FormatUint(h, 10)})
	}
	return st
}

// lcEthChainID asks chain id on xn for eth_chainId.
func (xn *xNode) lcEthChainID(id ids.ID) (string, error) {
	var got string
	err := xn.client.Call(context.Background(), "/ext/bc/"+id.String()+"/rpc", "eth_chainId", []any{}, &got)
	return got, err
}

// lcWaitChain waits until chain id answers eth_chainId with lcChainID.
func (xn *xNode) lcWaitChain(id ids.ID) {
	xn.t.Helper()
	want := fmt.Sprintf("%#x", lcChainID)
	require.Eventually(xn.t, func() bool {
		got, err := xn.lcEthChainID(id)
		return err == nil && got == want
	}, acceptWait, 20*time.Millisecond, "chain %s does not answer", id)
}

// TestPChainL1Lifecycle runs an L1's whole life on the P-Chain of a real node, through the CLI
// (issue #5 §5): a subnet and a chain on it; the conversion into an L1 validated by this node
// and a second validator with 5 nAVAX, which the continuous fee deactivates in a block at the
// very second its balance runs out, moving it under the empty NodeID in getValidatorsAt;
// refused commands (a zero amount, the wrong deactivation owner, a second conversion, a chain on
// the L1, unknown validation IDs) that exit 1 with a clear error and change nothing; a top-up
// that reactivates it, then its disabling with the exact refund. A restart keeps all of it, and
// every block of the P index parses back to the same bytes and the committed txs.
func TestPChainL1Lifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	xn := startXNode(t, dir)
	ewoq := localKey(t)
	alice := xn.pWallet(ewoq)
	bob := testKey(t, "p-l1-lifecycle-bob")
	bobAddr := xn.pWallet(bob).Address()
	// committed lists every committed tx, in order: the P index must hold exactly these.
	var committed []ids.ID
	txIDOf := func(s string) ids.ID {
		id, err := ids.FromString(s)
		require.NoError(t, err)
		return id
	}

	// A subnet and a Subnet-EVM chain on it, with the CLI.
	m := lcCLI(t, `^txID: (\w+)\nsubnetID: (\w+)\nstatus: Committed\n$`, "p", "create-subnet", "--node-uri", xn.base)
	subnetID := txIDOf(m[2])
	committed = append(committed, txIDOf(m[1]))
	example, err := os.ReadFile(lcExampleGenesis)
	require.NoError(t, err)
	genesis := bytes.Replace(example, []byte(`"chainId": 99999`), []byte(`"chainId": `+strconv.Itoa(lcChainID)), 1)
	require.NotEqual(t, example, genesis)
	gfile := filepath.Join(t.TempDir(), "genesis.json")
	require.NoError(t, os.WriteFile(gfile, genesis, 0o600))
	m = lcCLI(t, `^txID: (\w+)\nblockchainID: (\w+)\nstatus: Committed\n$`, "p", "create-chain", "--node-uri", xn.base,
		"--subnet", subnetID.String(), "--name", "lifecycle", "--vm", "subnetevm", "--genesis", gfile)
	chainID := txIDOf(m[2])
	committed = append(committed, txIDOf(m[1]))
	beforeConversion := xn.lcHeight()

	// The conversion: this node, with its key and proof of possession from info.getNodeID and a
	// large balance, and a second validator with a fresh BLS key and 5 nAVAX. The CLI converts
	// with one validator only, so the wallet it uses builds this one.
	var me struct {
		NodeID  ids.NodeID            `json:"nodeID"`
		NodePOP bls.ProofOfPossession `json:"nodePOP"`
	}
	xn.call("/ext/info", "info.getNodeID", nil, &me)
	sk, err := bls.NewSecretKey()
	require.NoError(t, err)
	pop := bls.NewProofOfPossession(sk)
	var otherNode ids.NodeID
	_, err = rand.Read(otherNode[:])
	require.NoError(t, err)
	const (
		myWeight, otherWeight = 100, 7
		myBalance             = 100_000_000_000
		otherBalance          = 5
	)
	tx, err := alice.ConvertSubnet(t.Context(), subnetID, chainID, []byte{0xc0, 0xde}, []wallet.L1Validator{
		{NodeID: me.NodeID, Weight: myWeight, Balance: myBalance,
			Signer: txs.ProofOfPossession{PublicKey: me.NodePOP.PublicKey, Signature: me.NodePOP.ProofOfPossession}},
		{NodeID: otherNode, Weight: otherWeight, Balance: otherBalance,
			Signer: txs.ProofOfPossession{PublicKey: pop.PublicKey, Signature: pop.ProofOfPossession}},
	})
	require.NoError(t, err)
	committed = append(committed, pIssue(t, alice, tx))
	conv, ok := tx.Unsigned().(*txs.ConvertSubnetToL1Tx)
	require.True(t, ok)
	var myVID, otherVID ids.ID
	for i, v := range conv.Validators {
		switch ids.NodeID(v.NodeID) {
		case me.NodeID:
			myVID = conv.ValidationID(uint32(i))
		case otherNode:
			otherVID = conv.ValidationID(uint32(i))
		}
	}
	require.NotEqual(t, ids.Empty, myVID)
	require.NotEqual(t, ids.Empty, otherVID)
	xn.lcWaitChain(chainID) // this node validates the L1, so it runs its chain

	// The conversion's block, and the validators it started at its time.
	convHeight := beforeConversion + 1
	convBlock := xn.lcStandardBlockAt(convHeight)
	require.Len(t, convBlock.Txs(), 1)
	require.Equal(t, tx.ID(), convBlock.Txs()[0].ID())
	other := xn.lcL1Validator(otherVID)
	require.Equal(t, otherNode, other.NodeID)
	require.Equal(t, subnetID, other.SubnetID)
	require.Equal(t, uint64(otherWeight), other.Weight)
	require.Equal(t, convBlock.Time(), other.StartTime)
	require.Equal(t, "0x"+hex.EncodeToString(pop.PublicKey[:]), other.PublicKey)
	require.LessOrEqual(t, other.Balance, uint64(otherBalance))
	pkOf := func(pk [bls.PublicKeyLen]byte) *string {
		s := "0x" + hex.EncodeToString(pk[:])
		return &s
	}
	require.Empty(t, xn.lcValidatorsAt(subnetID, strconv.FormatUint(beforeConversion, 10)), "no validator before the conversion")
	active := map[ids.NodeID]lcValidatorAt{
		me.NodeID: {PublicKey: pkOf(me.NodePOP.PublicKey), Weight: myWeight},
		otherNode: {PublicKey: pkOf(pop.PublicKey), Weight: otherWeight},
	}
	require.Equal(t, active, xn.lcValidatorsAt(subnetID, strconv.FormatUint(convHeight, 10)))

	// The second validator runs out: at the minimum price of the continuous fee, 5 nAVAX last 5
	// s of chain time, and the block that deactivates it is built at that second.
	var feeCfg struct {
		MinPrice uint64 `json:"minPrice"`
	}
	xn.call("/ext/bc/P", "platform.getValidatorFeeConfig", nil, &feeCfg)
	require.NotZero(t, feeCfg.MinPrice)
	var feeState struct {
		Price uint64 `json:"price"`
	}
	xn.call("/ext/bc/P", "platform.getValidatorFeeState", nil, &feeState)
	require.Equal(t, feeCfg.MinPrice, feeState.Price, "two active validators are below the target")
	require.Eventually(t, func() bool { return xn.lcL1Validator(otherVID).Balance == 0 }, acceptWait, 50*time.Millisecond)
	evictHeight := xn.lcHeight()
	require.Equal(t, convHeight+1, evictHeight, "nothing but the eviction happened since the conversion")
	evictBlock := xn.lcStandardBlockAt(evictHeight)
	require.Empty(t, evictBlock.Txs(), "the eviction block carries no tx")
	runsOut := other.StartTime + (otherBalance+feeCfg.MinPrice-1)/feeCfg.MinPrice
	require.Equal(t, runsOut, evictBlock.Time(), "evicted at the second its balance ran out")
	inactive := map[ids.NodeID]lcValidatorAt{
		me.NodeID:       {PublicKey: pkOf(me.NodePOP.PublicKey), Weight: myWeight},
		ids.EmptyNodeID: {Weight: otherWeight},
	}
	require.Equal(t, active, xn.lcValidatorsAt(subnetID, strconv.FormatUint(evictHeight-1, 10)))
	require.Equal(t, inactive, xn.lcValidatorsAt(subnetID, strconv.FormatUint(evictHeight, 10)))
	require.Equal(t, inactive, xn.lcValidatorsAt(subnetID, "proposed"))
	mine := xn.lcL1Validator(myVID)
	require.Equal(t, me.NodeID, mine.NodeID)
	require.Equal(t, myBalance-(evictBlock.Time()-mine.StartTime)*feeCfg.MinPrice, mine.Balance, "this node's validator paid each second")
	vals := xn.l1Validators(subnetID)
	require.Len(t, vals, 2, "an inactive validator is still listed")
	for _, v := range vals {
		if v.ValidationID == otherVID {
			require.Zero(t, uint64(v.Balance))
			require.Equal(t, uint64(otherWeight), uint64(v.Weight))
		}
	}

	// bob gets AVAX to pay for a disable he cannot authorize.
	m = lcCLI(t, `^txID: (\w+)\nstatus: Committed\n$`, "p", "send", "--node-uri", xn.base, "--to", bobAddr, "--amount", "1000000000")
	committed = append(committed, txIDOf(m[1]))

	// Refused: each exits 1 with a clear error on stderr and nothing on stdout, and changes
	// nothing on the P-Chain.
	unknown := ids.FromName("no such validator")
	addrs := []string{alice.Address(), bobAddr}
	vidList := []ids.ID{myVID, otherVID}
	before := xn.lcSnapshot(subnetID, vidList, addrs...)
	popHex := hex.EncodeToString(pop.ProofOfPossession[:])
	q := regexp.QuoteMeta
	// refused is how the CLI reports a tx the node refuses: the text of platform.issueTx.
	refused := q("cornice: platform.issueTx: couldn't issue tx: failed verification: ")
	executed := refused + `failed execution: standard tx \w+ failed execution: `
	for _, tc := range []struct {
		name string
		args []string
		want string // a regular expression matching all of stderr
	}{
		{"increase by zero", []string{"increase-balance", "--validation-id", otherVID.String(), "--amount", "0"},
			"^" + q("cornice: "+wallet.ErrZeroAmount.Error()) + "\n$"},
		{"disable by another key", []string{"disable-validator", "--validation-id", myVID.String(), "--key", bob.String()},
			"^" + executed + q(platform.ErrUnauthorizedL1ValidatorModification.Error()+": "+utxo.ErrWrongSig.Error()) + "\n$"},
		{"convert twice", []string{"convert-subnet", "--subnet", subnetID.String(), "--chain", chainID.String(), "--address", "0x01",
			"--validator-node-id", otherNode.String(), "--validator-bls-key", hex.EncodeToString(pop.PublicKey[:]),
			"--validator-pop", popHex, "--weight", "1"},
			"^" + executed + q(subnetID.String()+" "+platform.ErrSubnetImmutable.Error()) + "\n$"},
		{"chain on an L1", []string{"create-chain", "--subnet", subnetID.String(), "--name", "late", "--vm", "subnetevm", "--genesis", gfile},
			"^" + executed + q(subnetID.String()+" "+platform.ErrSubnetImmutable.Error()) + "\n$"},
		{"increase unknown", []string{"increase-balance", "--validation-id", unknown.String(), "--amount", "1"},
			"^" + executed + q("L1 validator "+unknown.String()+": "+platform.ErrL1ValidatorNotFound.Error()) + "\n$"},
		{"disable unknown", []string{"disable-validator", "--validation-id", unknown.String()},
			"^" + executed + q("L1 validator "+unknown.String()+": "+platform.ErrL1ValidatorNotFound.Error()) + "\n$"},
	} {
		args := append([]string{"p"}, tc.args...)
		args = append(args, "--node-uri", xn.base)
		code, stdout, stderr := runCLI(t, args...)
		require.Equal(t, 1, code, tc.name)
		require.Empty(t, stdout, tc.name)
		require.Regexp(t, tc.want, stderr, tc.name)
		require.Equal(t, before, xn.lcSnapshot(subnetID, vidList, addrs...), tc.name)
	}

	// The wallet refuses a zero top-up before the node sees it; signed anyway, the node refuses
	// it with its own text.
	b, err := alice.Builder(t.Context())
	require.NoError(t, err)
	utxos, err := alice.UTXOs(t.Context())
	require.NoError(t, err)
	tx, err = b.IncreaseBalance(ewoq, utxos, otherVID, 1)
	require.NoError(t, err)
	zero, ok := tx.Unsigned().(*txs.IncreaseL1ValidatorBalanceTx)
	require.True(t, ok)
	zero.Balance = 0
	ub, err := txs.UnsignedBytes(zero)
	require.NoError(t, err)
	sig, err := ewoq.Sign(sha256.Sum256(ub))
	require.NoError(t, err)
	creds := make([]secp256k1fx.Credential, len(tx.Creds()))
	for i := range creds {
		creds[i] = secp256k1fx.Credential{Sigs: []secp256k1fx.Signature{sig}}
	}
	tx, err = txs.NewTx(zero, creds)
	require.NoError(t, err)
	_, err = alice.Issue(t.Context(), tx)
	rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "couldn't issue tx: failed verification: "+platform.ErrZeroBalance.Error(), rpcErr.Message)
	require.Equal(t, before, xn.lcSnapshot(subnetID, vidList, addrs...))

	// A top-up reactivates the second validator.
	const topUp = 1_000_000
	m = lcCLI(t, `^txID: (\w+)\nstatus: Committed\n$`, "p", "increase-balance", "--node-uri", xn.base,
		"--validation-id", otherVID.String(), "--amount", strconv.Itoa(topUp))
	increaseID := txIDOf(m[1])
	committed = append(committed, increaseID)
	increaseHeight := xn.lcHeight()
	increaseBlock := xn.lcStandardBlockAt(increaseHeight)
	require.Len(t, increaseBlock.Txs(), 1)
	require.Equal(t, increaseID, increaseBlock.Txs()[0].ID())
	other = xn.lcL1Validator(otherVID)
	require.Positive(t, other.Balance)
	require.LessOrEqual(t, other.Balance, uint64(topUp))
	require.Equal(t, active, xn.lcValidatorsAt(subnetID, strconv.FormatUint(increaseHeight, 10)))

	// Disabling it refunds what is left to its remaining balance owner, the key, as the output
	// after the tx's own.
	m = lcCLI(t, `^txID: (\w+)\nstatus: Committed\n$`, "p", "disable-validator", "--node-uri", xn.base,
		"--validation-id", otherVID.String())
	disableID := txIDOf(m[1])
	committed = append(committed, disableID)
	disableHeight := xn.lcHeight()
	disableBlock := xn.lcStandardBlockAt(disableHeight)
	require.Len(t, disableBlock.Txs(), 1)
	require.Equal(t, disableID, disableBlock.Txs()[0].ID())
	require.Zero(t, xn.lcL1Validator(otherVID).Balance)
	require.Equal(t, inactive, xn.lcValidatorsAt(subnetID, strconv.FormatUint(disableHeight, 10)))
	wantRefund := topUp - (disableBlock.Time()-increaseBlock.Time())*feeCfg.MinPrice
	refundIndex := uint32(len(disableBlock.Txs()[0].Unsigned().Base().Outs))
	utxos, err = alice.UTXOs(t.Context())
	require.NoError(t, err)
	var refund uint64
	for _, ux := range utxos {
		if ux.TxID == disableID && ux.OutputIndex == refundIndex {
			out, ok := ux.Out.(*secp256k1fx.TransferOutput)
			require.True(t, ok)
			refund = out.Amount
		}
	}
	require.Equal(t, wantRefund, refund)

	// A restart keeps all of it: the same answers, the L1's chain running again, and nothing
	// built on start-up.
	final := xn.lcSnapshot(subnetID, vidList, addrs...)
	xn.stop()
	xn = startXNode(t, dir)
	require.Equal(t, final, xn.lcSnapshot(subnetID, vidList, addrs...))
	xn.lcWaitChain(chainID)
	var subnet struct {
		IsPermissioned bool   `json:"isPermissioned"`
		ManagerChainID ids.ID `json:"managerChainID"`
		ManagerAddress string `json:"managerAddress"`
		ConversionID   ids.ID `json:"conversionID"`
	}
	xn.call("/ext/bc/P", "platform.getSubnet", map[string]ids.ID{"subnetID": subnetID}, &subnet)
	require.False(t, subnet.IsPermissioned)
	require.Equal(t, chainID, subnet.ManagerChainID)
	require.Equal(t, "0xc0de", subnet.ManagerAddress)
	require.Equal(t, txs.ConversionID(conv), subnet.ConversionID)
	require.Equal(t, inactive, xn.lcValidatorsAt(subnetID, "proposed"))
	require.Equal(t, active, xn.lcValidatorsAt(subnetID, strconv.FormatUint(convHeight, 10)))

	xn.lcCheckPIndex(committed)
}

// lcCheckPIndex checks the P-Chain's block index against the txs committed, in order: one entry
// per block after the genesis; each entry's bytes parse to a block with its ID and height, encode
// back to the same bytes, and are what platform.getBlock gives in hex; the blocks' txs are
// exactly committed, each parsing back to itself and matching platform.getTx; and platform.getBlock
// and platform.getTx in json give every block's and tx's json form, listing the same txs.
func (xn *xNode) lcCheckPIndex(committed []ids.ID) {
	t := xn.t
	t.Helper()
	var reply index.GetContainerRangeReply
	xn.call("/ext/index/P/block", "index.getContainerRange",
		map[string]any{"startIndex": 0, "numToFetch": index.MaxFetch, "encoding": "hex"}, &reply)
	require.Len(t, reply.Containers, int(xn.lcHeight()))
	var inBlocks []ids.ID
	for i, c := range reply.Containers {
		require.Equal(t, strconv.Itoa(i), c.Index)
		b, err := ids.Hex.Decode(c.Bytes)
		require.NoError(t, err)
		blk, err := txs.ParseBlock(b)
		require.NoError(t, err)
		require.Equal(t, c.ID, blk.ID().String())
		require.Equal(t, uint64(i+1), blk.Height())
		sb, ok := blk.(*txs.StandardBlock)
		require.True(t, ok, "block %d is a %T", i+1, blk)
		again, err := txs.NewStandardBlock(sb.Parent(), sb.Height(), sb.Time(), sb.Txs())
		require.NoError(t, err)
		require.Equal(t, b, again.Bytes())
		require.Equal(t, blk.ID(), again.ID())

		var hexReply struct {
			Block string `json:"block"`
		}
		xn.call("/ext/bc/P", "platform.getBlock", map[string]string{"blockID": c.ID, "encoding": "hex"}, &hexReply)
		require.Equal(t, c.Bytes, hexReply.Block)
		_, byHeight := xn.lcBlockAt(blk.Height())
		require.Equal(t, c.Bytes, byHeight)

		var txIDs []ids.ID
		for _, tx := range blk.Txs() {
			txIDs = append(txIDs, tx.ID())
			parsed, err := txs.ParseTx(tx.Bytes())
			require.NoError(t, err)
			require.Equal(t, tx.ID(), parsed.ID())
			require.Equal(t, tx.Bytes(), parsed.Bytes())
			var txReply struct {
				Tx string `json:"tx"`
			}
			xn.call("/ext/bc/P", "platform.getTx", map[string]string{"txID": tx.ID().String(), "encoding": "hex"}, &txReply)
			txBytes, err := ids.Hex.Decode(txReply.Tx)
			require.NoError(t, err)
			require.Equal(t, tx.Bytes(), txBytes)
		}
		inBlocks = append(inBlocks, txIDs...)

		// Every block has its json form, the L1 txs' included: the block's and each tx's are
		// those of the package's renderer, which the vectors pin (vms/platform/json_test.go).
		var asJSON struct {
			Block json.RawMessage `json:"block"`
		}
		xn.call("/ext/bc/P", "platform.getBlock", map[string]string{"blockID": c.ID, "encoding": "json"}, &asJSON)
		wantBlock, err := txs.BlockJSON(blk, "local")
		require.NoError(t, err)
		require.Equal(t, string(wantBlock), string(asJSON.Block), "block %d", i+1)
		for _, tx := range blk.Txs() {
			var txJSON struct {
				Tx json.RawMessage `json:"tx"`
			}
			xn.call("/ext/bc/P", "platform.getTx", map[string]string{"txID": tx.ID().String(), "encoding": "json"}, &txJSON)
			wantTx, err := txs.TxJSON(tx, "local")
			require.NoError(t, err)
			require.Equal(t, string(wantTx), string(txJSON.Tx))
		}
		var decoded struct {
			ID     ids.ID `json:"id"`
			Height uint64 `json:"height"`
			Time   uint64 `json:"time"`
			Txs    []struct {
				ID ids.ID `json:"id"`
			} `json:"txs"`
		}
		require.NoError(t, json.Unmarshal(asJSON.Block, &decoded))
		require.Equal(t, blk.ID(), decoded.ID)
		require.Equal(t, blk.Height(), decoded.Height)
		require.Equal(t, sb.Time(), decoded.Time)
		var jsonIDs []ids.ID
		for _, tx := range decoded.Txs {
			jsonIDs = append(jsonIDs, tx.ID)
		}
		require.Equal(t, txIDs, jsonIDs)
	}
	require.Equal(t, committed, inBlocks)
}
