package platform

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Read accessors for the node (validator sets, chains to run, subnets to track). Each reads the
// committed state of the last accepted block, one published state for all its reads when it makes
// several (state.pinned: an index and the records it names, the chain time and the windows it
// filters), is safe for concurrent use with the pipeline and the API, and returns values the
// caller owns.

// SubnetValidator is a legacy subnet validator: one added by an AddSubnetValidatorTx (§4.3).
type SubnetValidator struct {
	// TxID is the ID of its AddSubnetValidatorTx.
	TxID   ids.ID
	NodeID ids.NodeID
	Weight uint64
	// StartTime and EndTime are the tx's validation window, in unix seconds.
	StartTime uint64
	EndTime   uint64
}

// Blockchain is a chain created by a CreateChainTx, the genesis's X- and C-Chains (SubnetID
// ids.Empty, the primary network) included.
type Blockchain struct {
	// ID is the chain's ID: its CreateChainTx's ID (§2.3).
	ID       ids.ID
	SubnetID ids.ID
	Name     string
	VMID     ids.ID
	// Genesis is the chain's genesis data.
	Genesis []byte
}

// SubnetInfo describes a subnet: its owner and, once it is an L1, its conversion (§4.4).
type SubnetInfo struct {
	ID ids.ID
	// Owner is the subnet's owner, from its CreateSubnetTx; it no longer authorizes anything once
	// the subnet is an L1.
	Owner secp256k1fx.OutputOwners
	// IsL1 is true once a ConvertSubnetToL1Tx converted the subnet; the fields below are set then.
	IsL1           bool
	ConversionID   ids.ID
	ManagerChainID ids.ID
	ManagerAddress []byte
}

// Height returns the height of the last accepted block, as committed: the same block the other
// accessors read. If the database cannot be read it returns the height the VM last heard of.
func (vm *VM) Height() uint64 {
	rec, found, err := vm.state.lastAccepted()
	if err != nil || !found {
		return vm.Last().Height()
	}
	return rec.height
}

// chainTime returns the chain time of the accepted state s: the last accepted block's time.
func (vm *VM) chainTime(s *state) (uint64, error) {
	rec, _, err := s.lastAccepted()
	if err != nil {
		return 0, fmt.Errorf("read last accepted block: %w", err)
	}
	return rec.fees.time, nil
}

// SubnetValidators returns the legacy validators of subnetID whose window contains the chain time
// (StartTime ≤ chain time < EndTime), in tx ID order. An L1 keeps its legacy validators until
// their windows end, as in the reference (§5.1). For the Primary Network (ids.Empty) it is this
// node (Factory, with no TxID) and the nodes of the current staking validators (primaryValidators).
func (vm *VM) SubnetValidators(subnetID ids.ID) ([]SubnetValidator, error) {
	s, release := vm.state.pinned()
	defer release()
	return vm.subnetValidators(s, subnetID)
}

// subnetValidators is SubnetValidators over the accepted state s: the chain time and the
// validators it filters must come from one state, or a block accepted between them could end a
// window the answer still shows.
func (vm *VM) subnetValidators(s *state, subnetID ids.ID) ([]SubnetValidator, error) {
	now, err := vm.chainTime(s)
	if err != nil {
		return nil, err
	}
	if subnetID == ids.Empty {
		return vm.primaryValidators(s, now)
	}
	all, err := s.subnetValidators(subnetID)
	if err != nil {
		return nil, err
	}
	out := make([]SubnetValidator, 0, len(all))
	for _, v := range all {
		if v.StartTime <= now && now < v.EndTime {
			out = append(out, v)
		}
	}
	return out, nil
}

// Blockchains returns every chain created on the P-Chain: the subnets' chains (subnets in ID
// order) first, the primary network's (SubnetID ids.Empty: X and C) last; within a subnet, in ID
// order. Callers that run only some subnets filter by SubnetID.
func (vm *VM) Blockchains() ([]Blockchain, error) {
	s, release := vm.state.pinned()
	defer release()
	subnetIDs, err := s.subnetIDs()
	if err != nil {
		return nil, fmt.Errorf("list subnets: %w", err)
	}
	subnetIDs = append(subnetIDs, ids.Empty)
	var out []Blockchain
	for _, subnetID := range subnetIDs {
		chainIDs, err := s.chainIDs(subnetID)
		if err != nil {
			return nil, fmt.Errorf("list chains of subnet %s: %w", subnetID, err)
		}
		for _, id := range chainIDs {
			cc, err := s.createChainTx(id)
			switch {
			case err != nil:
				return nil, err
			case cc == nil:
				return nil, fmt.Errorf("platform: chain %s has no CreateChainTx", id)
			}
			out = append(out, Blockchain{
				ID:       id,
				SubnetID: cc.SubnetID,
				Name:     cc.ChainName,
				VMID:     cc.VMID,
				Genesis:  bytes.Clone(cc.GenesisData),
			})
		}
	}
	return out, nil
}

// Subnet returns the subnet subnetID; found is false for an unknown subnet and for the primary
// network (ids.Empty), which is not a subnet (§5.1).
func (vm *VM) Subnet(subnetID ids.ID) (SubnetInfo, bool, error) {
	if subnetID == ids.Empty {
		return SubnetInfo{}, false, nil
	}
	s, release := vm.state.pinned()
	defer release()
	ok, err := s.DB().Has(chainstate.IDKey(keySubnet, subnetID))
	if err != nil || !ok {
		return SubnetInfo{}, false, err
	}
	owner, err := s.subnetOwner(subnetID)
	if err != nil {
		return SubnetInfo{}, false, err
	}
	info := SubnetInfo{
		ID: subnetID,
		Owner: secp256k1fx.OutputOwners{
			Locktime:  owner.Locktime,
			Threshold: owner.Threshold,
			Addrs:     append([]ids.ShortID(nil), owner.Addrs...),
		},
	}
	conv, converted, err := s.conversion(subnetID)
	switch {
	case err != nil:
		return SubnetInfo{}, false, err
	case converted:
		info.IsL1 = true
		info.ConversionID = conv.conversionID
		info.ManagerChainID = conv.chainID
		info.ManagerAddress = bytes.Clone(conv.address)
	}
	return info, true, nil
}

// ValidatesSubnet reports whether nodeID validates subnetID: for the primary network (ids.Empty),
// whether it is this node; otherwise whether it is a current legacy validator of the subnet
// (SubnetValidators) or one of its L1 validators with a weight above 0, active or not. An
// inactive L1 validator (its balance ran out, or it was disabled) still counts: it stays
// registered with its weight and is active again after an IncreaseL1ValidatorBalanceTx (§4.7), so
// a node should keep running the L1's chains.
func (vm *VM) ValidatesSubnet(nodeID ids.NodeID, subnetID ids.ID) (bool, error) {
	if subnetID == ids.Empty {
		return nodeID == vm.validator.nodeID, nil
	}
	s, release := vm.state.pinned()
	defer release()
	legacy, err := vm.subnetValidators(s, subnetID)
	if err != nil {
		return false, err
	}
	for _, v := range legacy {
		if v.NodeID == nodeID {
			return true, nil
		}
	}
	vids, err := s.l1ValidatorIDs(subnetID)
	if err != nil {
		return false, err
	}
	for _, id := range vids {
		v, found, err := s.l1Validator(id)
		switch {
		case err != nil:
			return false, err
		case found && v.nodeID == nodeID && v.weight > 0:
			return true, nil
		}
	}
	return false, nil
}

// subnetValidators returns every AddSubnetValidatorTx of subnetID, in tx ID order.
func (s *state) subnetValidators(subnetID ids.ID) ([]SubnetValidator, error) {
	txIDs, err := chainstate.IDsUnder(s.DB(), append([]byte{keySubnetValidator}, subnetID[:]...), ids.Empty, chainstate.All)
	if err != nil {
		return nil, fmt.Errorf("list validators of subnet %s: %w", subnetID, err)
	}
	out := make([]SubnetValidator, 0, len(txIDs))
	for _, id := range txIDs {
		tx, found, err := s.Tx(id)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, fmt.Errorf("platform: subnet validator tx %s is missing", id)
		}
		u, ok := tx.Unsigned().(*txs.AddSubnetValidatorTx)
		if !ok {
			return nil, fmt.Errorf("platform: subnet validator tx %s is a %T", id, tx.Unsigned())
		}
		out = append(out, SubnetValidator{
			TxID:      id,
			NodeID:    u.Validator.NodeID,
			Weight:    u.Validator.Weight,
			StartTime: u.Validator.Start,
			EndTime:   u.Validator.End,
		})
	}
	return out, nil
}

// createChainTx returns the committed CreateChainTx of chain id, or nil if there is none.
func (s *state) createChainTx(id ids.ID) (*txs.CreateChainTx, error) {
	tx, found, err := s.Tx(id)
	if err != nil || !found {
		return nil, err
	}
	cc, ok := tx.Unsigned().(*txs.CreateChainTx)
	if !ok {
		return nil, nil
	}
	return cc, nil
}

// PrimaryStakers returns the Primary Network's current staking validators as the platform API
// lists them (getCurrentValidators), the genesis's stakers included: one per node, in node ID
// order, with its validator tx, its own stake and window. Delegators are left out.
func (vm *VM) PrimaryStakers() ([]SubnetValidator, error) {
	stakers, err := vm.state.allStakers()
	if err != nil {
		return nil, fmt.Errorf("read stakers: %w", err)
	}
	out := []SubnetValidator{}
	for _, st := range stakers {
		if !st.delegator {
			out = append(out, SubnetValidator{TxID: st.txID, NodeID: st.nodeID, Weight: st.weight, StartTime: st.start, EndTime: st.end})
		}
	}
	slices.SortFunc(out, func(a, b SubnetValidator) int { return a.NodeID.Compare(b.NodeID) })
	return out, nil
}

// primaryValidators returns the Primary Network's validators in s at chain time now as this node runs
// the network (ValidatorsAt), one per node: this node (Factory), then each current staking
// validator's node in node ID order, with its delegators' weight. A staking validator of this
// node adds its stake to this node's entry; the genesis's stakers (and the delegators to them) are
// left out, this node holding their weight.
func (vm *VM) primaryValidators(s *state, now uint64) ([]SubnetValidator, error) {
	stakers, err := s.allStakers()
	if err != nil {
		return nil, fmt.Errorf("read stakers: %w", err)
	}
	byNode := make(map[ids.NodeID]*SubnetValidator)
	var out []SubnetValidator
	if v := vm.validator; v.start <= now && now < v.end {
		out = append(out, SubnetValidator{NodeID: v.nodeID, Weight: v.weight, StartTime: v.start, EndTime: v.end})
		byNode[v.nodeID] = &out[0]
	}
	var others []*SubnetValidator
	leftOut := map[ids.NodeID]bool{}
	for _, st := range stakers {
		if vm.isGenesisStaker(st.txID) {
			leftOut[st.nodeID] = true // and the delegators to it
		}
	}
	for _, st := range stakers {
		if leftOut[st.nodeID] {
			continue
		}
		sv, ok := byNode[st.nodeID]
		if !ok {
			sv = &SubnetValidator{NodeID: st.nodeID, StartTime: st.start, EndTime: st.end}
			byNode[st.nodeID] = sv
			others = append(others, sv)
		}
		if !st.delegator && sv.TxID == ids.Empty && st.nodeID != vm.validator.nodeID {
			sv.TxID, sv.StartTime, sv.EndTime = st.txID, st.start, st.end
		}
		sv.Weight = satAdd(sv.Weight, st.weight)
	}
	slices.SortFunc(others, func(a, b *SubnetValidator) int { return a.NodeID.Compare(b.NodeID) })
	if out == nil {
		out = []SubnetValidator{}
	}
	for _, sv := range others {
		out = append(out, *sv)
	}
	return out, nil
}
