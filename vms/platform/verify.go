package platform

import (
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Limits of a CreateChainTx (reference/platform-exchange.md §4.3).
const (
	// MaxChainNameLen is the longest chain name, in bytes.
	MaxChainNameLen = 128
	// MaxGenesisLen is the largest chain genesis: 1 MiB.
	MaxGenesisLen = 1 << 20
)

// rules are what a tx is checked against: the network and the fees.
type rules struct {
	networkID   uint32
	avaxAssetID ids.ID
	fees        txs.FeeConfig
	// validatorFees is the L1 validators' continuous fee (§4.7).
	validatorFees ValidatorFeeConfig
	// primary is the Primary Network's validator, whose period bounds subnet validators'.
	primary primaryValidator
	// chains finds the peer chains of atomic txs.
	chains chains.ChainLookup
	// staking is the Primary Network's staking rules (§4.9).
	staking StakingConfig
	// signers remembers the keys that signed the chain's spends, so that their next
	// signatures are checked against them rather than recovered (secp256k1fx.Signers).
	signers *secp256k1fx.Signers
}

// maxRememberedSigners bounds rules.signers: about 6 MB of tables at most.
const maxRememberedSigners = 64

// subnetOf returns the subnet of a chain the node knows (atomic.VerifyPeer).
func (r *rules) subnetOf(id ids.ID) (ids.ID, bool) {
	c, ok := r.chains.Chain(id)
	return c.SubnetID, ok
}

// utxoSource is the state a tx is checked against: the UTXOs it spends (unknown or spent ones
// give an error wrapping utxo.ErrUTXONotFound or utxo.ErrDoubleSpend) and the subnets it names.
type utxoSource interface {
	utxo(ref *utxo.UTXOID) (*txs.UTXO, error)
	subnetOwner(id ids.ID) (*secp256k1fx.OutputOwners, error)
	// conversion returns the subnet's conversion to an L1; found is false for a subnet not
	// converted.
	conversion(subnetID ids.ID) (c *subnetConversion, found bool, err error)
	// l1Validator returns the L1 validator validationID; found is false for an unknown one.
	l1Validator(validationID ids.ID) (v *l1Validator, found bool, err error)
	// activeL1Count returns the number of active L1 validators, of every L1.
	activeL1Count() (uint64, error)
	// subnetL1Validators returns the L1 validators of subnetID, active or not, in no
	// particular order.
	subnetL1Validators(subnetID ids.ID) ([]*l1Validator, error)
	// hasExpiry reports whether a RegisterL1ValidatorTx executed the registration e.
	hasExpiry(e expiryEntry) (bool, error)
	// atomicUTXO finds a UTXO that chain peer exported to the P-Chain (an error wrapping
	// atomic.ErrNotFound, or utxo.ErrDoubleSpend when a tx of the view imports it).
	atomicUTXO(peer ids.ID, ref *utxo.UTXOID) (*txs.UTXO, error)
	// subnetValidator returns the tx ID of the legacy validator of nodeID on subnetID whose
	// window holds chain time now; found is false for none.
	subnetValidator(subnetID ids.ID, nodeID ids.NodeID, now uint64) (txID ids.ID, found bool, err error)
	stakerSource
}

// effects are what an accepted tx changes: the UTXOs it consumes and produces, and the subnet it
// creates (CreateSubnetTx).
type effects struct {
	utxo.Effects[txs.UTXO, *txs.UTXO]
	gas uint64
	// subnetOwner is the owner of the subnet the tx creates, or nil; or, with
	// transferredSubnet, the new owner of that subnet.
	subnetOwner       *secp256k1fx.OutputOwners
	transferredSubnet ids.ID
	// removedSubnetValidators are the legacy subnet validators (by tx ID) the tx removes.
	removedSubnetValidators []ids.ID
	// convertedSubnet and conversion are what a ConvertSubnetToL1Tx records.
	convertedSubnet ids.ID
	conversion      *subnetConversion
	// l1Validators are the L1 validators the tx adds or changes, as they are after it; one of
	// weight 0 is removed.
	l1Validators []*l1Validator
	// expiry is the registration a RegisterL1ValidatorTx executes, or nil.
	expiry *expiryEntry
	// stakers are the stakers the tx adds or changes, as they are after it, and
	// removedStakers those a reward decision removes; supplyAdded and supplyRemoved change the
	// supply; rewardUTXOs are the rewards a decision pays (stakers.go).
	stakers                    []*staker
	removedStakers             []ids.ID
	supplyAdded, supplyRemoved uint64
	rewardUTXOs                []txs.UTXO
	// atomic is what an ImportTx or ExportTx does to shared memory, by peer chain.
	atomic map[ids.ID]*atomic.Requests
}

// ownedSubnet is the subnet whose owner eff sets: the one it transfers, else the one it creates.
func (eff *effects) ownedSubnet() ids.ID {
	if eff.transferredSubnet != ids.Empty {
		return eff.transferredSubnet
	}
	return eff.Tx
}

// syntacticCheck checks a kind's own fields, which need no state (§4.3), and counts the
// credentials its authorization takes besides its inputs' (§3.3).
type syntacticCheck struct {
	auths int
}

// executor checks what a kind needs of the state besides its inputs, at chain time now with the
// continuous fee's accrued fees (§4.4, §4.7), and records its effects in eff.
type executor struct {
	r            *rules
	tx           *txs.Tx
	src          utxoSource
	now, accrued uint64
	eff          *effects
	// balances are the L1 validator balances the inputs pay besides the fee; refund is what a
	// DisableL1ValidatorTx or a removal gives back to refundOwner (§4.4).
	balances, refund uint64
	refundOwner      *txs.PChainOwner
	// consumed is what the inputs spend, by asset: an ImportTx adds its imported inputs to it;
	// exported are an ExportTx's outputs, produced besides the tx's own.
	consumed map[ids.ID]uint64
	exported []txs.TransferableOutput
}

// syntactic checks what needs no state: the tx is a kind this VM executes, for this network and
// the P-Chain, well formed and sorted, with one credential per input plus one for its
// authorization (§3.3, §4.2, §4.3).
func (r *rules) syntactic(tx *txs.Tx) error {
	base := tx.Unsigned().Base()
	kind := &syntacticCheck{}
	if err := tx.Unsigned().Visit(kind); err != nil {
		return err
	}
	switch {
	case base.NetworkID != r.networkID:
		return utxo.ErrWrongNetworkID
	case base.BlockchainID != ids.Empty:
		return utxo.ErrWrongChainID
	case len(base.Memo) != 0:
		return ErrMemoNotEmpty
	}
	if err := verifyOutputs(base.Outs); err != nil {
		return err
	}
	if err := verifyInputs(base.Ins); err != nil {
		return err
	}
	if len(tx.Creds()) != len(base.Ins)+kind.auths {
		return utxo.ErrWrongNumberOfCredentials
	}
	return nil
}

// verifyOutputs checks that outs are valid secp256k1fx transfer outputs, sorted (§3.3).
func verifyOutputs(outs []txs.TransferableOutput) error {
	return utxo.VerifyOutputs(outs, func(out txs.Output) error {
		to, ok := out.(*secp256k1fx.TransferOutput)
		if !ok {
			return ErrWrongOutputType
		}
		return to.Verify()
	})
}

// verifyInputs checks that ins are valid secp256k1fx transfer inputs, sorted by UTXO and unique
// (§3.3).
func verifyInputs(ins []txs.TransferableInput) error {
	return utxo.VerifyInputs(ins, func(in txs.Input) error {
		ti, ok := in.(*secp256k1fx.TransferInput)
		if !ok {
			return ErrWrongInputType
		}
		return ti.Verify()
	})
}

// semantic checks tx against src at chain time now (unix seconds) with the gas price and the
// continuous fee's accrued fees (§4.7): every
// input's UTXO exists, is unlocked and is signed for (§3.3); the subnet authorization is the
// subnet owner's (§4.4); the inputs cover the outputs plus the fee, gas × price (§4.8). It assumes
// tx passed syntactic, and returns the tx's effects.
//
// Signers are recovered through tx.Signer, which remembers them on tx: the builder
// verifying a pending tx again does not recover its signatures a second time.
func (r *rules) semantic(tx *txs.Tx, src utxoSource, now, price, accrued uint64) (*effects, error) {
	base := tx.Unsigned().Base()
	eff := &effects{
		Effects: utxo.Effects[txs.UTXO, *txs.UTXO]{Tx: tx.ID(), Consumed: make([]*txs.UTXO, 0, len(base.Ins))},
		gas:     r.fees.Weights.Gas(txs.Complexity(tx)),
	}
	consumed := make(map[ids.ID]uint64, 1)
	for i := range base.Ins {
		in := &base.Ins[i]
		ux, err := src.utxo(&in.UTXOID)
		if err != nil {
			return nil, err
		}
		ti := in.In.(*secp256k1fx.TransferInput) // syntactic checked it
		if err := utxo.VerifySpend(r.signers, in.AssetID, ti, ux.AssetID, ux.Out, tx, i, now); err != nil {
			return nil, fmt.Errorf("failed to verify transfer: input %d: %w", i, err)
		}
		eff.Consumed = append(eff.Consumed, ux)
		if consumed[in.AssetID], err = add(consumed[in.AssetID], ti.Amount); err != nil {
			return nil, err
		}
	}
	x := &executor{r: r, tx: tx, src: src, now: now, accrued: accrued, eff: eff, consumed: consumed}
	if err := tx.Unsigned().Visit(x); err != nil {
		return nil, err
	}
	fee, overflow := mulOverflow(eff.gas, price)
	if overflow {
		return nil, utxo.ErrOverflow
	}
	fee, err := add(fee, x.balances)
	if err != nil {
		return nil, err
	}
	produced := map[ids.ID]uint64{r.avaxAssetID: fee}
	for _, outs := range [][]txs.TransferableOutput{base.Outs, x.exported} {
		for i := range outs {
			var err error
			out := &outs[i]
			if produced[out.AssetID], err = add(produced[out.AssetID], out.Out.(*secp256k1fx.TransferOutput).Amount); err != nil {
				return nil, err
			}
		}
	}
	for asset, out := range produced {
		if in := consumed[asset]; in < out {
			return nil, utxo.InsufficientFundsError(asset, in, out)
		}
	}
	eff.Produced = tx.UTXOs()
	if x.refund > 0 {
		// The refund follows the tx's outputs (§4.4).
		eff.Produced = append(eff.Produced, txs.UTXO{
			UTXOID:  utxo.UTXOID{TxID: eff.Tx, OutputIndex: uint32(len(base.Outs))},
			AssetID: r.avaxAssetID,
			Out: &secp256k1fx.TransferOutput{Amount: x.refund, OutputOwners: secp256k1fx.OutputOwners{
				Threshold: x.refundOwner.Threshold,
				Addrs:     slices.Clone(x.refundOwner.Addresses),
			}},
		})
	}
	return eff, nil
}

// checkActiveCapacity refuses activating n more L1 validators when that would make more active
// than the continuous fee's Capacity (local: 20,000; §4.4, §4.7).
func (r *rules) checkActiveCapacity(src utxoSource, n uint64) error {
	if n == 0 {
		return nil
	}
	active, err := src.activeL1Count()
	if err != nil {
		return err
	}
	if active+n > r.validatorFees.Capacity || active+n < active {
		return fmt.Errorf("%w: %d active, %d more, capacity %d", ErrMaxActiveL1Validators, active, n, r.validatorFees.Capacity)
	}
	return nil
}

// findL1Validator returns the L1 validator validationID of src, or an error wrapping
// ErrL1ValidatorNotFound.
func findL1Validator(src utxoSource, validationID ids.ID) (*l1Validator, error) {
	v, found, err := src.l1Validator(validationID)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("L1 validator %s: %w", validationID, ErrL1ValidatorNotFound)
	}
	return v, nil
}

func add(a, b uint64) (uint64, error) {
	if s := a + b; s >= a {
		return s, nil
	}
	return 0, utxo.ErrOverflow
}

func mulOverflow(a, b uint64) (uint64, bool) {
	if a == 0 || b == 0 {
		return 0, false
	}
	p := a * b
	return p, p/b != a
}

var (
	_ txs.Visitor = (*syntacticCheck)(nil)
	_ txs.Visitor = (*executor)(nil)
	_ txs.Visitor = txIndexer{}
)
