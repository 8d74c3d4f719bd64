package txs

import (
	"crypto/sha256"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// Block is a P-Chain block: *StandardBlock, *ProposalBlock, *CommitBlock, *AbortBlock or the genesis
// *ApricotCommitBlock. The set is closed. A Block is immutable and caches its bytes and ID.
type Block interface {
	// ID returns sha256 of the block bytes (§2.2).
	ID() ids.ID
	// Bytes returns the block bytes: codec version, type ID, fields. The caller must not modify
	// them.
	Bytes() []byte
	// Parent returns the parent block's ID.
	Parent() ids.ID
	// Height returns the block's height; the genesis block has height 0.
	Height() uint64
	// Txs returns the block's txs, nil for blocks that carry none. The caller must not modify the
	// slice.
	Txs() []*Tx
	// typeID returns the block's type ID (§1.3).
	typeID() uint32
	// marshalBody writes the fields after the type ID.
	marshalBody(p *codec.Packer)
}

// Encoded sizes of the block headers, used to size buffers.
const (
	commonBlockSize = ids.IDLen + 8
	banffHeaderSize = 8 + commonBlockSize
)

// commonBlock holds what every block has: the parent, the height and the cached encoding.
type commonBlock struct {
	parent ids.ID
	height uint64
	id     ids.ID
	bytes  []byte
}

// ID returns sha256 of the block bytes.
func (b *commonBlock) ID() ids.ID { return b.id }

// Bytes returns the block bytes. The caller must not modify them.
func (b *commonBlock) Bytes() []byte { return b.bytes }

// Parent returns the parent block's ID.
func (b *commonBlock) Parent() ids.ID { return b.parent }

// Height returns the block's height.
func (b *commonBlock) Height() uint64 { return b.height }

// Txs returns nil: only standard and proposal blocks carry txs.
func (*commonBlock) Txs() []*Tx { return nil }

func (b *commonBlock) marshalCommon(p *codec.Packer) {
	p.ID(b.parent)
	p.Uint64(b.height)
}

func (b *commonBlock) unmarshalCommon(u *codec.Unpacker) {
	b.parent = u.ID()
	b.height = u.Uint64()
}

// setBytes records the block's encoding and ID.
func (b *commonBlock) setBytes(bytes []byte) {
	b.bytes = bytes
	b.id = sha256.Sum256(bytes)
}

// encodeBlock writes blk with its version and type ID and caches the result in common.
func encodeBlock(blk Block, common *commonBlock, sizeHint int) error {
	p := codec.NewPacker(make([]byte, 0, 2+4+sizeHint))
	p.Version()
	p.TypeID(blk.typeID())
	blk.marshalBody(p)
	b, err := p.Bytes()
	if err != nil {
		return err
	}
	common.setBytes(b)
	return nil
}

// ParseBlock decodes block bytes, at most codec.MaxSize long. It copies b.
func ParseBlock(b []byte) (Block, error) {
	u := codec.NewUnpackerCopy(b, codec.MaxSize)
	u.Version()
	var (
		blk    Block
		common *commonBlock
	)
	switch id := u.TypeID(); {
	case u.Err() != nil:
	case id == TypeIDBanffStandardBlock:
		sb := &StandardBlock{}
		sb.unmarshalBody(u)
		blk, common = sb, &sb.commonBlock
	case id == TypeIDBanffProposalBlock:
		pb := &ProposalBlock{}
		pb.unmarshalBody(u)
		blk, common = pb, &pb.commonBlock
	case id == TypeIDBanffCommitBlock:
		cb := &CommitBlock{}
		cb.unmarshalBody(u)
		blk, common = cb, &cb.commonBlock
	case id == TypeIDBanffAbortBlock:
		ab := &AbortBlock{}
		ab.unmarshalBody(u)
		blk, common = ab, &ab.commonBlock
	case id == TypeIDApricotCommitBlock:
		gb := &ApricotCommitBlock{}
		gb.unmarshalCommon(u)
		blk, common = gb, &gb.commonBlock
	default:
		u.Fail(codec.UnknownTypeIDError("block", id))
	}
	if err := u.Done(); err != nil {
		return nil, err
	}
	common.setBytes(u.Input())
	return blk, nil
}
