package e2e_test

import (
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// Warp on one node (issue #15 §2): an L1 contract sends a message through the warp precompile;
// the node, the L1's only validator, signs it (warp_* methods); a second transaction carries the
// signed message as an access-list predicate and reads it back with getVerifiedWarpMessage.

// warpProxyCode is the init code of a contract that forwards its calldata to the warp
// precompile with all its gas, logs what the precompile returned (LOG0), and returns it, or
// reverts with it if the call failed:
//
//	CALLDATASIZE PUSH0 PUSH0 CALLDATACOPY
//	PUSH0 PUSH0 CALLDATASIZE PUSH0 PUSH0 PUSH20 warp GAS CALL
//	RETURNDATASIZE PUSH0 PUSH0 RETURNDATACOPY RETURNDATASIZE PUSH0 LOG0
//	PUSH1 ok JUMPI RETURNDATASIZE PUSH0 REVERT ok: JUMPDEST RETURNDATASIZE PUSH0 RETURN
func warpProxyCode() []byte {
	runtime := append([]byte{0x36, 0x5f, 0x5f, 0x37, 0x5f, 0x5f, 0x36, 0x5f, 0x5f, 0x73}, l1params.WarpAddress.Bytes()...)
	runtime = append(runtime, 0x5a, 0xf1, 0x3d, 0x5f, 0x5f, 0x3e, 0x3d, 0x5f, 0xa0)
	ok := byte(len(runtime) + 6)
	runtime = append(runtime, 0x60, ok, 0x57, 0x3d, 0x5f, 0xfd, 0x5b, 0x3d, 0x5f, 0xf3)
	n := byte(len(runtime))
	return append([]byte{0x60, n, 0x60, 0x0a, 0x5f, 0x39, 0x60, n, 0x5f, 0xf3}, runtime...)
}

func TestWarpSingleNode(t *testing.T) {
	t.Parallel()
	n := startL1Node(t, nil)
	c := n.createL1(l1FixtureGenesis(t, 77715))
	var self info.GetNodeIDReply
	n.xn.call("/ext/info", "info.getNodeID", nil, &self)
	nodeKey, err := bls.PublicKeyFromCompressedBytes(self.NodePOP.PublicKey[:])
	require.NoError(t, err)
	blockchainID, err := ids.FromString(c.blockchainID)
	require.NoError(t, err)

	admin := l1Key(t, "admin")
	deploy := c.send(t, admin, nil, warpProxyCode(), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, deploy.Status)
	proxy := deploy.ContractAddress

	// The contract sends "hello warp": the event, the ID, the stored message.
	r := c.send(t, admin, &proxy, pack(t, precompile.WarpABI(), "sendWarpMessage", []byte("hello warp")), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Len(t, r.Logs, 2)
	sent := r.Logs[0]
	require.Equal(t, l1params.WarpAddress, sent.Address)
	call := &payload.AddressedCall{SourceAddress: proxy.Bytes(), Payload: []byte("hello warp")}
	want := warp.NewUnsignedMessage(12345, blockchainID, call.Bytes())
	id := want.ID()
	require.Equal(t, []common.Hash{precompile.SendWarpMessageTopic(), common.BytesToHash(proxy.Bytes()), common.Hash(id)}, sent.Topics)
	require.Equal(t, id[:], r.Logs[1].Data, "sendWarpMessage returned the message ID")

	var got hexutil.Bytes
	require.NoError(t, c.rc.CallContext(t.Context(), &got, "warp_getMessage", id.String()))
	require.Equal(t, want.Bytes(), []byte(got))

	// The node's signature verifies against its BLS key (info.getNodeID).
	var sigBytes hexutil.Bytes
	require.NoError(t, c.rc.CallContext(t.Context(), &sigBytes, "warp_getMessageSignature", id.String()))
	sig, err := bls.SignatureFromBytes(sigBytes)
	require.NoError(t, err)
	require.True(t, bls.Verify(nodeKey, sig, want.Bytes()))

	// The aggregate: this node alone, bitset 0x01, verifies against the L1's set at 67 %.
	var signed hexutil.Bytes
	require.NoError(t, c.rc.CallContext(t.Context(), &signed, "warp_getMessageAggregateSignature", id.String(), 67, ""))
	msg, err := warp.ParseMessage(signed)
	require.NoError(t, err)
	require.Equal(t, []byte{1}, msg.Signature.Signers)
	require.Equal(t, sig.Compress(), msg.Signature.Signature[:])
	set, err := warp.NewCanonicalSet([]warp.Validator{{NodeID: self.NodeID, Weight: 100, PublicKey: &self.NodePOP.PublicKey}})
	require.NoError(t, err)
	require.NoError(t, msg.Signature.Verify(&msg.UnsignedMessage, 12345, set, 67, 100))

	// Block signatures: of the Hash payload of an accepted block.
	blockID := ids.ID(r.BlockHash)
	require.NoError(t, c.rc.CallContext(t.Context(), &sigBytes, "warp_getBlockSignature", blockID.String()))
	sig, err = bls.SignatureFromBytes(sigBytes)
	require.NoError(t, err)
	blockMsg := warp.NewUnsignedMessage(12345, blockchainID, (&payload.Hash{Hash: blockID}).Bytes())
	require.True(t, bls.Verify(nodeKey, sig, blockMsg.Bytes()))
	require.NoError(t, c.rc.CallContext(t.Context(), &signed, "warp_getBlockAggregateSignature", blockID.String(), 67, ""))
	blockSigned := append([]byte{}, signed...)
	msg, err = warp.ParseMessage(blockSigned)
	require.NoError(t, err)
	require.Equal(t, blockMsg.Bytes(), msg.UnsignedMessage.Bytes())

	// Unknown IDs, with the reference's texts (l1-evm.md §5.7).
	unknown := ids.ID{1}
	require.Equal(t, rawError(-32000, "failed to get message "+unknown.String()+" with error not found"),
		c.raw(t, "warp_getMessage", `["`+unknown.String()+`"]`))
	require.Equal(t, rawError(-32000, "failed to get message "+unknown.String()+" with error not found"),
		c.raw(t, "warp_getMessageSignature", `["`+unknown.String()+`"]`))
	require.Equal(t, rawError(-32000, "failed to get signature for block "+unknown.String()+" with error failed to validate block message: 2: failed to get block "+unknown.String()+": not found"),
		c.raw(t, "warp_getBlockSignature", `["`+unknown.String()+`"]`))
	require.Equal(t, rawResult(`"0x"`), c.raw(t, "warp_getBlockAggregateSignature", `["`+unknown.String()+`",67,""]`))
	require.Equal(t, rawError(-32000, `failed to parse subnetID: "xyz"`),
		c.raw(t, "warp_getMessageAggregateSignature", `["`+id.String()+`",67,"xyz"]`))
	require.Equal(t, rawError(-32602, "missing value for required argument 2"),
		c.raw(t, "warp_getMessageAggregateSignature", `["`+id.String()+`",67]`))

	// A second transaction carries the signed message as its predicate and reads it back.
	require.NoError(t, c.rc.CallContext(t.Context(), &signed, "warp_getMessageAggregateSignature", id.String(), 67, ""))
	getMsg := pack(t, precompile.WarpABI(), "getVerifiedWarpMessage", uint32(0))
	r = c.sendWithPredicates(t, admin, &proxy, getMsg, signed)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	vals, err := precompile.WarpABI().Methods["getVerifiedWarpMessage"].Outputs.Unpack(r.Logs[0].Data)
	require.NoError(t, err)
	require.Equal(t, true, vals[1])
	got3 := vals[0].(struct {
		SourceChainID       [32]uint8      `json:"sourceChainID"`
		OriginSenderAddress common.Address `json:"originSenderAddress"`
		Payload             []uint8        `json:"payload"`
	})
	require.Equal(t, [32]byte(blockchainID), got3.SourceChainID)
	require.Equal(t, proxy, got3.OriginSenderAddress)
	require.Equal(t, []byte("hello warp"), got3.Payload)
	// The block records the results after the fee window: this transaction, nothing failed.
	h := c.header(t, r.BlockNumber)
	require.Equal(t, "0000"+"00000001"+r.TxHash.Hex()[2:]+"00000001"+hexutil.Encode(l1params.WarpAddress[:])[2:]+"00000000",
		hexutil.Encode(h.Extra[80:])[2:])

	// The signed block hash, read with getVerifiedWarpBlockHash.
	r = c.sendWithPredicates(t, admin, &proxy, pack(t, precompile.WarpABI(), "getVerifiedWarpBlockHash", uint32(0)), blockSigned)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	vals, err = precompile.WarpABI().Methods["getVerifiedWarpBlockHash"].Outputs.Unpack(r.Logs[0].Data)
	require.NoError(t, err)
	require.Equal(t, true, vals[1])
	gotHash := vals[0].(struct {
		SourceChainID [32]uint8 `json:"sourceChainID"`
		BlockHash     [32]uint8 `json:"blockHash"`
	})
	require.Equal(t, [32]byte(blockID), gotHash.BlockHash)

	// A predicate with a bad signature (another message's) and one from an unknown chain
	// are carried but not valid: "not valid" at the base gas, the block records both.
	bad, err := warp.ParseMessage(signed)
	require.NoError(t, err)
	bad.Signature.Signature = msg.Signature.Signature // the block hash's signature
	unknownChain := *bad
	unknownChain.SourceChainID = ids.ID{9}
	r = c.sendWithPredicates(t, admin, &proxy, getMsg, bad.Bytes(), unknownChain.Bytes())
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	vals, err = precompile.WarpABI().Methods["getVerifiedWarpMessage"].Outputs.Unpack(r.Logs[0].Data)
	require.NoError(t, err)
	require.Equal(t, false, vals[1])
	h = c.header(t, r.BlockNumber)
	require.Equal(t, "03", hexutil.Encode(h.Extra[len(h.Extra)-1:])[2:], "both predicates failed")

	// A predicate that is not a warp message makes the transaction invalid: refused at once.
	tx, err := types.SignNewTx(admin, types.LatestSignerForChainID(c.chainID), &types.DynamicFeeTx{
		ChainID: c.chainID, Nonce: c.nonce(t, admin), GasTipCap: big.NewInt(l1GasTip), GasFeeCap: big.NewInt(l1GasFeeCap),
		Gas: 1_000_000, To: &proxy, Data: getMsg,
		AccessList: types.AccessList{{Address: l1params.WarpAddress, StorageKeys: precompile.PackPredicate([]byte("junk"))}},
	})
	require.NoError(t, err)
	requireRPCError(t, c.eth.SendTransaction(t.Context(), tx), -32000, "parse warp message: codec: unknown codec version 27253")

	// The node restarts: blocks with predicates are read back, messages still signed.
	n.restart()
	require.NoError(t, c.rc.CallContext(t.Context(), &sigBytes, "warp_getMessageSignature", id.String()))

}

// sendWithPredicates sends a transaction from key to to with data, carrying each of msgs as a
// warp predicate, and waits for its receipt.
func (c *l1Chain) sendWithPredicates(t *testing.T, key *ecdsa.PrivateKey, to *common.Address, data []byte, msgs ...[]byte) *types.Receipt {
	t.Helper()
	var list types.AccessList
	for _, m := range msgs {
		list = append(list, types.AccessTuple{Address: l1params.WarpAddress, StorageKeys: precompile.PackPredicate(m)})
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.chainID), &types.DynamicFeeTx{
		ChainID: c.chainID, Nonce: c.nonce(t, key), GasTipCap: big.NewInt(l1GasTip), GasFeeCap: big.NewInt(l1GasFeeCap),
		Gas: 1_000_000, To: to, Data: data, AccessList: list,
	})
	require.NoError(t, err)
	require.NoError(t, c.eth.SendTransaction(t.Context(), tx))
	return c.receipt(t, tx.Hash())
}
