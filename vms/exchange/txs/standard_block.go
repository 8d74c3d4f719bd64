package txs

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/signed"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// blockHeaderSize is the encoded size of a standard block's fields before its txs.
const blockHeaderSize = ids.IDLen + 8 + 8 + ids.IDLen

// StandardBlock is the X-Chain's only block kind since Cortina (type ID 20, §6.1): a parent, a
// height, a timestamp, a merkle root that must be empty, and the txs it accepts. A StandardBlock is
// immutable and caches its bytes and ID.
type StandardBlock struct {
	parent     ids.ID
	height     uint64
	time       uint64
	merkleRoot ids.ID
	txs        []*Tx
	id         ids.ID
	bytes      []byte
}

// NewStandardBlock encodes a block at time (unix seconds) on parent, with an empty merkle root.
// The block keeps txs; the caller must not modify the slice afterwards. It fails only for a nil tx.
func NewStandardBlock(parent ids.ID, height, time uint64, txs []*Tx) (*StandardBlock, error) {
	b := &StandardBlock{parent: parent, height: height, time: time, txs: txs}
	size := 2 + 4 + blockHeaderSize + 4
	for _, tx := range txs {
		if tx != nil {
			size += tx.Size() - 2
		}
	}
	p := codec.NewPacker(make([]byte, 0, size))
	p.Version()
	p.TypeID(TypeIDStandardBlock)
	p.ID(b.parent)
	p.Uint64(b.height)
	p.Uint64(b.time)
	p.ID(b.merkleRoot)
	signed.WriteAll(txCodec, p, b.txs)
	bytes, err := p.Bytes()
	if err != nil {
		return nil, err
	}
	b.setBytes(bytes)
	return b, nil
}

// NewGenesisBlock returns the X-Chain's genesis block: the block the chain was linearized into at
// Cortina, on the stop vertex stopVertexID, at height 0, at the Cortina time (unix seconds), with
// no txs (§6.1). Where the network configures no stop vertex, stopVertexID is
// [EmptyStopVertexID] of the chain.
func NewGenesisBlock(stopVertexID ids.ID, cortinaTime uint64) *StandardBlock {
	b, err := NewStandardBlock(stopVertexID, 0, cortinaTime, nil)
	if err != nil {
		panic("exchange: encoding a block without txs failed: " + err.Error())
	}
	return b
}

// stopVertexVersion is the codec version of a stop vertex, the only vertex encoding with version 1.
const stopVertexVersion uint16 = 1

// EmptyStopVertexID returns the ID of the stop vertex built on an empty DAG for chain chainID, as
// the reference's bootstrapper builds it when the network configures no stop vertex (local and
// custom networks, §6.1): sha256 of version 1 ‖ chainID ‖ height 0 ‖ no parents.
func EmptyStopVertexID(chainID ids.ID) ids.ID {
	b := make([]byte, 0, 2+ids.IDLen+8+4)
	b = binary.BigEndian.AppendUint16(b, stopVertexVersion)
	b = append(b, chainID[:]...)
	b = binary.BigEndian.AppendUint64(b, 0) // height
	b = binary.BigEndian.AppendUint32(b, 0) // parent count
	return sha256.Sum256(b)
}

// ParseBlock decodes block bytes, at most codec.MaxSize long. It copies b.
func ParseBlock(b []byte) (*StandardBlock, error) {
	u := codec.NewUnpackerCopy(b, codec.MaxSize)
	u.Version()
	union.Expect(u, "block", TypeIDStandardBlock)
	blk := &StandardBlock{}
	blk.parent = u.ID()
	blk.height = u.Uint64()
	blk.time = u.Uint64()
	blk.merkleRoot = u.ID()
	blk.txs = signed.ReadAll[Tx](txCodec, u)
	if err := u.Done(); err != nil {
		return nil, err
	}
	blk.setBytes(u.Input())
	return blk, nil
}

// setBytes records the block's encoding and ID.
func (b *StandardBlock) setBytes(bytes []byte) {
	b.bytes = bytes
	b.id = sha256.Sum256(bytes)
}

// ID returns sha256 of the block bytes (§2.2).
func (b *StandardBlock) ID() ids.ID { return b.id }

// Bytes returns the block bytes: codec version, type ID, fields. The caller must not modify them.
func (b *StandardBlock) Bytes() []byte { return b.bytes }

// Parent returns the parent block's ID; the genesis block's parent is the stop vertex.
func (b *StandardBlock) Parent() ids.ID { return b.parent }

// Height returns the block's height; the genesis block has height 0.
func (b *StandardBlock) Height() uint64 { return b.height }

// Time returns the block's timestamp in unix seconds.
func (b *StandardBlock) Time() uint64 { return b.time }

// MerkleRoot returns the block's merkle root, which a valid block leaves empty.
func (b *StandardBlock) MerkleRoot() ids.ID { return b.merkleRoot }

// Txs returns the block's txs, an empty or nil slice for the genesis block. The caller must not
// modify the slice.
func (b *StandardBlock) Txs() []*Tx { return b.txs }
