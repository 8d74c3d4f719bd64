package platform

import (
	"iter"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Mempool and block size limits (reference/platform-exchange.md §1.2).
const (
	// MaxTxSize is the largest tx the mempool takes: 64 KiB.
	MaxTxSize = 64 * 1024
	// MaxMempoolSize is how many bytes of txs may be pending at once.
	MaxMempoolSize = 64 * 1024 * 1024
	// targetBlockSize is the size the builder fills a block up to: 128 KiB.
	targetBlockSize = 128 * 1024
)

// overlay is a state on top of another: the UTXOs that pending txs (or the earlier txs of a
// block) spend and create, and the subnets they create. It is not safe for concurrent use; the
// VM guards the mempool's.
type overlay struct {
	base utxoSource
	// spent maps a UTXO ID to the tx that spends it.
	spent map[ids.ID]ids.ID
	// created holds the UTXOs the overlay's txs create.
	created map[ids.ID]*txs.UTXO
	// subnets holds the owners of the subnets the overlay's txs create.
	subnets map[ids.ID]*secp256k1fx.OutputOwners
	// conversions holds the subnet conversions the overlay's txs make.
	conversions map[ids.ID]*subnetConversion
	// l1Validators holds the L1 validators the overlay's txs add or change, as they leave them.
	l1Validators map[ids.ID]*l1Validator
}

func newOverlay(base utxoSource) *overlay {
	return &overlay{
		base:    base,
		spent:   make(map[ids.ID]ids.ID),
		created: make(map[ids.ID]*txs.UTXO),
		subnets: make(map[ids.ID]*secp256k1fx.OutputOwners),

		conversions:  make(map[ids.ID]*subnetConversion),
		l1Validators: make(map[ids.ID]*l1Validator),
	}
}

// utxo implements utxoSource: a UTXO spent in the overlay is a double spend, unless the base no
// longer has it either (the spending tx's block was committed and the mempool not yet told):
// then it is the base's unknown UTXO.
func (o *overlay) utxo(in *txs.TransferableInput) (*txs.UTXO, error) {
	id := in.InputID()
	if by, ok := o.spent[id]; ok {
		if _, mine := o.created[id]; !mine {
			if _, err := o.base.utxo(in); err != nil {
				return nil, err
			}
		}
		return nil, doubleSpendError(id, by)
	}
	if ux, ok := o.created[id]; ok {
		return ux, nil
	}
	return o.base.utxo(in)
}

// subnetOwner implements utxoSource.
func (o *overlay) subnetOwner(id ids.ID) (*secp256k1fx.OutputOwners, error) {
	if owner, ok := o.subnets[id]; ok {
		return owner, nil
	}
	return o.base.subnetOwner(id)
}

// conversion implements utxoSource.
func (o *overlay) conversion(subnetID ids.ID) (*subnetConversion, bool, error) {
	if c, ok := o.conversions[subnetID]; ok {
		return c, true, nil
	}
	return o.base.conversion(subnetID)
}

// l1Validator implements utxoSource.
func (o *overlay) l1Validator(validationID ids.ID) (*l1Validator, bool, error) {
	if v, ok := o.l1Validators[validationID]; ok {
		return v, true, nil
	}
	return o.base.l1Validator(validationID)
}

// activeL1Count implements utxoSource: the base's count, corrected for the validators the
// overlay changed.
func (o *overlay) activeL1Count() (uint64, error) {
	n, err := o.base.activeL1Count()
	if err != nil {
		return 0, err
	}
	for id, v := range o.l1Validators {
		prev, found, err := o.base.l1Validator(id)
		if err != nil {
			return 0, err
		}
		if found && prev.endFee != 0 {
			n--
		}
		if v.endFee != 0 {
			n++
		}
	}
	return n, nil
}

// SpentBy implements mempool.View.
func (o *overlay) SpentBy(utxoID ids.ID) (ids.ID, bool) {
	by, ok := o.spent[utxoID]
	return by, ok
}

// Apply implements mempool.View: it records a verified tx's effects.
func (o *overlay) Apply(eff *effects) {
	for _, ux := range eff.consumed {
		o.spent[ux.InputID()] = eff.txID
	}
	for i := range eff.produced {
		ux := &eff.produced[i]
		o.created[ux.InputID()] = ux
	}
	if eff.subnetOwner != nil {
		o.subnets[eff.txID] = eff.subnetOwner
	}
	if eff.conversion != nil {
		o.conversions[eff.convertedSubnet] = eff.conversion
	}
	for _, v := range eff.l1Validators {
		o.l1Validators[v.validationID] = v
	}
}

// Revert implements mempool.View: it forgets a tx's effects.
func (o *overlay) Revert(eff *effects) {
	for _, ux := range eff.consumed {
		if id := ux.InputID(); o.spent[id] == eff.txID {
			delete(o.spent, id)
		}
	}
	for i := range eff.produced {
		delete(o.created, eff.produced[i].InputID())
	}
	delete(o.subnets, eff.txID)
	if eff.conversion != nil && o.conversions[eff.convertedSubnet] == eff.conversion {
		delete(o.conversions, eff.convertedSubnet)
	}
	for _, v := range eff.l1Validators {
		if o.l1Validators[v.validationID] == v {
			delete(o.l1Validators, v.validationID)
		}
	}
}

// TxID implements mempool.Effects.
func (e *effects) TxID() ids.ID { return e.txID }

// Spent implements mempool.Effects: the IDs of the UTXOs the tx consumes.
func (e *effects) Spent() iter.Seq[ids.ID] {
	return func(yield func(ids.ID) bool) {
		for _, ux := range e.consumed {
			if !yield(ux.InputID()) {
				return
			}
		}
	}
}
