package info

import (
	"context"
	"math/bits"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// ACPs reports, for each ACP, the Primary Network stake of connected validators that support it,
// object to it, or neither (node-api.md §3.1; computed for real, reference/README.md).
//
// Each connected peer with non-zero Primary Network weight adds its weight and NodeID to the ACPs
// it supports and objects to. The node itself is not counted. Every ACP of Config.ACPs then gets
// abstainWeight = total − support − object; an ACP seen only from peers keeps abstainWeight 0, as in
// the reference.
func (s *Service) ACPs(context.Context, *struct{}) (*ACPsReply, error) {
	total, err := s.deps.Validators.TotalWeight(ids.Empty)
	if err != nil {
		// The reference returns the lookup's error as is (§3.1).
		return nil, err
	}

	acps := make(map[uint32]*ACPPreference)
	entry := func(acp uint32) *ACPPreference {
		e := acps[acp]
		if e == nil {
			e = &ACPPreference{Supporters: []ids.NodeID{}, Objectors: []ids.NodeID{}}
			acps[acp] = e
		}
		return e
	}
	for _, p := range s.validatorPeers(s.setWeight(ids.Empty)) {
		// sortedACPs also removes duplicates, so a peer's weight counts once per ACP.
		for _, acp := range sortedACPs(p.peer.SupportedACPs) {
			e := entry(acp)
			e.Supporters = append(e.Supporters, p.peer.NodeID)
			e.SupportWeight += jsonrpc.Uint64(p.weight)
		}
		for _, acp := range sortedACPs(p.peer.ObjectedACPs) {
			e := entry(acp)
			e.Objectors = append(e.Objectors, p.peer.NodeID)
			e.ObjectWeight += jsonrpc.Uint64(p.weight)
		}
	}
	for _, acp := range s.cfg.ACPs {
		e := entry(acp)
		// Weights are read one at a time while the set may change, so support and objection can
		// briefly exceed the total; abstention then saturates at 0 instead of wrapping.
		stated, carry := bits.Add64(uint64(e.SupportWeight), uint64(e.ObjectWeight), 0)
		e.AbstainWeight = 0
		if carry == 0 && stated <= total {
			e.AbstainWeight = jsonrpc.Uint64(total - stated)
		}
	}
	for _, e := range acps {
		sortedNodeIDs(e.Supporters)
		sortedNodeIDs(e.Objectors)
	}
	return &ACPsReply{ACPs: acps}, nil
}

// Uptime reports how this node's uptime looks to the validators of a subnet, weighted by their
// stake (node-api.md §3.12). Without subnetID it is the Primary Network, as in the reference; with
// it, the same computation runs over that subnet's validators and the uptimes its peers report for
// that subnet (reference/README.md). The weights of a subnet other than the Primary Network come
// from Deps.SubnetValidators when it is set, the P-Chain's current set of that subnet or L1, the
// data validators.getCurrentValidators serves; otherwise from Deps.Validators.
//
// The node counts itself 100% up. Each connected validator adds its observed uptime times its
// weight, and its weight to the rewarding stake if that uptime meets Config.UptimeRequirement.
// Validators that are not connected count as 0% but stay in the total. On a single node without
// peers, a validator of the subnet is therefore 100% up.
func (s *Service) Uptime(ctx context.Context, args *UptimeArgs) (*UptimeReply, error) {
	subnetID := args.SubnetID
	weight, total, err := s.uptimeWeights(ctx, subnetID)
	if err != nil {
		return nil, uptimeError(err)
	}
	myStake := weight(s.cfg.NodeID)

	// Float arithmetic in the reference's order, so results match it to the last digit.
	weighted := 100 * float64(myStake)
	rewarding := float64(myStake)
	for _, p := range s.validatorPeers(weight) {
		uptime := float64(min(p.peer.observedUptime(subnetID), 100))
		w := float64(p.weight)
		weighted += uptime * w
		if uptime/100 >= s.cfg.UptimeRequirement {
			rewarding += w
		}
	}
	return &UptimeReply{
		RewardingStakePercentage:  jsonrpc.Float64(100 * rewarding / float64(total)),
		WeightedAveragePercentage: jsonrpc.Float64(weighted / float64(total)),
	}, nil
}

// uptimeWeights returns how to weigh the validators of subnetID and their total weight, for
// info.uptime. It fails with errNotValidator when this node has no weight in the set.
func (s *Service) uptimeWeights(ctx context.Context, subnetID ids.ID) (func(ids.NodeID) uint64, uint64, error) {
	if subnetID == ids.Empty || s.deps.SubnetValidators == nil {
		weight := s.setWeight(subnetID)
		if weight(s.cfg.NodeID) == 0 {
			return nil, 0, errNotValidator
		}
		total, err := s.deps.Validators.TotalWeight(subnetID)
		if err != nil {
			return nil, 0, err
		}
		if total == 0 {
			// The node left the set between the two reads.
			return nil, 0, errNotValidator
		}
		return weight, total, nil
	}

	weights, err := s.deps.SubnetValidators.SubnetWeights(ctx, subnetID)
	if err != nil {
		return nil, 0, err
	}
	if weights[s.cfg.NodeID] == 0 {
		return nil, 0, errNotValidator
	}
	var total uint64
	for _, w := range weights {
		sum, carry := bits.Add64(total, w, 0)
		if carry != 0 {
			return nil, 0, errTotalWeightOverflow
		}
		total = sum
	}
	return func(nodeID ids.NodeID) uint64 { return weights[nodeID] }, total, nil
}

// setWeight returns the weight of a node in subnetID's set of Deps.Validators.
func (s *Service) setWeight(subnetID ids.ID) func(ids.NodeID) uint64 {
	return func(nodeID ids.NodeID) uint64 { return s.deps.Validators.GetWeight(subnetID, nodeID) }
}

// weightedPeer is a connected peer with its weight in one validator set.
type weightedPeer struct {
	peer   *Peer
	weight uint64
}

// validatorPeers returns the connected peers with non-zero weight in a validator set, in the order
// of the peer set. The node itself and repeated NodeIDs are left out, so no stake counts twice.
func (s *Service) validatorPeers(weight func(ids.NodeID) uint64) []weightedPeer {
	connected := s.deps.Peers.Connected()
	out := make([]weightedPeer, 0, len(connected))
	seen := make(map[ids.NodeID]bool, len(connected))
	for i := range connected {
		p := &connected[i]
		if p.NodeID == s.cfg.NodeID || seen[p.NodeID] {
			continue
		}
		seen[p.NodeID] = true
		if w := weight(p.NodeID); w > 0 {
			out = append(out, weightedPeer{peer: p, weight: w})
		}
	}
	return out
}

// observedUptime returns the uptime, 0–100, the peer reports for this node on subnetID.
func (p *Peer) observedUptime(subnetID ids.ID) uint32 {
	if subnetID == ids.Empty {
		return p.ObservedUptime
	}
	return p.ObservedSubnetUptimes[subnetID]
}
