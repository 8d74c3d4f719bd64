package txs

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// rawPVector is a P vector whose getTx or getBlock reply is kept as the file's bytes: the
// reply's keys are sorted in the file, but the tx or block inside is as the reference sent it,
// so key order matters (platform-exchange.md §8).
type rawPVector struct {
	Name           string          `json:"name"`
	Chain          string          `json:"chain"`
	SignedBytesHex string          `json:"signedBytesHex"`
	BytesHex       string          `json:"bytesHex"`
	GetTx          json.RawMessage `json:"platform.getTx(json)"`
	GetBlock       json.RawMessage `json:"platform.getBlock(json)"`
}

// rawPVectors returns the P vectors of the project's vector file with their raw replies.
func rawPVectors(tb testing.TB) []rawPVector {
	tb.Helper()
	b, err := os.ReadFile(vectorsPath)
	require.NoError(tb, err)
	var file struct {
		Vectors []rawPVector `json:"vectors"`
	}
	require.NoError(tb, json.Unmarshal(b, &file))
	var out []rawPVector
	for _, v := range file.Vectors {
		if v.Chain == "P" {
			out = append(out, v)
		}
	}
	return out
}

// vectorTxJSON returns the tx inside a vector's getTx reply, compact.
func vectorTxJSON(tb testing.TB, v rawPVector) string {
	tb.Helper()
	var reply struct {
		Tx json.RawMessage `json:"tx"`
	}
	require.NoError(tb, json.Unmarshal(v.GetTx, &reply))
	return vectortest.Compact(tb, reply.Tx)
}

// txVectors returns the P vectors that have a signed tx and the reference's getTx json reply.
func txVectors(tb testing.TB) []rawPVector {
	tb.Helper()
	var out []rawPVector
	for _, v := range rawPVectors(tb) {
		if v.SignedBytesHex != "" && v.GetTx != nil {
			out = append(out, v)
		}
	}
	return out
}

// TestTxJSONVectors renders every P vector's tx as platform.getTx does with the json encoding
// and compares the reply byte for byte with the reference's (§5.0).
func TestTxJSONVectors(t *testing.T) {
	t.Parallel()
	vecs := txVectors(t)
	// Every kind the reference vectors hold: BaseTx, CreateSubnetTx, CreateChainTx, the five L1
	// txs and the genesis AddPermissionlessValidatorTx.
	kinds := make(map[string]bool)
	for _, v := range vecs {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			tx, err := ParseTx(unhex(t, v.SignedBytesHex))
			require.NoError(t, err)
			raw, err := TxJSON(tx, "local")
			require.NoError(t, err)
			reply, err := json.Marshal(&chainapi.GetTxReply{Tx: raw, Encoding: ids.JSON})
			require.NoError(t, err)
			require.Equal(t, `{"tx":`+vectorTxJSON(t, v)+`,"encoding":"json"}`, string(reply))
			require.Equal(t, vectortest.Compact(t, raw), string(raw))
		})
		tx, err := ParseTx(unhex(t, v.SignedBytesHex))
		require.NoError(t, err)
		kinds[strings.TrimPrefix(fmt.Sprintf("%T", tx.Unsigned()), "*txs.")] = true
	}
	for _, k := range []string{"BaseTx", "CreateSubnetTx", "CreateChainTx", "ConvertSubnetToL1Tx",
		"IncreaseL1ValidatorBalanceTx", "DisableL1ValidatorTx", "RegisterL1ValidatorTx",
		"SetL1ValidatorWeightTx", "AddPermissionlessValidatorTx"} {
		require.True(t, kinds[k], "no vector for %s", k)
	}
}

// TestBlockJSONVectors renders a standard block holding each vector's tx, then one holding them
// all, as platform.getBlock does with the json encoding: every tx is the reference's getTx form.
// The reference's own block vector is byte-identical too.
func TestBlockJSONVectors(t *testing.T) {
	t.Parallel()
	vecs := txVectors(t)
	parent := ids.ID{0xaa}
	header := func(blk Block, time uint64) string {
		return `{"time":` + strconv.FormatUint(time, 10) + `,"parentID":"` + blk.Parent().String() +
			`","height":` + strconv.FormatUint(blk.Height(), 10) + `,"id":"` + blk.ID().String() + `","txs":[`
	}
	var all []*Tx
	var allWant []string
	for _, v := range vecs {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			tx, err := ParseTx(unhex(t, v.SignedBytesHex))
			require.NoError(t, err)
			blk, err := NewStandardBlock(parent, 7, 1767225600, []*Tx{tx})
			require.NoError(t, err)
			raw, err := BlockJSON(blk, "local")
			require.NoError(t, err)
			reply, err := json.Marshal(&chainapi.GetBlockReply{Block: raw, Encoding: ids.JSON})
			require.NoError(t, err)
			require.Equal(t, `{"block":`+header(blk, 1767225600)+vectorTxJSON(t, v)+`]},"encoding":"json"}`, string(reply))
		})
		tx, err := ParseTx(unhex(t, v.SignedBytesHex))
		require.NoError(t, err)
		all = append(all, tx)
		allWant = append(allWant, vectorTxJSON(t, v))
	}

	blk, err := NewStandardBlock(parent, 8, 1767225601, all)
	require.NoError(t, err)
	// The block goes through its bytes, as the node reads it back from its store.
	parsed, err := ParseBlock(blk.Bytes())
	require.NoError(t, err)
	raw, err := BlockJSON(parsed, "local")
	require.NoError(t, err)
	require.Equal(t, header(blk, 1767225601)+strings.Join(allWant, ",")+`]}`, string(raw))

	for _, v := range rawPVectors(t) {
		if v.GetBlock == nil {
			continue
		}
		blk, err := ParseBlock(unhex(t, v.BytesHex))
		require.NoError(t, err)
		raw, err := BlockJSON(blk, "local")
		require.NoError(t, err)
		var reply struct {
			Block json.RawMessage `json:"block"`
		}
		require.NoError(t, json.Unmarshal(v.GetBlock, &reply))
		require.Equal(t, vectortest.Compact(t, reply.Block), string(raw), v.Name)
	}
}

// TestOptionBlockJSON renders the vectors' commit and abort blocks: the time, then the common
// fields, as the reference's Banff option blocks (§4.1).
func TestOptionBlockJSON(t *testing.T) {
	t.Parallel()
	vec := loadVectors(t).Vectors.Named(t, "p_banff_commit_and_abort_blocks")
	for _, key := range []string{"commitBytesHex", "abortBytesHex"} {
		blk, err := ParseBlock(unhex(t, str(t, vec, key)))
		require.NoError(t, err)
		raw, err := BlockJSON(blk, "local")
		require.NoError(t, err)
		require.Equal(t, `{"time":1767225600,"parentID":"fCZcsxxYJaDMn6E1E9jZ6DzPVUD6EKjCTqokzdhUxhiVWfGXk","height":2,"id":"`+
			blk.ID().String()+`"}`, string(raw), key)
	}
}

// TestTxJSONForms covers what the vectors do not: locked outputs and inputs, the empty signer,
// AddSubnetValidatorTx, and empty lists, which print [] as the reference's re-parsed txs do.
func TestTxJSONForms(t *testing.T) {
	t.Parallel()
	avax := ids.ID{0x21}
	addr := ids.ShortID{0x3c}
	tests := []struct {
		name     string
		unsigned UnsignedTx
		creds    []secp256k1fx.Credential
		want     string
	}{
		{
			name:     "empty BaseTx",
			unsigned: &BaseTx{NetworkID: 12345},
			want: `{"unsignedTx":{"networkID":12345,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],"memo":"0x"},` +
				`"credentials":[],"id":"ID"}`,
		},
		{
			name: "locked output and input",
			unsigned: &BaseTx{NetworkID: 12345,
				Outs: []TransferableOutput{{AssetID: avax, Out: &LockOut{Locktime: 9, Out: &secp256k1fx.TransferOutput{Amount: 5,
					OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{addr}}}}}},
				Ins: []TransferableInput{{UTXOID: utxo.UTXOID{TxID: ids.ID{1}, OutputIndex: 2}, AssetID: avax,
					In: &LockIn{Locktime: 9, In: &secp256k1fx.TransferInput{Amount: 6}}}},
			},
			creds: []secp256k1fx.Credential{{}},
			want: `{"unsignedTx":{"networkID":12345,"blockchainID":"11111111111111111111111111111111LpoYY",` +
				`"outputs":[{"assetID":"` + avax.String() + `","fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",` +
				`"output":{"locktime":9,"output":{"addresses":["ADDR"],"amount":5,"locktime":0,"threshold":1}}}],` +
				`"inputs":[{"txID":"` + ids.ID{1}.String() + `","outputIndex":2,"assetID":"` + avax.String() + `",` +
				`"fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","input":{"locktime":9,"input":{"amount":6,"signatureIndices":[]}}}],` +
				`"memo":"0x"},"credentials":[{"signatures":[]}],"id":"ID"}`,
		},
		{
			name: "AddSubnetValidatorTx",
			unsigned: &AddSubnetValidatorTx{BaseTx: BaseTx{NetworkID: 1},
				Validator: Validator{NodeID: ids.NodeID{7}, Start: 1, End: 2, Weight: 3}, SubnetID: ids.ID{5},
				SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0}}},
			want: `{"unsignedTx":{"networkID":1,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],"memo":"0x",` +
				`"validator":{"nodeID":"` + ids.NodeID{7}.String() + `","start":1,"end":2,"weight":3,"subnetID":"` + ids.ID{5}.String() + `"},` +
				`"subnetAuthorization":{"signatureIndices":[0]}},"credentials":[],"id":"ID"}`,
		},
		{
			name: "empty signer",
			unsigned: &AddPermissionlessValidatorTx{BaseTx: BaseTx{NetworkID: 1}, Validator: Validator{NodeID: ids.NodeID{7}},
				Signer: &EmptySigner{}, DelegationShares: 3},
			want: `{"unsignedTx":{"networkID":1,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],"memo":"0x",` +
				`"validator":{"nodeID":"` + ids.NodeID{7}.String() + `","start":0,"end":0,"weight":0},` +
				`"subnetID":"11111111111111111111111111111111LpoYY","signer":{},"stake":[],` +
				`"validationRewardsOwner":{"addresses":[],"locktime":0,"threshold":0},` +
				`"delegationRewardsOwner":{"addresses":[],"locktime":0,"threshold":0},"shares":3},"credentials":[],"id":"ID"}`,
		},
		{
			name: "convert with empty owners and address",
			unsigned: &ConvertSubnetToL1Tx{BaseTx: BaseTx{NetworkID: 1}, SubnetID: ids.ID{5}, ChainID: ids.ID{6},
				Validators: []ConvertSubnetToL1Validator{{NodeID: []byte{0xab}, Weight: 1}}},
			want: `{"unsignedTx":{"networkID":1,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],"memo":"0x",` +
				`"subnetID":"` + ids.ID{5}.String() + `","chainID":"` + ids.ID{6}.String() + `","address":"0x",` +
				`"validators":[{"nodeID":"0xab","weight":1,"balance":0,"signer":{"publicKey":"0x` + strings.Repeat("00", BLSPublicKeyLen) +
				`","proofOfPossession":"0x` + strings.Repeat("00", BLSSignatureLen) + `"},` +
				`"remainingBalanceOwner":{"threshold":0,"addresses":[]},"deactivationOwner":{"threshold":0,"addresses":[]}}],` +
				`"subnetAuthorization":{"signatureIndices":[]}},"credentials":[],"id":"ID"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tx, err := NewTx(tt.unsigned, tt.creds)
			require.NoError(t, err)
			// Through the bytes, as the node reads txs back from its store.
			tx, err = ParseTx(tx.Bytes())
			require.NoError(t, err)
			raw, err := TxJSON(tx, "local")
			require.NoError(t, err)
			addrP, err := jsonFormatter{hrp: "local"}.addresses([]ids.ShortID{addr})
			require.NoError(t, err)
			want := strings.ReplaceAll(strings.ReplaceAll(tt.want, `"ID"`, `"`+tx.ID().String()+`"`), "ADDR", addrP[0])
			require.Equal(t, want, string(raw))
		})
	}
}

// FuzzTxJSON parses arbitrary bytes as a signed tx: every tx that parses has a JSON form, which
// is valid JSON carrying the tx's ID.
func FuzzTxJSON(f *testing.F) {
	for _, v := range txVectors(f) {
		f.Add(unhex(f, v.SignedBytesHex))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := ParseTx(b)
		if err != nil {
			return
		}
		raw, err := TxJSON(tx, "local")
		require.NoError(t, err)
		var got struct {
			ID ids.ID `json:"id"`
		}
		require.NoError(t, json.Unmarshal(raw, &got))
		require.Equal(t, tx.ID(), got.ID)
	})
}
