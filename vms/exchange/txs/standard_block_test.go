package txs

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
)

// TestBlockVectors parses every X-Chain block vector and rebuilds it from its fields
// (platform-exchange.md §8.4, §8.7).
func TestBlockVectors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	vecs := v.xBlockVectors()
	require.Len(t, vecs, 1)
	for _, vec := range vecs {
		t.Run(str(t, vec, "name"), func(t *testing.T) {
			t.Parallel()
			raw := unhex(t, str(t, vec, "bytesHex"))
			blk, err := ParseBlock(raw)
			require.NoError(t, err)
			require.Equal(t, raw, blk.Bytes())
			require.Equal(t, cb58(t, str(t, vec, "blockID")), blk.ID())

			in := vec["inputs"].(map[string]any)
			require.Equal(t, cb58(t, str(t, in, "parentID")), blk.Parent())
			require.Equal(t, num(t, in, "height"), blk.Height())
			require.Equal(t, num(t, in, "time"), blk.Time())
			require.Equal(t, cb58(t, str(t, in, "merkleRoot")), blk.MerkleRoot())
			txIDs := in["txs"].([]any)
			require.Len(t, blk.Txs(), len(txIDs))
			for i, id := range txIDs {
				require.Equal(t, cb58(t, id.(string)), blk.Txs()[i].ID())
			}
			// A tx read from a block is the tx as issued: with its version, same ID.
			base := v.Vectors.Named(t, "x_base_tx_transfer_avax")
			require.Equal(t, unhex(t, str(t, base, "signedBytesHex")), blk.Txs()[0].Bytes())
			require.Equal(t, unhex(t, str(t, base, "unsignedBytesHex")), blk.Txs()[0].UnsignedBytes())

			again, err := NewStandardBlock(blk.Parent(), blk.Height(), blk.Time(), blk.Txs())
			require.NoError(t, err)
			require.Equal(t, raw, again.Bytes())
			require.Equal(t, blk.ID(), again.ID())
		})
	}
}

// TestGenesisBlock derives the local X-Chain's genesis block from the chain ID (§6.1, §7.7).
func TestGenesisBlock(t *testing.T) {
	t.Parallel()
	ln := &loadVectors(t).LocalNetwork
	xChainID := cb58(t, ln.XChainID)

	stop := EmptyStopVertexID(xChainID)
	require.Equal(t, cb58(t, str(t, ln.XStopVertex, "id")), stop)
	require.Equal(t, "3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY", stop.String())

	const cortina = 1607144400 // 2020-12-05T05:00:00Z, upgrade.InitiallyActiveTime on local
	blk := NewGenesisBlock(stop, cortina)
	require.Equal(t, unhex(t, str(t, ln.XGenesisBlock, "bytesHex")), blk.Bytes())
	require.Equal(t, "2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst", blk.ID().String())
	require.Equal(t, cb58(t, str(t, ln.XGenesisBlock, "blockID")), blk.ID())
	require.Zero(t, blk.Height())
	require.Empty(t, blk.Txs())

	parsed, err := ParseBlock(blk.Bytes())
	require.NoError(t, err)
	require.Equal(t, blk.ID(), parsed.ID())
	require.Equal(t, stop, parsed.Parent())
	require.Equal(t, uint64(cortina), parsed.Time())
}

func TestBlockErrors(t *testing.T) {
	t.Parallel()
	raw := unhex(t, str(t, loadVectors(t).Vectors.Named(t, "x_standard_block_with_base_tx"), "bytesHex"))
	patched := append([]byte(nil), raw...)
	binary.BigEndian.PutUint32(patched[2:], 32) // the P-Chain's standard block
	vectortest.CheckDecodeErrors(t, []vectortest.DecodeError{
		{Name: "empty", In: nil, WantErr: codec.ErrTruncated},
		{Name: "header only", In: raw[:2+4+blockHeaderSize], WantErr: codec.ErrTruncated},
		{Name: "one byte short", In: raw[:len(raw)-1], WantErr: codec.ErrTruncated},
		{Name: "trailing byte", In: append(append([]byte(nil), raw...), 0), WantErr: codec.ErrTrailingBytes},
		{Name: "other block type", In: patched, WantErr: codec.ErrUnknownTypeID},
		{Name: "oversize", In: make([]byte, codec.MaxSize+1), WantErr: codec.ErrOversize},
	}, ParseBlock)
	_, err := NewStandardBlock(ids.Empty, 1, 2, []*Tx{nil})
	require.ErrorIs(t, err, ErrNilTx)
	require.ErrorIs(t, err, codec.ErrNilValue)
}

// FuzzParseBlock parses arbitrary bytes as a block: it never panics, and a block it accepts
// encodes back to the same bytes with the same ID.
func FuzzParseBlock(f *testing.F) {
	v := loadVectors(f)
	for _, vec := range v.xBlockVectors() {
		f.Add(unhex(f, str(f, vec, "bytesHex")))
	}
	f.Add(unhex(f, str(f, v.LocalNetwork.XGenesisBlock, "bytesHex")))
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, err := ParseBlock(b)
		if err != nil {
			return
		}
		if blk.MerkleRoot() != ids.Empty {
			return // NewStandardBlock always writes an empty root.
		}
		again, err := NewStandardBlock(blk.Parent(), blk.Height(), blk.Time(), blk.Txs())
		require.NoError(t, err)
		require.Equal(t, b, again.Bytes())
		require.Equal(t, blk.ID(), again.ID())
	})
}
