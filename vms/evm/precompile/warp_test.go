package precompile

import (
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// signedVector is codec-vectors-2.json's warp_signed_message_bitset_signer1_signer3: an
// AddressedCall from 0x8db9…52fc carrying "hello warp".
const signedVector = "0000000030399646cefa18797b5f20a56b3adeff8c0cffe01b35bd59fb9ea81a91cb0b021f490000002c000000000001000000148db97c7cece249c2b98bdc0226cc4c2a57bf52fc0000000a68656c6c6f2077617270000000000000000114826572e197331b4a43b8900b6dac377e8c5b0d4a5513b1c5e0e2dd0014d58120c8c6e75a99d7c27b73d00878d30588ea02276c23e689d634beaebc43add05471a6884e6b31c872bbc08c3f86510c4ae5fa5eb6e4a1d24162d16c83c2c410a1dd"

func TestWarpGas(t *testing.T) {
	t.Parallel()
	for _, granite := range []bool{false, true} {
		h := newHarness(t, Rules{IsDurango: true, IsGranite: granite}, allConfigs()[5])
		ret, used, err := h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "getBlockchainID"), 10_000)
		require.NoError(t, err)
		require.Equal(t, h.env.BlockchainID.Bytes(), ret)
		wantGas, verifiedGas := uint64(2), uint64(2)
		if granite {
			wantGas, verifiedGas = 200, 750
		}
		require.Equal(t, wantGas, used)

		// No predicate at index 0: "not valid" for the base gas.
		for _, fn := range []string{"getVerifiedWarpMessage", "getVerifiedWarpBlockHash"} {
			ret, used, err = h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), fn, uint32(0)), 10_000)
			require.NoError(t, err)
			require.Equal(t, verifiedGas, used)
			vals, err := WarpABI().Methods[fn].Outputs.Unpack(ret)
			require.NoError(t, err)
			require.Equal(t, false, vals[1])
		}
	}
}

// TestSendWarpMessage: the message ID returned, the event and its gas (l1-evm.md §5.7).
func TestSendWarpMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true, IsGranite: true}, allConfigs()[5])
	h.env.NetworkID = 12345
	h.reset()
	input := pack(t, WarpABI(), "sendWarpMessage", []byte("hello warp"))
	ret, used, err := h.call(nobody, l1params.WarpAddress, input, 100_000)
	require.NoError(t, err)
	require.EqualValues(t, 41_500+8*(len(input)-4), used)

	call := &payload.AddressedCall{SourceAddress: nobody.Bytes(), Payload: []byte("hello warp")}
	want := warp.NewUnsignedMessage(12345, ids.ID(h.env.BlockchainID), call.Bytes())
	id := want.ID()
	require.Equal(t, id[:], ret)

	logs := h.state.Logs()
	require.Len(t, logs, 1)
	require.Equal(t, l1params.WarpAddress, logs[0].Address)
	require.Equal(t, []common.Hash{SendWarpMessageTopic(), common.BytesToHash(nobody.Bytes()), common.Hash(id)}, logs[0].Topics)
	got, err := SentWarpMessage(logs[0].Data)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// Read-only: refused after the gas is charged; out of gas: all of it.
	_, _, err = h.call(nobody, l1params.WarpAddress, input, 41_000)
	require.ErrorIs(t, err, vm.ErrOutOfGas)
}

// TestGetVerifiedWarpMessage reads a verified predicate, charging its chunks, and refuses
// what is not one.
func TestGetVerifiedWarpMessage(t *testing.T) {
	t.Parallel()
	msgBytes, err := hex.DecodeString(signedVector)
	require.NoError(t, err)
	keys := PackPredicate(msgBytes)
	back, err := UnpackPredicate(keys)
	require.NoError(t, err)
	require.Equal(t, msgBytes, back)

	for _, granite := range []bool{false, true} {
		h := newHarness(t, Rules{IsDurango: true, IsGranite: granite}, allConfigs()[5])
		base, chunk := uint64(2), uint64(3_200)
		if granite {
			base, chunk = 750, 512
		}
		h.rt.SetWarpPredicates([]WarpPredicate{{Keys: keys, Valid: true}, {Keys: keys}})
		ret, used, err := h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "getVerifiedWarpMessage", uint32(0)), 100_000)
		require.NoError(t, err)
		require.Equal(t, base+chunk*uint64(len(keys)), used)
		vals, err := WarpABI().Methods["getVerifiedWarpMessage"].Outputs.Unpack(ret)
		require.NoError(t, err)
		require.Equal(t, true, vals[1])
		msg := vals[0].(struct {
			SourceChainID       [32]uint8      `json:"sourceChainID"`
			OriginSenderAddress common.Address `json:"originSenderAddress"`
			Payload             []uint8        `json:"payload"`
		})
		require.Equal(t, common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"), msg.OriginSenderAddress)
		require.Equal(t, []byte("hello warp"), msg.Payload)
		require.Equal(t, "29BccK422X7XM3LKKsWtBzdxoEu6dUWT6fB2ug8tN4Fx9p7AnC", ids.ID(msg.SourceChainID).String())

		// Index 1 failed verification, index 2 does not exist: not valid, base gas.
		for _, i := range []uint32{1, 2} {
			ret, used, err = h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "getVerifiedWarpMessage", i), 100_000)
			require.NoError(t, err)
			require.Equal(t, base, used)
			vals, err = WarpABI().Methods["getVerifiedWarpMessage"].Outputs.Unpack(ret)
			require.NoError(t, err)
			require.Equal(t, false, vals[1])
		}
		// An AddressedCall read as a block hash is an error, all gas consumed.
		_, used, err = h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "getVerifiedWarpBlockHash", uint32(0)), 100_000)
		require.ErrorIs(t, err, ErrInvalidBlockHashPayload)
		require.EqualValues(t, 100_000, used)
	}
}

// TestGetVerifiedWarpBlockHash reads a Hash predicate.
func TestGetVerifiedWarpBlockHash(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Rules{IsDurango: true, IsGranite: true}, allConfigs()[5])
	hash := ids.ID{7}
	m := warp.Message{UnsignedMessage: *warp.NewUnsignedMessage(1, ids.ID{9}, (&payload.Hash{Hash: hash}).Bytes())}
	h.rt.SetWarpPredicates([]WarpPredicate{{Keys: PackPredicate(m.Bytes()), Valid: true}})
	ret, _, err := h.call(nobody, l1params.WarpAddress, pack(t, WarpABI(), "getVerifiedWarpBlockHash", uint32(0)), 100_000)
	require.NoError(t, err)
	vals, err := WarpABI().Methods["getVerifiedWarpBlockHash"].Outputs.Unpack(ret)
	require.NoError(t, err)
	require.Equal(t, true, vals[1])
	got := vals[0].(struct {
		SourceChainID [32]uint8 `json:"sourceChainID"`
		BlockHash     [32]uint8 `json:"blockHash"`
	})
	require.Equal(t, [32]byte(hash), got.BlockHash)
	require.Equal(t, [32]byte(ids.ID{9}), got.SourceChainID)
}

// TestUnpackPredicateErrors refuses malformed predicates with the reference's texts.
func TestUnpackPredicateErrors(t *testing.T) {
	t.Parallel()
	_, err := UnpackPredicate(nil)
	require.ErrorIs(t, err, ErrPredicateAllZero)
	_, err = UnpackPredicate([]common.Hash{{}})
	require.ErrorIs(t, err, ErrPredicateAllZero)
	_, err = UnpackPredicate([]common.Hash{{0: 1, 1: 0xff}, {}})
	require.ErrorIs(t, err, ErrPredicateInvalidPadding)
	_, err = UnpackPredicate([]common.Hash{{0: 1}})
	require.ErrorIs(t, err, ErrPredicateInvalidDelimiter)
	b, err := UnpackPredicate([]common.Hash{{31: 0xff}})
	require.NoError(t, err)
	require.Len(t, b, 31)
}

// FuzzUnpackPredicate: never panics; what unpacks packs back to the same keys.
func FuzzUnpackPredicate(f *testing.F) {
	b, _ := hex.DecodeString(signedVector)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		keys := make([]common.Hash, (len(b)+31)/32)
		for i := range keys {
			copy(keys[i][:], b[i*32:])
		}
		if got, err := UnpackPredicate(keys); err == nil {
			require.Equal(t, keys, PackPredicate(got))
		}
	})
}
