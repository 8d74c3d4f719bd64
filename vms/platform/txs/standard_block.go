package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/signed"
)

// StandardBlock is a Banff standard block (type ID 32): a timestamp and the txs it accepts (§4.1).
type StandardBlock struct {
	commonBlock
	time uint64
	txs  []*Tx
}

// NewStandardBlock encodes a standard block at time (unix seconds) on parent. The block keeps txs;
// the caller must not modify the slice afterwards. It fails only for a nil tx.
func NewStandardBlock(parent ids.ID, height, time uint64, txs []*Tx) (*StandardBlock, error) {
	b := &StandardBlock{commonBlock: commonBlock{parent: parent, height: height}, time: time, txs: txs}
	size := banffHeaderSize + 4
	for _, tx := range txs {
		if tx != nil {
			size += tx.Size() - 2
		}
	}
	if err := encodeBlock(b, &b.commonBlock, size); err != nil {
		return nil, err
	}
	return b, nil
}

// Time returns the block's timestamp in unix seconds.
func (b *StandardBlock) Time() uint64 { return b.time }

// Txs returns the block's txs. The caller must not modify the slice.
func (b *StandardBlock) Txs() []*Tx { return b.txs }

func (*StandardBlock) typeID() uint32 { return TypeIDBanffStandardBlock }

// marshalBody writes the time, the parent and height, then the txs without version prefixes.
func (b *StandardBlock) marshalBody(p *codec.Packer) {
	p.Uint64(b.time)
	b.marshalCommon(p)
	signed.WriteAll(txCodec, p, b.txs)
}

func (b *StandardBlock) unmarshalBody(u *codec.Unpacker) {
	b.time = u.Uint64()
	b.unmarshalCommon(u)
	b.txs = signed.ReadAll[Tx](txCodec, u)
}
