package txs

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// secondFile is the part of the second vector file (staking, subnet and reward vectors) these
// tests read: the vectors undecoded, so that the reference's JSON keeps its key order.
type secondFile struct {
	Vectors []map[string]json.RawMessage `json:"vectors"`
}

// decoded returns vec's values decoded, for the vectortest readers.
func decoded(tb testing.TB, vec map[string]json.RawMessage) map[string]any {
	tb.Helper()
	out := make(map[string]any, len(vec))
	for k, raw := range vec {
		var v any
		require.NoError(tb, json.Unmarshal(raw, &v))
		out[k] = v
	}
	return out
}

// inner returns the value of key in a reply the file holds with sorted keys, compact, its own
// keys in the reference's order.
func inner(tb testing.TB, reply json.RawMessage, key string) string {
	tb.Helper()
	var m map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal(reply, &m))
	return vectortest.Compact(tb, m[key])
}

// TestStakingTxVectors parses each staking and legacy subnet vector of the second file, checks
// its bytes and IDs, encodes it again, renders it as platform.getTx does with the json encoding,
// and computes its complexity (§4.8) as the reference does.
func TestStakingTxVectors(t *testing.T) {
	t.Parallel()
	f := vectortest.Load2[secondFile](t)
	for _, name := range []string{
		"p_add_permissionless_validator_tx", "p_add_permissionless_delegator_tx", "p_create_subnet_tx_2",
		"p_add_subnet_validator_tx", "p_remove_subnet_validator_tx", "p_transfer_subnet_ownership_tx",
		"p_reward_validator_tx",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw := vectortest.RawVector(t, f.Vectors, name)
			vec := decoded(t, raw)
			tx := vectortest.CheckTxVector(t, vec, ParseTx)
			typeID := uint32(num(t, vec, "unsignedTxTypeID"))
			got, ok := unsignedTxs.ID(tx.Unsigned())
			require.True(t, ok)
			require.Equal(t, typeID, got)
			require.Equal(t, kindByTypeID[typeID], reflectType(tx.Unsigned()))

			again, err := NewTx(tx.Unsigned(), tx.Creds())
			require.NoError(t, err)
			require.Equal(t, tx.Bytes(), again.Bytes())

			form, err := TxJSON(tx, "local")
			require.NoError(t, err)
			require.Equal(t, inner(t, raw["platform.getTx(json)"], "tx"), string(form))

			if fee, ok := vec["dynamicFee"].(map[string]any); ok {
				var want Dimensions
				for i, d := range fee["complexity[bandwidth,dbRead,dbWrite,compute]"].([]any) {
					want[i] = uint64(d.(float64))
				}
				require.Equal(t, want, Complexity(tx))
				require.Equal(t, num(t, fee, "gas"), LocalFeeConfig.Weights.Gas(Complexity(tx)))
			}
		})
	}
}

// TestProposalBlockVector checks the proposal block with a RewardValidatorTx byte for byte, its
// ID, its JSON form and building it again (§4.1).
func TestProposalBlockVector(t *testing.T) {
	t.Parallel()
	f := vectortest.Load2[secondFile](t)
	raw := vectortest.RawVector(t, f.Vectors, "p_banff_proposal_block_with_reward_validator_tx")
	vec := decoded(t, raw)
	b := unhex(t, str(t, vec, "bytesHex"))
	blk, err := ParseBlock(b)
	require.NoError(t, err)
	pb, ok := blk.(*ProposalBlock)
	require.True(t, ok)
	require.Equal(t, b, pb.Bytes())
	require.Equal(t, cb58(t, str(t, vec, "blockID")), pb.ID())
	in := vec["inputs"].(map[string]any)
	require.Equal(t, num(t, in, "height"), pb.Height())
	require.Equal(t, num(t, in, "time"), pb.Time())
	require.Empty(t, pb.Decisions())
	rv, ok := pb.Tx().Unsigned().(*RewardValidatorTx)
	require.True(t, ok)
	require.Equal(t, "2eqUx3GjoQYqpjJbVvxwSUEZsETqB9RrPAKiCK5D8EsE6XURFz", rv.TxID.String())
	require.Equal(t, []*Tx{pb.Tx()}, pb.Txs())

	again, err := NewProposalBlock(pb.Parent(), pb.Height(), pb.Time(), nil, pb.Tx())
	require.NoError(t, err)
	require.Equal(t, b, again.Bytes())

	form, err := BlockJSON(pb, "local")
	require.NoError(t, err)
	require.Equal(t, inner(t, raw["platform.getBlock(json)"], "block"), string(form))

	_, err = NewProposalBlock(pb.Parent(), 1, 1, nil, nil)
	require.Error(t, err)
	_, err = ParseBlock(b[:len(b)-1])
	require.Error(t, err)
}
