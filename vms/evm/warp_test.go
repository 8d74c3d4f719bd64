package evm_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// warpSubnet is the test L1's subnet.
var warpSubnet = ids.ID{'s', 'n'}

// fakeValidators is a warp.ValidatorState with one fixed set for every subnet and height.
type fakeValidators struct {
	set []warp.Validator
}

func (f fakeValidators) PChainHeight(context.Context) (uint64, error) { return 7, nil }
func (f fakeValidators) ValidatorsAt(context.Context, ids.ID, uint64) ([]warp.Validator, error) {
	return f.set, nil
}

func (f fakeValidators) SubnetOf(_ context.Context, chainID ids.ID) (ids.ID, error) {
	if chainID == l1Blockchain {
		return warpSubnet, nil
	}
	return ids.Empty, nil
}

// startWarpL1 starts the test L1 in dir as validated by key with weight, beside a keyless
// validator of weight other.
func startWarpL1(t testing.TB, dir string, key *bls.SecretKey, weight, other uint64) *l1Node {
	t.Helper()
	pk := [bls.PublicKeyLen]byte(key.PublicKey().Compress())
	set := []warp.Validator{{NodeID: ids.NodeID{1}, Weight: weight, PublicKey: &pk}}
	if other > 0 {
		set = append(set, warp.Validator{NodeID: ids.NodeID{2}, Weight: other})
	}
	n, err := startL1With(t, dir, nil, nil, nil, l1Clock(), func(c *chains.Context) {
		c.Chain.SubnetID = warpSubnet
		c.BLSKey = key
		c.WarpValidators = fakeValidators{set: set}
	})
	require.NoError(t, err)
	return n
}

// signedMessage returns "hello" from 0x…aa on the test L1, signed by key alone (bitset 0x01).
func signedMessage(t testing.TB, key *bls.SecretKey) []byte {
	t.Helper()
	call := &payload.AddressedCall{SourceAddress: common.HexToAddress("0xaa").Bytes(), Payload: []byte("hello")}
	u := warp.NewUnsignedMessage(l1NetworkID, l1Blockchain, call.Bytes())
	m, err := warp.Aggregate(u, map[int]*bls.Signature{0: key.Sign(u.Bytes())})
	require.NoError(t, err)
	return m.Bytes()
}

// sendPredicate sends a call of getVerifiedWarpMessage(0) straight to the precompile, carrying
// msg as its predicate.
func (n *l1Node) sendPredicate(t *testing.T, msg []byte) *types.Transaction {
	t.Helper()
	key := l1Key(t, "admin")
	nonce, err := n.client.PendingNonceAt(t.Context(), l1Addr(t, "admin"))
	require.NoError(t, err)
	to := l1params.WarpAddress
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(l1ChainID), &types.DynamicFeeTx{
		ChainID: l1ChainID, Nonce: nonce, GasTipCap: big.NewInt(params1Gwei), GasFeeCap: big.NewInt(1000 * params1Gwei),
		Gas: 500_000, To: &to, Data: pack(t, precompile.WarpABI(), "getVerifiedWarpMessage", uint32(0)),
		AccessList: types.AccessList{{Address: l1params.WarpAddress, StorageKeys: precompile.PackPredicate(msg)}},
	})
	require.NoError(t, n.client.SendTransaction(t.Context(), tx))
	return tx
}

// TestWarpPredicateGas checks the gas of a transaction with one predicate from Granite
// (l1-evm.md §5.7): intrinsic 21,000 + calldata + 125,000 + 512 per chunk + 250 per signer
// in place of the tuple's access-list cost, then getVerifiedWarpMessage's 750 + 512 per
// chunk; and that the sender paid exactly that gas at the block's price.
func TestWarpPredicateGas(t *testing.T) {
	t.Parallel()
	key, err := bls.NewSecretKey()
	require.NoError(t, err)
	n := startWarpL1(t, t.TempDir(), key, 100, 0)
	msg := signedMessage(t, key)
	chunks := uint64(len(precompile.PackPredicate(msg)))
	before, err := n.client.BalanceAt(t.Context(), l1Addr(t, "admin"), nil)
	require.NoError(t, err)
	tx := n.sendPredicate(t, msg)
	blk := n.build(t)
	r := n.receipt(t, tx)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	calldata := uint64(4*16 + 32*4)
	require.Equal(t, 21_000+calldata+125_000+512*chunks+250+750+512*chunks, r.GasUsed)
	require.Equal(t, r.GasUsed, blk.GasUsed())
	after, err := n.client.BalanceAt(t.Context(), l1Addr(t, "admin"), nil)
	require.NoError(t, err)
	paid := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
	require.Equal(t, paid, new(big.Int).Sub(before, after))

	// eth_sendRawTransaction counts the predicate gas, and refuses what is not a warp message.
	need := 21_000 + 4*16 + 32*4 + 125_000 + 512*chunks + 250
	key2 := l1Key(t, "admin")
	to := l1params.WarpAddress
	for _, c := range []struct {
		keys []common.Hash
		gas  uint64
		want string
	}{
		{precompile.PackPredicate(msg), need - 1, fmt.Sprintf("intrinsic gas too low: gas %d, minimum needed %d", need-1, need)},
		{precompile.PackPredicate([]byte("junk")), 500_000, "parse warp message: codec: unknown codec version 27253"},
		{[]common.Hash{{1}}, 500_000, "invalid end delimiter"},
	} {
		nonce, err := n.client.PendingNonceAt(t.Context(), l1Addr(t, "admin"))
		require.NoError(t, err)
		bad := types.MustSignNewTx(key2, types.LatestSignerForChainID(l1ChainID), &types.DynamicFeeTx{
			ChainID: l1ChainID, Nonce: nonce, GasTipCap: big.NewInt(params1Gwei), GasFeeCap: big.NewInt(1000 * params1Gwei),
			Gas: c.gas, To: &to, Data: tx.Data(), AccessList: types.AccessList{{Address: to, StorageKeys: c.keys}},
		})
		require.EqualError(t, n.client.SendTransaction(t.Context(), bad), c.want)
	}
}

// TestWarpPredicateQuorum: a message signed by 40 of 100 is carried but not valid at the
// genesis's quorum of 67.
func TestWarpPredicateQuorum(t *testing.T) {
	t.Parallel()
	key, err := bls.NewSecretKey()
	require.NoError(t, err)
	n := startWarpL1(t, t.TempDir(), key, 40, 60)
	tx := n.sendPredicate(t, signedMessage(t, key))
	blk := n.build(t)
	r := n.receipt(t, tx)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, "0x01", hexutil.Encode(blk.Extra()[len(blk.Extra())-1:]), "predicate 0 failed")
	// Not valid: the precompile charged its base gas only, no chunks.
	chunks := uint64(len(precompile.PackPredicate(signedMessage(t, key))))
	require.Equal(t, 21_000+4*16+32*4+125_000+512*chunks+250+750, r.GasUsed)
}

// TestWarpPredicateVerifyFromBytes: a second node verifies a block with predicates from its
// bytes, with the results the block records; the same block with other results is refused.
func TestWarpPredicateVerifyFromBytes(t *testing.T) {
	t.Parallel()
	key, err := bls.NewSecretKey()
	require.NoError(t, err)
	a := startWarpL1(t, t.TempDir(), key, 100, 0)
	b := startWarpL1(t, t.TempDir(), key, 100, 0)
	a.sendPredicate(t, signedMessage(t, key))
	blk := a.build(t)

	h := types.CopyHeader(blk.Header())
	h.Extra = append(h.Extra[:len(h.Extra)-4:len(h.Extra)-4], 0, 0, 0, 1, 1) // predicate 0 "failed"
	tampered := types.NewBlockWithHeader(h).WithBody(*blk.Body())

	for _, c := range []struct {
		blk *types.Block
		ok  bool
	}{{tampered, false}, {blk, true}} {
		bytes, err := rlp.EncodeToBytes(c.blk)
		require.NoError(t, err)
		parsed, err := b.vm.ParseBlock(t.Context(), bytes)
		require.NoError(t, err)
		err = parsed.Verify(t.Context())
		if c.ok {
			require.NoError(t, err)
		} else {
			require.Error(t, err)
		}
	}
}

// BenchmarkWarpSendToSigned measures sendWarpMessage → signed message available on one node:
// a transaction that sends a message is built into a block, verified and accepted, and the
// node's signature of the message is fetched over JSON-RPC (warp_getMessageSignature).
func BenchmarkWarpSendToSigned(b *testing.B) {
	key, err := bls.NewSecretKey()
	require.NoError(b, err)
	n := startWarpL1(b, b.TempDir(), key, 100, 0)
	admin := l1Key(b, "admin")
	to := l1params.WarpAddress
	nonce := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		data := pack(b, precompile.WarpABI(), "sendWarpMessage", binary.BigEndian.AppendUint64(nil, nonce))
		tx, err := n.sendNonce(b, admin, nonce, big.NewInt(params1Gwei), &to, nil, 100_000, data)
		require.NoError(b, err)
		nonce++
		n.clk.Advance(2 * time.Second) // a block every 2 s keeps the base fee at its minimum
		n.build(b)
		var id common.Hash
		copy(id[:], n.receipt(b, tx).Logs[0].Topics[2][:])
		var sig hexutil.Bytes
		require.NoError(b, n.rpc.Call(&sig, "warp_getMessageSignature", ids.ID(id).String()))
		require.Len(b, sig, bls.SignatureLen)
	}
}
