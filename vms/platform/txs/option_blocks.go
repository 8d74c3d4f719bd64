package txs

import (
	"crypto/sha256"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// optionBlock is the body shared by the two options after a proposal block: a time that must equal
// the parent's, then the parent and height (§4.1).
type optionBlock struct {
	commonBlock
	time uint64
}

// Time returns the block's timestamp in unix seconds.
func (b *optionBlock) Time() uint64 { return b.time }

func (b *optionBlock) marshalBody(p *codec.Packer) {
	p.Uint64(b.time)
	b.marshalCommon(p)
}

func (b *optionBlock) unmarshalBody(u *codec.Unpacker) {
	b.time = u.Uint64()
	b.unmarshalCommon(u)
}

// CommitBlock is a Banff commit block (type ID 31): the proposal's changes take effect.
type CommitBlock struct {
	optionBlock
}

// NewCommitBlock encodes a commit block at time (unix seconds) on the proposal block parent.
func NewCommitBlock(parent ids.ID, height, time uint64) *CommitBlock {
	b := &CommitBlock{optionBlock{commonBlock: commonBlock{parent: parent, height: height}, time: time}}
	mustEncode(b, &b.commonBlock, banffHeaderSize)
	return b
}

func (*CommitBlock) typeID() uint32 { return TypeIDBanffCommitBlock }

// AbortBlock is a Banff abort block (type ID 30): the proposal's changes are dropped.
type AbortBlock struct {
	optionBlock
}

// NewAbortBlock encodes an abort block at time (unix seconds) on the proposal block parent.
func NewAbortBlock(parent ids.ID, height, time uint64) *AbortBlock {
	b := &AbortBlock{optionBlock{commonBlock: commonBlock{parent: parent, height: height}, time: time}}
	mustEncode(b, &b.commonBlock, banffHeaderSize)
	return b
}

func (*AbortBlock) typeID() uint32 { return TypeIDBanffAbortBlock }

// ApricotCommitBlock is the pre-Banff commit block (type ID 2), which cornice only uses as the
// P-Chain's genesis block. It has no time (§4.1).
type ApricotCommitBlock struct {
	commonBlock
}

// NewGenesisBlock returns the P-Chain's genesis block for the genesis bytes: an ApricotCommitBlock
// at height 0 whose parent is sha256 of the genesis (§4.1).
func NewGenesisBlock(genesis []byte) *ApricotCommitBlock {
	return NewApricotCommitBlock(sha256.Sum256(genesis), 0)
}

// NewApricotCommitBlock encodes an Apricot commit block on parent.
func NewApricotCommitBlock(parent ids.ID, height uint64) *ApricotCommitBlock {
	b := &ApricotCommitBlock{commonBlock{parent: parent, height: height}}
	mustEncode(b, &b.commonBlock, commonBlockSize)
	return b
}

func (*ApricotCommitBlock) typeID() uint32 { return TypeIDApricotCommitBlock }

func (b *ApricotCommitBlock) marshalBody(p *codec.Packer) { b.marshalCommon(p) }

// mustEncode encodes a block that has no field able to fail.
func mustEncode(blk Block, common *commonBlock, sizeHint int) {
	if err := encodeBlock(blk, common, sizeHint); err != nil {
		panic("platform: encoding a block without txs failed: " + err.Error())
	}
}
