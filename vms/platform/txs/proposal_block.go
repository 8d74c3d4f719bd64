package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/signed"
)

// ProposalBlock is a Banff proposal block (type ID 29): a timestamp, decision txs (cornice builds
// none), then the parent and height and the one proposal tx, a RewardValidatorTx. The chain goes
// on with its CommitBlock or its AbortBlock child (§4.1).
type ProposalBlock struct {
	commonBlock
	time      uint64
	decisions []*Tx
	tx        *Tx
}

// NewProposalBlock encodes a proposal block at time (unix seconds) on parent, with the decision
// txs and the proposal tx. The caller must not modify them afterwards. It fails only for a nil
// tx.
func NewProposalBlock(parent ids.ID, height, time uint64, decisions []*Tx, tx *Tx) (*ProposalBlock, error) {
	b := &ProposalBlock{commonBlock: commonBlock{parent: parent, height: height}, time: time, decisions: decisions, tx: tx}
	size := banffHeaderSize + 4
	for _, d := range append(decisions, tx) {
		if d != nil {
			size += d.Size() - 2
		}
	}
	if err := encodeBlock(b, &b.commonBlock, size); err != nil {
		return nil, err
	}
	return b, nil
}

// Time returns the block's timestamp in unix seconds.
func (b *ProposalBlock) Time() uint64 { return b.time }

// Decisions returns the block's decision txs. The caller must not modify the slice.
func (b *ProposalBlock) Decisions() []*Tx { return b.decisions }

// Tx returns the proposal tx.
func (b *ProposalBlock) Tx() *Tx { return b.tx }

// Txs returns the decision txs, then the proposal tx. The caller must not modify the slice.
func (b *ProposalBlock) Txs() []*Tx {
	return append(b.decisions[:len(b.decisions):len(b.decisions)], b.tx)
}

func (*ProposalBlock) typeID() uint32 { return TypeIDBanffProposalBlock }

// marshalBody writes the time, the decision txs, the parent and height, then the proposal tx,
// all txs without version prefixes.
func (b *ProposalBlock) marshalBody(p *codec.Packer) {
	p.Uint64(b.time)
	signed.WriteAll(txCodec, p, b.decisions)
	b.marshalCommon(p)
	signed.WriteOne(txCodec, p, b.tx)
}

func (b *ProposalBlock) unmarshalBody(u *codec.Unpacker) {
	b.time = u.Uint64()
	b.decisions = signed.ReadAll[Tx](txCodec, u)
	b.unmarshalCommon(u)
	b.tx = signed.ReadOne[Tx](txCodec, u)
}
