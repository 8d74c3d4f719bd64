package platform

import (
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The staking validators and delegators as the platform API shows them (stakers.go).

// stakerValidators returns the current staking validators of the Primary Network, those of
// nodeIDs only if it is not empty, in node ID order, each with its delegators' count and weight,
// and the delegators themselves when exactly one node ID is asked for (§5.1).
func (s *service) stakerValidators(nodeIDs []ids.NodeID) ([]any, error) {
	all, err := s.vm.state.allStakers()
	if err != nil {
		return nil, err
	}
	byNode := make(map[ids.NodeID][]*staker)
	for _, st := range all {
		if len(nodeIDs) == 0 || slices.Contains(nodeIDs, st.nodeID) {
			byNode[st.nodeID] = append(byNode[st.nodeID], st)
		}
	}
	nodes := make([]ids.NodeID, 0, len(byNode))
	for id := range byNode {
		nodes = append(nodes, id)
	}
	slices.SortFunc(nodes, ids.NodeID.Compare)
	out := make([]any, 0, len(nodes))
	for _, id := range nodes {
		v, err := s.stakerValidator(byNode[id], len(nodeIDs) == 1)
		if err != nil {
			return nil, err
		}
		if v != nil {
			out = append(out, *v)
		}
	}
	return out, nil
}

// stakerValidator returns the validator among one node's stakers with its delegators, or nil.
func (s *service) stakerValidator(stakers []*staker, listDelegators bool) (*api.APIPrimaryValidator, error) {
	val := validatorOf(stakers)
	if val == nil {
		return nil, nil
	}
	tx, err := s.stakingTx(val.txID)
	if err != nil {
		return nil, err
	}
	u, ok := tx.Unsigned().(*txs.AddPermissionlessValidatorTx)
	if !ok {
		return nil, fmt.Errorf("platform: validator tx %s is a %T", val.txID, tx.Unsigned())
	}
	out := &api.APIPrimaryValidator{
		TxID:                   val.txID,
		StartTime:              jsonrpc.Uint64(val.start),
		EndTime:                jsonrpc.Uint64(val.end),
		Weight:                 jsonrpc.Uint64(val.weight),
		NodeID:                 val.nodeID,
		PotentialReward:        jsonrpc.Uint64(val.potentialReward),
		AccruedDelegateeReward: jsonrpc.Uint64(val.delegateeReward),
		DelegationFee:          fmt.Sprintf("%.4f", float32(100*float64(u.DelegationShares)/PercentDenominator)),
		Uptime:                 fmt.Sprintf("%.4f", float32(100*s.vm.uptime(val.nodeID))),
		Connected:              s.vm.connected(val.nodeID),
	}
	if out.ValidationRewardOwner, err = s.apiOwner(&u.ValidatorRewardsOwner); err != nil {
		return nil, err
	}
	if out.DelegationRewardOwner, err = s.apiOwner(&u.DelegatorRewardsOwner); err != nil {
		return nil, err
	}
	if pop, ok := u.Signer.(*txs.ProofOfPossession); ok {
		out.Signer = &api.APISigner{PublicKey: hexString(pop.PublicKey[:]), ProofOfPossession: hexString(pop.Signature[:])}
	}
	var delegators []api.APIPrimaryDelegator
	for _, d := range stakers {
		if !d.delegator {
			continue
		}
		out.DelegatorCount++
		out.DelegatorWeight += jsonrpc.Uint64(d.weight)
		if !listDelegators {
			continue
		}
		dtx, err := s.stakingTx(d.txID)
		if err != nil {
			return nil, err
		}
		du, ok := dtx.Unsigned().(*txs.AddPermissionlessDelegatorTx)
		if !ok {
			return nil, fmt.Errorf("platform: delegator tx %s is a %T", d.txID, dtx.Unsigned())
		}
		owner, err := s.apiOwner(&du.RewardsOwner)
		if err != nil {
			return nil, err
		}
		delegators = append(delegators, api.APIPrimaryDelegator{
			TxID: d.txID, StartTime: jsonrpc.Uint64(d.start), EndTime: jsonrpc.Uint64(d.end),
			Weight: jsonrpc.Uint64(d.weight), NodeID: d.nodeID, RewardOwner: owner,
			PotentialReward: jsonrpc.Uint64(d.potentialReward),
		})
	}
	if listDelegators {
		if delegators == nil {
			delegators = []api.APIPrimaryDelegator{}
		}
		out.Delegators = &delegators
	}
	return out, nil
}

// stakingTx returns the committed staking tx of a current staker.
func (s *service) stakingTx(txID ids.ID) (*txs.Tx, error) {
	tx, found, err := s.vm.state.Tx(txID)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("platform: staking tx %s is missing", txID)
	}
	return tx, nil
}

// apiOwner returns o as the API shows reward owners.
func (s *service) apiOwner(o *secp256k1fx.OutputOwners) (*api.APIOwner, error) {
	addrs, err := s.formatAddresses(o.Addrs)
	if err != nil {
		return nil, err
	}
	return &api.APIOwner{Locktime: jsonrpc.Uint64(o.Locktime), Threshold: jsonrpc.Uint64(o.Threshold), Addresses: addrs}, nil
}

// hexString is "0x" + the lowercase hex of b.
func hexString(b []byte) string { return fmt.Sprintf("0x%x", b) }
