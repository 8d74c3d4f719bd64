package txs

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

func TestStandardBlockVector(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	vec := v.Vectors.Named(t, "p_banff_standard_block_with_base_tx")
	in := vec["inputs"].(map[string]any)
	raw := unhex(t, str(t, vec, "bytesHex"))

	blk, err := ParseBlock(raw)
	require.NoError(t, err)
	require.Equal(t, raw, blk.Bytes())
	require.Equal(t, cb58(t, str(t, vec, "blockID")), blk.ID())
	require.Equal(t, ids.ID(sha256.Sum256(raw)), blk.ID())
	require.Equal(t, cb58(t, str(t, in, "parentID")), blk.Parent())
	require.Equal(t, num(t, in, "height"), blk.Height())
	sb, ok := blk.(*StandardBlock)
	require.True(t, ok)
	require.Equal(t, num(t, in, "time"), sb.Time())

	// The block's tx is the BaseTx vector, with its version restored and the same ID.
	require.Len(t, blk.Txs(), 1)
	tx := blk.Txs()[0]
	base := v.Vectors.Named(t, "p_base_tx_transfer_avax")
	require.Equal(t, cb58(t, in["txs"].([]any)[0].(string)), tx.ID())
	require.Equal(t, unhex(t, str(t, base, "signedBytesHex")), tx.Bytes())
	require.Equal(t, unhex(t, str(t, base, "unsignedBytesHex")), tx.UnsignedBytes())

	// Building the block again from its parts gives the same bytes.
	again, err := NewStandardBlock(blk.Parent(), blk.Height(), sb.Time(), blk.Txs())
	require.NoError(t, err)
	require.Equal(t, raw, again.Bytes())
	require.Equal(t, blk.ID(), again.ID())
}

func TestOptionBlockVectors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	vec := v.Vectors.Named(t, "p_banff_commit_and_abort_blocks")
	in := vec["inputs"].(map[string]any)
	parent, height, time := cb58(t, str(t, in, "parentID")), num(t, in, "height"), num(t, in, "time")
	tests := []struct {
		name  string
		key   string
		built Block
	}{
		{"commit", "commit", NewCommitBlock(parent, height, time)},
		{"abort", "abort", NewAbortBlock(parent, height, time)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw := unhex(t, str(t, vec, tt.key+"BytesHex"))
			id := cb58(t, str(t, vec, tt.key+"BlockID"))
			require.Equal(t, raw, tt.built.Bytes())
			require.Equal(t, id, tt.built.ID())

			blk, err := ParseBlock(raw)
			require.NoError(t, err)
			require.IsType(t, tt.built, blk)
			require.Equal(t, tt.built, blk)
			require.Nil(t, blk.Txs())
			require.Equal(t, time, blk.(interface{ Time() uint64 }).Time())
		})
	}
}

func TestGenesisBlockVector(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	want := v.LocalNetwork.PGenesisBlock
	genesis := unhex(t, v.LocalNetwork.PGenesisBytesHex)

	blk := NewGenesisBlock(genesis)
	require.Equal(t, unhex(t, str(t, want, "bytesHex")), blk.Bytes())
	require.Equal(t, cb58(t, str(t, want, "blockID")), blk.ID())
	require.Equal(t, cb58(t, str(t, want, "parentID(sha256 of genesis bytes)")), blk.Parent())
	require.Zero(t, blk.Height())

	parsed, err := ParseBlock(blk.Bytes())
	require.NoError(t, err)
	require.Equal(t, Block(blk), parsed)
}

func TestNewStandardBlockErrors(t *testing.T) {
	t.Parallel()
	_, err := NewStandardBlock(ids.Empty, 1, 2, []*Tx{nil})
	require.ErrorIs(t, err, codec.ErrNilValue)

	empty, err := NewStandardBlock(ids.Empty, 1, 2, nil)
	require.NoError(t, err)
	parsed, err := ParseBlock(empty.Bytes())
	require.NoError(t, err)
	require.Empty(t, parsed.Txs())
	require.Equal(t, empty.ID(), parsed.ID())
}

func TestParseBlockErrors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	valid := unhex(t, str(t, v.Vectors.Named(t, "p_banff_standard_block_with_base_tx"), "bytesHex"))
	for n := range len(valid) {
		_, err := ParseBlock(valid[:n])
		require.ErrorIs(t, err, codec.ErrTruncated, "prefix of %d bytes", n)
	}
	with := func(off int, b ...byte) []byte {
		out := append([]byte(nil), valid...)
		copy(out[off:], b)
		return out
	}
	const txCountOff = 2 + 4 + 8 + 32 + 8
	vectortest.CheckDecodeErrors(t, []vectortest.DecodeError{
		{Name: "trailing byte", In: append(append([]byte(nil), valid...), 0), WantErr: codec.ErrTrailingBytes},
		{Name: "version 1", In: with(0, 0, 1), WantErr: codec.ErrUnknownVersion},
		{Name: "tx type as block", In: with(2, 0, 0, 0, 34), WantErr: codec.ErrUnknownTypeID},
		{Name: "apricot proposal block", In: with(2, 0, 0, 0, 0), WantErr: codec.ErrUnknownTypeID},
		{Name: "bad tx type", In: with(txCountOff+4, 0, 0, 0, 32), WantErr: codec.ErrUnknownTypeID},
		{Name: "tx count huge", In: with(txCountOff, 0x80, 0, 0, 0), WantErr: codec.ErrOversize},
		{Name: "tx count too big", In: with(txCountOff, 0, 1, 0, 0), WantErr: codec.ErrTruncated},
		{Name: "oversize", In: make([]byte, codec.MaxSize+1), WantErr: codec.ErrOversize},
	}, ParseBlock)
}

// FuzzParseBlock parses arbitrary bytes as a block: it never panics, and a block it accepts
// encodes back to the same bytes.
func FuzzParseBlock(f *testing.F) {
	v := loadVectors(f)
	f.Add(unhex(f, str(f, v.Vectors.Named(f, "p_banff_standard_block_with_base_tx"), "bytesHex")))
	options := v.Vectors.Named(f, "p_banff_commit_and_abort_blocks")
	f.Add(unhex(f, str(f, options, "commitBytesHex")))
	f.Add(unhex(f, str(f, options, "abortBytesHex")))
	f.Add(unhex(f, str(f, v.LocalNetwork.PGenesisBlock, "bytesHex")))
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, err := ParseBlock(b)
		if err != nil {
			return
		}
		require.Equal(t, b, blk.Bytes())
		require.Equal(t, ids.ID(sha256.Sum256(b)), blk.ID())
		var again Block
		switch blk := blk.(type) {
		case *StandardBlock:
			again, err = NewStandardBlock(blk.Parent(), blk.Height(), blk.Time(), blk.Txs())
			require.NoError(t, err)
		case *CommitBlock:
			again = NewCommitBlock(blk.Parent(), blk.Height(), blk.Time())
		case *AbortBlock:
			again = NewAbortBlock(blk.Parent(), blk.Height(), blk.Time())
		case *ApricotCommitBlock:
			again = NewApricotCommitBlock(blk.Parent(), blk.Height())
		default:
			t.Fatalf("unexpected block type %T", blk)
		}
		require.Equal(t, b, again.Bytes())
		for _, tx := range blk.Txs() {
			txAgain, err := NewTx(tx.Unsigned(), tx.Creds())
			require.NoError(t, err)
			require.Equal(t, tx.Bytes(), txAgain.Bytes())
			require.Equal(t, tx.ID(), txAgain.ID())
		}
	})
}
