package wallet

import (
	"bytes"
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// PBuilder builds signed P-Chain txs from UTXOs, without I/O. Its zero value is not usable: set
// every field but Time, from the node ([NewP] does) or from known values.
type PBuilder struct {
	// NetworkID is written into every tx; the P-Chain's ID is all zeros.
	NetworkID uint32
	// AVAXAssetID is the fee asset.
	AVAXAssetID ids.ID
	// Weights turn a tx's complexity into gas (platform.getFeeConfig, §4.8).
	Weights txs.Dimensions
	// GasPrice is the price in nAVAX per gas the fee is paid at: platform.getFeeState's price.
	// The VM charges the price of the next block's state, which is never higher while no block is
	// accepted, since the excess only drains with time (§4.8).
	GasPrice uint64
	// Time is the chain time in unix seconds: UTXOs locked past it are not spent.
	Time uint64
}

// maxFeeRounds bounds the fee's fixed point: each round can only add an input or the change.
const maxFeeRounds = 8

// Fee returns the fee of tx: its gas under b.Weights times b.GasPrice, saturating at 2^64-1.
func (b *PBuilder) Fee(tx *txs.Tx) uint64 {
	hi, lo := bits.Mul64(b.Weights.Gas(txs.Complexity(tx)), b.GasPrice)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

// PAuth is the subnet owner's authorization of a CreateChainTx: the owner's signature indices
// and the keys that sign for them, in the same order.
type PAuth struct {
	SigIndices []uint32
	Keys       []*Key
}

// Send returns a BaseTx that sends amount nAVAX to the P-Chain address `to`, signed by key,
// spending utxos the key owns, with the fee paid and the change back to the key's address.
func (b *PBuilder) Send(key *Key, utxos []*txs.UTXO, to ids.ShortID, amount uint64) (*txs.Tx, error) {
	if amount == 0 {
		return nil, ErrZeroAmount
	}
	out := txs.TransferTo(b.AVAXAssetID, amount, to)
	return b.build(key, utxos, amount, []txs.TransferableOutput{out}, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &base
	})
}

// CreateSubnet returns a CreateSubnetTx of a subnet owned by owner alone (threshold 1), signed
// and paid by key. The subnet's ID is the tx's ID (§2.3).
func (b *PBuilder) CreateSubnet(key *Key, utxos []*txs.UTXO, owner ids.ShortID) (*txs.Tx, error) {
	return b.CreateSubnetOwners(key, utxos, []ids.ShortID{owner})
}

// CreateSubnetOwners returns a CreateSubnetTx of a subnet that any one of owners controls
// (threshold 1), signed and paid by key; owners is sorted and rid of duplicates in a copy. An
// owner need not be a key's address: it can tag the subnet, so that it can be found again on the
// P-Chain, which takes no memo (§4.2). The subnet's ID is the tx's ID (§2.3).
func (b *PBuilder) CreateSubnetOwners(key *Key, utxos []*txs.UTXO, owners []ids.ShortID) (*txs.Tx, error) {
	if len(owners) == 0 {
		return nil, ErrNoOwner
	}
	addrs := slices.Clone(owners)
	slices.SortFunc(addrs, ids.ShortID.Compare)
	addrs = slices.Compact(addrs)
	return b.build(key, utxos, 0, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.CreateSubnetTx{
			BaseTx: base,
			Owner:  secp256k1fx.OutputOwners{Threshold: 1, Addrs: addrs},
		}
	})
}

// CreateChain returns a CreateChainTx of a chain named name running vmID with genesis on
// subnetID, paid by key and authorized by auth. The chain's ID is the tx's ID (§2.3).
func (b *PBuilder) CreateChain(key *Key, utxos []*txs.UTXO, subnetID ids.ID, name string, vmID ids.ID, genesis []byte, auth PAuth) (*txs.Tx, error) {
	return b.build(key, utxos, 0, nil, auth.Keys, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.CreateChainTx{
			BaseTx:      base,
			SubnetID:    subnetID,
			ChainName:   name,
			VMID:        vmID,
			FxIDs:       []ids.ID{},
			GenesisData: genesis,
			SubnetAuth:  secp256k1fx.Input{SigIndices: auth.SigIndices},
		}
	})
}

// build funds amount plus the fee from utxos and signs the tx body returns, one credential per
// input by key, then one holding authKeys' signatures (the fee settled by settleFee).
func (b *PBuilder) build(key *Key, utxos []*txs.UTXO, amount uint64, outs []txs.TransferableOutput, authKeys []*Key, body func(txs.BaseTx) txs.UnsignedTx) (*txs.Tx, error) {
	return b.settleFee(func(fee uint64) (*txs.Tx, error) {
		need := amount + fee
		if need < fee {
			return nil, fmt.Errorf("%w: the amount plus the fee exceed 2^64-1", ErrInsufficientFunds)
		}
		base, err := b.fund(key, utxos, slices.Clone(outs), need)
		if err != nil {
			return nil, err
		}
		return b.sign(body(*base), len(base.Ins), key, authKeys)
	})
}

// settleFee returns the tx that build makes to pay fee, starting from 0 and raising fee to what
// the signed tx costs until it pays enough: the fee depends on the signed tx's size, which
// depends on the inputs and the change, so it is found as a fixed point in at most maxFeeRounds
// rounds.
func (b *PBuilder) settleFee(build func(fee uint64) (*txs.Tx, error)) (*txs.Tx, error) {
	var fee uint64
	for range maxFeeRounds {
		tx, err := build(fee)
		if err != nil {
			return nil, err
		}
		want := b.Fee(tx)
		if want <= fee {
			return tx, nil
		}
		fee = want
	}
	return nil, fmt.Errorf("%w: the fee did not settle", ErrInsufficientFunds)
}

// sign signs unsigned: n credentials of key's one signature, then, if there are auth keys, one
// credential with each of their signatures.
func (b *PBuilder) sign(unsigned txs.UnsignedTx, n int, key *Key, authKeys []*Key) (*txs.Tx, error) {
	ub, err := txs.UnsignedBytes(unsigned)
	if err != nil {
		return nil, fmt.Errorf("encode the unsigned tx: %w", err)
	}
	keys := make([]*Key, n, n+len(authKeys))
	for i := range keys {
		keys[i] = key
	}
	keys = append(keys, authKeys...)
	creds, err := credentials(ub, keys)
	if err != nil {
		return nil, err
	}
	if len(authKeys) > 0 {
		auth := secp256k1fx.Credential{}
		for _, c := range creds[n:] {
			auth.Sigs = append(auth.Sigs, c.Sigs...)
		}
		creds = append(creds[:n], auth)
	} else if _, ok := unsigned.(*txs.CreateChainTx); ok {
		creds = append(creds, secp256k1fx.Credential{Sigs: []secp256k1fx.Signature{}})
	}
	tx, err := txs.NewTx(unsigned, creds)
	if err != nil {
		return nil, fmt.Errorf("encode the signed tx: %w", err)
	}
	return tx, nil
}

// pSpendable is a P-Chain UTXO a key can spend alone.
type pSpendable struct {
	ux       *txs.UTXO
	amount   uint64
	sigIndex uint32
}

// fund returns a BaseTx with outs plus inputs of AVAX covering need, and the change to key. It
// spends the largest UTXOs first.
func (b *PBuilder) fund(key *Key, utxos []*txs.UTXO, outs []txs.TransferableOutput, need uint64) (*txs.BaseTx, error) {
	var (
		got uint64
		ins []txs.TransferableInput
	)
	for _, s := range b.spendable(key, utxos) {
		if got >= need && len(ins) > 0 {
			break
		}
		if got+s.amount < got {
			break
		}
		got += s.amount
		ins = append(ins, s.input(b.AVAXAssetID))
	}
	if got < need || len(ins) == 0 {
		return nil, insufficientFundsError(b.AVAXAssetID, got, max(need, 1))
	}
	if got > need {
		outs = append(outs, txs.TransferTo(b.AVAXAssetID, got-need, key.Address()))
	}
	slices.SortFunc(ins, func(a, c txs.TransferableInput) int {
		return comparePInputs(a.TxID, a.OutputIndex, c.TxID, c.OutputIndex)
	})
	if err := sortPOutputs(outs); err != nil {
		return nil, err
	}
	return &txs.BaseTx{NetworkID: b.NetworkID, Outs: outs, Ins: ins, Memo: []byte{}}, nil
}

// spendable returns the AVAX UTXOs key can spend alone now, largest first, then in UTXO order.
func (b *PBuilder) spendable(key *Key, utxos []*txs.UTXO) []pSpendable {
	var avail []pSpendable
	for _, ux := range utxos {
		to, ok := ux.Out.(*secp256k1fx.TransferOutput)
		if !ok || ux.AssetID != b.AVAXAssetID || to.Threshold != 1 || to.Locktime > b.Time {
			continue
		}
		if i := slices.Index(to.Addrs, key.Address()); i >= 0 {
			avail = append(avail, pSpendable{ux: ux, amount: to.Amount, sigIndex: uint32(i)})
		}
	}
	slices.SortFunc(avail, func(a, c pSpendable) int {
		if d := cmp.Compare(c.amount, a.amount); d != 0 {
			return d
		}
		return comparePInputs(a.ux.TxID, a.ux.OutputIndex, c.ux.TxID, c.ux.OutputIndex)
	})
	return avail
}

// input returns the input that spends s.
func (s pSpendable) input(assetID ids.ID) txs.TransferableInput {
	return txs.TransferableInput{UTXOID: s.ux.UTXOID, AssetID: assetID, In: utxo.Spend(s.amount, s.sigIndex)}
}

func comparePInputs(aTx ids.ID, aIdx uint32, bTx ids.ID, bIdx uint32) int {
	if c := aTx.Compare(bTx); c != 0 {
		return c
	}
	return cmp.Compare(aIdx, bIdx)
}

// sortPOutputs sorts outputs by their codec bytes (§3.3).
func sortPOutputs(outs []txs.TransferableOutput) error {
	keys := make(map[*txs.TransferableOutput][]byte, len(outs))
	for i := range outs {
		p := codec.NewPacker(make([]byte, 0, 96))
		outs[i].Marshal(p)
		k, err := p.Bytes()
		if err != nil {
			return fmt.Errorf("encode output %d: %w", i, err)
		}
		keys[&outs[i]] = k
	}
	sorted := slices.Clone(outs)
	idx := make([]int, len(outs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, c int) int { return bytes.Compare(keys[&outs[a]], keys[&outs[c]]) })
	for i, j := range idx {
		sorted[i] = outs[j]
	}
	copy(outs, sorted)
	return nil
}

// ConvertSubnet returns a ConvertSubnetToL1Tx turning subnetID into an L1 managed by address on
// chainID with validators (sorted here by node ID), paid by key, which also pays the validators'
// balances, and authorized by auth as the subnet's owner. Validator i's validation ID is the
// tx's ValidationID(i) (§2.3), in the sorted order.
func (b *PBuilder) ConvertSubnet(key *Key, utxos []*txs.UTXO, subnetID, chainID ids.ID, address []byte, validators []txs.ConvertSubnetToL1Validator, auth PAuth) (*txs.Tx, error) {
	vals := slices.Clone(validators)
	slices.SortFunc(vals, func(a, c txs.ConvertSubnetToL1Validator) int { return bytes.Compare(a.NodeID, c.NodeID) })
	var total uint64
	for _, v := range vals {
		if total+v.Balance < total {
			return nil, fmt.Errorf("%w: the validators' balances exceed 2^64-1", ErrInsufficientFunds)
		}
		total += v.Balance
	}
	return b.build(key, utxos, total, nil, auth.Keys, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.ConvertSubnetToL1Tx{
			BaseTx:     base,
			SubnetID:   subnetID,
			ChainID:    chainID,
			Address:    slices.Clone(address),
			Validators: vals,
			SubnetAuth: secp256k1fx.Input{SigIndices: auth.SigIndices},
		}
	})
}

// IncreaseBalance returns an IncreaseL1ValidatorBalanceTx adding amount nAVAX to the balance of
// the L1 validator validationID, paid by key.
func (b *PBuilder) IncreaseBalance(key *Key, utxos []*txs.UTXO, validationID ids.ID, amount uint64) (*txs.Tx, error) {
	if amount == 0 {
		return nil, ErrZeroAmount
	}
	return b.build(key, utxos, amount, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.IncreaseL1ValidatorBalanceTx{BaseTx: base, ValidationID: validationID, Balance: amount}
	})
}

// RegisterValidator returns a RegisterL1ValidatorTx adding the L1 validator that message (a
// signed warp message carrying a RegisterL1Validator) names, with balance nAVAX paid by key and
// pop, the proof of possession of the message's BLS key (§4.3, §4.4).
func (b *PBuilder) RegisterValidator(key *Key, utxos []*txs.UTXO, balance uint64, pop [bls.SignatureLen]byte, message []byte) (*txs.Tx, error) {
	return b.build(key, utxos, balance, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.RegisterL1ValidatorTx{BaseTx: base, Balance: balance, ProofOfPossession: pop, Message: slices.Clone(message)}
	})
}

// SetValidatorWeight returns a SetL1ValidatorWeightTx carrying message (a signed warp message
// carrying an L1ValidatorWeight), paid by key.
func (b *PBuilder) SetValidatorWeight(key *Key, utxos []*txs.UTXO, message []byte) (*txs.Tx, error) {
	return b.build(key, utxos, 0, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.SetL1ValidatorWeightTx{BaseTx: base, Message: slices.Clone(message)}
	})
}

// DisableValidator returns a DisableL1ValidatorTx deactivating the L1 validator validationID,
// paid by key and authorized by auth as the validator's deactivation owner. The remaining
// balance is refunded to the validator's remaining balance owner (§4.4).
func (b *PBuilder) DisableValidator(key *Key, utxos []*txs.UTXO, validationID ids.ID, auth PAuth) (*txs.Tx, error) {
	return b.build(key, utxos, 0, nil, auth.Keys, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.DisableL1ValidatorTx{
			BaseTx:       base,
			ValidationID: validationID,
			DisableAuth:  secp256k1fx.Input{SigIndices: auth.SigIndices},
		}
	})
}

// AddValidator returns an AddPermissionlessValidatorTx staking v.Weight nAVAX of key's AVAX for
// the Primary Network validator v (its Start is written as given: the chain starts the validator
// at its own time, §4.9) with the BLS key and proof of possession pop, a delegation fee of shares
// parts per million, and rewardsOwner receiving both the validation and the delegation rewards;
// signed and paid by key. The stake comes back to key's address at the end.
func (b *PBuilder) AddValidator(key *Key, utxos []*txs.UTXO, v txs.Validator, pop txs.ProofOfPossession, shares uint32, rewardsOwner ids.ShortID) (*txs.Tx, error) {
	if v.Weight == 0 {
		return nil, ErrZeroAmount
	}
	owner := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{rewardsOwner}}
	return b.build(key, utxos, v.Weight, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.AddPermissionlessValidatorTx{
			BaseTx:                base,
			Validator:             v,
			Signer:                &pop,
			Stake:                 []txs.TransferableOutput{txs.TransferTo(b.AVAXAssetID, v.Weight, key.Address())},
			ValidatorRewardsOwner: owner,
			DelegatorRewardsOwner: owner,
			DelegationShares:      shares,
		}
	})
}

// AddDelegator returns an AddPermissionlessDelegatorTx delegating v.Weight nAVAX of key's AVAX
// to the Primary Network validator of node v.NodeID until v.End, its reward to rewardsOwner;
// signed and paid by key. The stake comes back to key's address at the end.
func (b *PBuilder) AddDelegator(key *Key, utxos []*txs.UTXO, v txs.Validator, rewardsOwner ids.ShortID) (*txs.Tx, error) {
	if v.Weight == 0 {
		return nil, ErrZeroAmount
	}
	return b.build(key, utxos, v.Weight, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.AddPermissionlessDelegatorTx{
			BaseTx:       base,
			Validator:    v,
			Stake:        []txs.TransferableOutput{txs.TransferTo(b.AVAXAssetID, v.Weight, key.Address())},
			RewardsOwner: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{rewardsOwner}},
		}
	})
}

// Burned returns the AVAX tx burns: its AVAX inputs less its AVAX outputs and stake. It is the
// fee the chain charged (§4.8).
func (b *PBuilder) Burned(tx *txs.Tx) uint64 {
	var in, out uint64
	base := tx.Unsigned().Base()
	for i := range base.Ins {
		if ti, ok := base.Ins[i].In.(*secp256k1fx.TransferInput); ok && base.Ins[i].AssetID == b.AVAXAssetID {
			in += ti.Amount
		}
	}
	outs := slices.Clone(base.Outs)
	switch u := tx.Unsigned().(type) {
	case *txs.AddPermissionlessValidatorTx:
		outs = append(outs, u.Stake...)
	case *txs.AddPermissionlessDelegatorTx:
		outs = append(outs, u.Stake...)
	}
	for i := range outs {
		if to, ok := outs[i].Out.(*secp256k1fx.TransferOutput); ok && outs[i].AssetID == b.AVAXAssetID {
			out += to.Amount
		}
	}
	return in - out
}
