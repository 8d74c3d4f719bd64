package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// RewardValidatorTx ends a staker's period (type ID 20): the chain builds it into a proposal
// block when chain time reaches the staker's end time, and the option block that follows
// decides whether the reward is paid (§4.1, §4.10). It has no BaseTx fields and no credentials;
// nobody issues one.
type RewardValidatorTx struct {
	// TxID is the staking tx whose period ends.
	TxID ids.ID
}

func (*RewardValidatorTx) isUnsignedTx() {}

// Base returns an empty BaseTx: the tx spends and produces nothing itself.
func (*RewardValidatorTx) Base() *BaseTx { return &BaseTx{} }

// Visit calls v.RewardValidatorTx with tx.
func (tx *RewardValidatorTx) Visit(v Visitor) error { return v.RewardValidatorTx(tx) }

// Marshal writes the staking tx's ID.
func (tx *RewardValidatorTx) Marshal(p *codec.Packer) { p.ID(tx.TxID) }

// Unmarshal reads the field written by Marshal.
func (tx *RewardValidatorTx) Unmarshal(u *codec.Unpacker) { tx.TxID = u.ID() }
