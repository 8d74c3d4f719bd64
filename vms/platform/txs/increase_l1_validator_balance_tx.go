package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

// IncreaseL1ValidatorBalanceTx adds Balance to an L1 validator's balance, reactivating it if
// needed (type ID 38, §4.4).
type IncreaseL1ValidatorBalanceTx struct {
	BaseTx
	ValidationID ids.ID
	// Balance must be positive.
	Balance uint64
}

func (*IncreaseL1ValidatorBalanceTx) isUnsignedTx() {}

// Visit calls v.IncreaseL1ValidatorBalanceTx with tx.
func (tx *IncreaseL1ValidatorBalanceTx) Visit(v Visitor) error {
	return v.IncreaseL1ValidatorBalanceTx(tx)
}

// Marshal writes the BaseTx fields, validation ID and balance.
func (tx *IncreaseL1ValidatorBalanceTx) Marshal(p *codec.Packer) {
	tx.BaseTx.Marshal(p)
	p.ID(tx.ValidationID)
	p.Uint64(tx.Balance)
}

// Unmarshal reads the fields written by Marshal.
func (tx *IncreaseL1ValidatorBalanceTx) Unmarshal(u *codec.Unpacker) {
	tx.BaseTx.Unmarshal(u)
	tx.ValidationID = u.ID()
	tx.Balance = u.Uint64()
}
