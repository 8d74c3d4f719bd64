package platform

import (
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// A RewardValidatorTx ends a staker's period. Nobody issues one: the builder puts it into a
// proposal block at the staker's end time, and the option block that follows decides it
// (proposal.go). Its effects are rewardEffects'.

func (*syntacticCheck) RewardValidatorTx(*txs.RewardValidatorTx) error {
	return ErrCantIssueRewardValidatorTx
}

func (*executor) RewardValidatorTx(*txs.RewardValidatorTx) error {
	return ErrCantIssueRewardValidatorTx
}

// The reward tx is written by the option block that decides it (writer.putDecision).
func (txIndexer) RewardValidatorTx(*txs.RewardValidatorTx) error { return nil }

// rewardEffects returns what deciding reward tx rt on src changes (§4.10): the staker leaves
// and its stake comes back as UTXOs of its staking tx, at output indexes len(outs)+i. On
// commit a validator is paid its potential reward and, at the next index, what it earned from
// its delegators; a delegator is paid its part of its potential reward, the validator's cut
// accruing to the validator. On abort only the stake comes back (and a validator's earnings
// from its delegators, which its delegators' uptime decided), and the potential reward leaves
// the supply. The staking tx is read from the accepted state: a staker's end is at least the
// minimum staking period after its tx, which is long accepted by then.
func (vm *VM) rewardEffects(src utxoSource, rt *txs.Tx, commit bool) (*effects, error) {
	rv, ok := rt.Unsigned().(*txs.RewardValidatorTx)
	if !ok {
		return nil, fmt.Errorf("%w: proposal tx is a %T", ErrWrongBlockType, rt.Unsigned())
	}
	st, found, err := src.staker(rv.TxID)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("%w: staker %s", utxo.ErrUTXONotFound, rv.TxID)
	}
	stx, found, err := vm.accepted.Tx(rv.TxID)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("platform: staking tx %s is not accepted", rv.TxID)
	}
	eff := &effects{
		Effects:        utxo.Effects[txs.UTXO, *txs.UTXO]{Tx: rt.ID()},
		removedStakers: []ids.ID{st.txID},
	}
	next := uint32(len(stx.Unsigned().Base().Outs))
	pay := func(amount uint64, owner *secp256k1fx.OutputOwners, reward bool) {
		ux := txs.UTXO{
			UTXOID:  utxo.UTXOID{TxID: st.txID, OutputIndex: next},
			AssetID: vm.rules.avaxAssetID,
			Out: &secp256k1fx.TransferOutput{Amount: amount, OutputOwners: secp256k1fx.OutputOwners{
				Locktime: owner.Locktime, Threshold: owner.Threshold, Addrs: slices.Clone(owner.Addrs),
			}},
		}
		next++
		eff.Produced = append(eff.Produced, ux)
		if reward {
			eff.rewardUTXOs = append(eff.rewardUTXOs, ux)
		}
	}
	var stake []txs.TransferableOutput
	switch u := stx.Unsigned().(type) {
	case *txs.AddPermissionlessValidatorTx:
		stake = u.Stake
	case *txs.AddPermissionlessDelegatorTx:
		stake = u.Stake
	default:
		return nil, fmt.Errorf("platform: staker %s was added by a %T", st.txID, u)
	}
	// The stake comes back as it was staked: a genesis staker's may be locked (§4.6).
	for i := range stake {
		eff.Produced = append(eff.Produced, txs.UTXO{
			UTXOID: utxo.UTXOID{TxID: st.txID, OutputIndex: next}, AssetID: stake[i].AssetID, Out: stake[i].Out,
		})
		next++
	}
	if !commit {
		eff.supplyRemoved = st.potentialReward
	}
	switch u := stx.Unsigned().(type) {
	case *txs.AddPermissionlessValidatorTx:
		if commit && st.potentialReward > 0 {
			pay(st.potentialReward, &u.ValidatorRewardsOwner, true)
		}
		if st.delegateeReward > 0 {
			pay(st.delegateeReward, &u.DelegatorRewardsOwner, true)
		}
	case *txs.AddPermissionlessDelegatorTx:
		if !commit || st.potentialReward == 0 {
			return eff, nil
		}
		stakers, err := src.nodeStakers(st.nodeID)
		if err != nil {
			return nil, err
		}
		val := validatorOf(stakers)
		if val == nil {
			return nil, fmt.Errorf("platform: delegator %s has no validator", st.txID)
		}
		vtx, found, err := vm.accepted.Tx(val.txID)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, fmt.Errorf("platform: validator tx %s is not accepted", val.txID)
		}
		shares := vtx.Unsigned().(*txs.AddPermissionlessValidatorTx).DelegationShares
		validatorCut, delegatorPart := splitReward(st.potentialReward, shares)
		if delegatorPart > 0 {
			pay(delegatorPart, &u.RewardsOwner, true)
		}
		if validatorCut > 0 {
			v := *val
			v.delegateeReward = satAdd(v.delegateeReward, validatorCut)
			eff.stakers = []*staker{&v}
		}
	}
	return eff, nil
}
