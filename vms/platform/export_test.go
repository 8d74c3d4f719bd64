package platform

import (
	"encoding/binary"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// PutL1ValidatorsForTest records subnetID as converted and gives it n active L1 validators, each
// with the given balance, committed in one batch at the last accepted height as a conversion
// would write them. Benchmarks use it to reach sizes no single tx can carry (a
// ConvertSubnetToL1Tx with 1,000 validators is over mempool.MaxTxSize).
func (vm *VM) PutL1ValidatorsForTest(subnetID ids.ID, n int, balance uint64) error {
	rec, _, err := vm.state.lastAccepted()
	if err != nil {
		return err
	}
	b := vm.state.DB().NewBatch()
	defer b.Close()
	w := writer{b: b, s: vm.state, written: make(map[ids.ID]*l1Validator), height: rec.height}
	eff := &effects{convertedSubnet: subnetID, conversion: &subnetConversion{chainID: ids.ID{1}, address: []byte{1}}}
	owner := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{{1}}}
	for i := range n {
		var nodeID ids.NodeID
		binary.BigEndian.PutUint32(nodeID[:], uint32(i)+1)
		v := &l1Validator{
			validationID:          subnetID.Append(uint32(i)),
			subnetID:              subnetID,
			nodeID:                nodeID,
			weight:                uint64(i) + 1,
			startTime:             rec.fees.time,
			endFee:                rec.fees.accrued + balance,
			remainingBalanceOwner: owner,
			deactivationOwner:     owner,
		}
		v.publicKey[0] = 0x80
		eff.l1Validators = append(eff.l1Validators, v)
	}
	if err := w.putL1(eff); err != nil {
		return fmt.Errorf("write L1 validators: %w", err)
	}
	return b.Commit()
}

// CompareWarpKeys exposes compareWarpKeys to the external tests.
func CompareWarpKeys(a, b *[txs.BLSPublicKeyLen]byte) int { return compareWarpKeys(a, b) }

// HasExpiryForTest reports whether the accepted state keeps the registration (expiry,
// validationID) as spent.
func (vm *VM) HasExpiryForTest(expiry uint64, validationID ids.ID) (bool, error) {
	return vm.state.hasExpiry(expiryEntry{expiry: expiry, validationID: validationID})
}

// SignerHasTableForTest reports whether the VM verifies addr's next signature against its
// remembered key (secp256k1fx.Signers).
func (vm *VM) SignerHasTableForTest(addr ids.ShortID) bool { return vm.rules.signers.HasTable(addr) }

// ReplaceL1ValidatorForTest removes the L1 validator old and adds, in the same commit, one like it
// under the validation ID repl, as a block removing one and registering another would. The commit
// is unsynced, published at once, so that a test can make many while readers run.
func (vm *VM) ReplaceL1ValidatorForTest(old, repl ids.ID) error {
	rec, _, err := vm.state.lastAccepted()
	if err != nil {
		return err
	}
	v, found, err := vm.state.l1Validator(old)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("no L1 validator %s", old)
	}
	gone, next := *v, *v
	gone.weight = 0
	next.validationID = repl
	b := vm.state.DB().NewBatch()
	defer b.Close()
	w := writer{b: b, s: vm.state, written: make(map[ids.ID]*l1Validator), height: rec.height}
	if err := w.putL1(&effects{l1Validators: []*l1Validator{&gone, &next}}); err != nil {
		return err
	}
	return b.CommitUnsynced()
}

// RespendUTXOForTest spends the accepted UTXO id into one like it, same amount and owner, made by
// the tx txID, in one unsynced commit (published at once), and returns the new UTXO's ID.
func (vm *VM) RespendUTXOForTest(id, txID ids.ID) (ids.ID, error) {
	ux, found, err := vm.state.UTXO(id)
	switch {
	case err != nil:
		return ids.ID{}, err
	case !found:
		return ids.ID{}, fmt.Errorf("no UTXO %s", id)
	}
	next := *ux
	next.TxID = txID
	b := vm.state.DB().NewBatch()
	defer b.Close()
	w := writer{b: b}
	if err := w.deleteUTXO(ux); err != nil {
		return ids.ID{}, err
	}
	if err := w.putUTXO(&next); err != nil {
		return ids.ID{}, err
	}
	return next.InputID(), b.CommitUnsynced()
}
