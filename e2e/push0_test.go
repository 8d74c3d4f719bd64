package e2e_test

import (
	"math/big"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
)

// push0Initcode deploys push0Runtime; both use PUSH0 (0x5f), the Shanghai opcode that current
// Solidity emits by default:
//
//	init:    PUSH1 8, PUSH1 10, PUSH0, CODECOPY, PUSH1 8, PUSH0, RETURN
//	runtime: PUSH1 42, PUSH0, MSTORE, PUSH1 32, PUSH0, RETURN (every call returns 42)
var (
	push0Runtime  = common.FromHex("0x602a5f5260205ff3")
	push0Initcode = append(common.FromHex("0x6008600a5f3960085ff3"), push0Runtime...)
)

// TestExampleL1DeploysPUSH0 creates the L1 of examples/l1-genesis.json, as README.md tells a new
// user to, and deploys a contract that uses PUSH0 as the very first thing, while the head is
// still the genesis: eth_estimateGas, the deployment and a call all work (issue #17 §1,
// docs/decisions.md, "The example L1's genesis timestamp"). Its warpConfig is in force: the L1
// sends a warp message, which the node signs for its L1's validators (issue #15 §2).
func TestExampleL1DeploysPUSH0(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile(exampleGenesis)
	require.NoError(t, err)
	n := startL1Node(t, nil)
	c := n.createL1(example)
	require.Equal(t, uint64(0), c.header(t, nil).Number.Uint64(), "the head is the genesis")

	key, err := crypto.HexToECDSA(localKeyHex)
	require.NoError(t, err)
	from := crypto.PubkeyToAddress(key.PublicKey)
	gas, err := c.eth.EstimateGas(t.Context(), ethereum.CallMsg{From: from, Data: push0Initcode})
	require.NoError(t, err)
	r := c.send(t, key, nil, push0Initcode, nil, gas)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	code, err := c.eth.CodeAt(t.Context(), r.ContractAddress, nil)
	require.NoError(t, err)
	require.Equal(t, push0Runtime, code)
	out, err := c.call(t, from, &r.ContractAddress, nil)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(42), new(big.Int).SetBytes(out))

	r = c.send(t, key, &l1params.WarpAddress, pack(t, precompile.WarpABI(), "sendWarpMessage", []byte("first")), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Len(t, r.Logs, 1)
	var signed hexutil.Bytes
	require.NoError(t, c.rc.CallContext(t.Context(), &signed, "warp_getMessageAggregateSignature", ids.ID(r.Logs[0].Topics[2]).String(), 67, ""))
	msg, err := warp.ParseMessage(signed)
	require.NoError(t, err)
	var self info.GetNodeIDReply
	n.xn.call("/ext/info", "info.getNodeID", nil, &self)
	set, err := warp.NewCanonicalSet([]warp.Validator{{NodeID: self.NodeID, Weight: 100, PublicKey: &self.NodePOP.PublicKey}})
	require.NoError(t, err)
	require.NoError(t, msg.Signature.Verify(&msg.UnsignedMessage, 12345, set, 67, 100))
}
