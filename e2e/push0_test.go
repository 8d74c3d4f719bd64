package e2e_test

import (
	"math/big"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
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
// docs/decisions.md, "The example L1's genesis timestamp").
func TestExampleL1DeploysPUSH0(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile(exampleGenesis)
	require.NoError(t, err)
	c := startL1Node(t, nil).createL1(example)
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
}
