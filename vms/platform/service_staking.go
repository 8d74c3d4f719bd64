package platform

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/internal/utxopage"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The staking and validator-set methods the reference lists without detail (§5.1 "Others
// present"), with its argument and reply shapes (avalanchego v1.14.2 vms/platformvm/service.go).

// registerStaking adds the methods of this file to srv.
func (s *service) registerStaking(srv *jsonrpc.Server) {
	jsonrpc.Register(srv, "getProposedHeight", s.GetProposedHeight)
	jsonrpc.Register(srv, "getStakingAssetID", s.GetStakingAssetID)
	jsonrpc.Register(srv, "getMinStake", s.GetMinStake)
	jsonrpc.Register(srv, "getTotalStake", s.GetTotalStake)
	jsonrpc.Register(srv, "getCurrentSupply", s.GetCurrentSupply)
	jsonrpc.Register(srv, "validatedBy", s.ValidatedBy)
	jsonrpc.Register(srv, "validates", s.Validates)
	jsonrpc.Register(srv, "sampleValidators", s.SampleValidators)
	jsonrpc.Register(srv, "getAllValidatorsAt", s.GetAllValidatorsAt)
	jsonrpc.Register(srv, "getStake", s.GetStake)
	jsonrpc.Register(srv, "getRewardUTXOs", s.GetRewardUTXOs)
}

// GetProposedHeight returns the height a new block would be proposed on. Cornice has no proposer
// VM, so that is the last accepted block's height, as platform.getHeight returns.
func (s *service) GetProposedHeight(context.Context, *struct{}) (*chainapi.GetHeightReply, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, s.internal("getProposedHeight", err)
	}
	return &chainapi.GetHeightReply{Height: jsonrpc.Uint64(rec.height)}, nil
}

// GetStakingAssetID returns the asset staked on the Primary Network, AVAX. Other subnets stake
// only once transformed, and this VM executes no TransformSubnetTx, so for them it fails as the
// reference does for an untransformed subnet.
func (s *service) GetStakingAssetID(_ context.Context, args *api.SubnetArgs) (*api.GetStakingAssetIDReply, error) {
	if args.SubnetID != ids.Empty {
		return nil, noTransformationError(args.SubnetID)
	}
	return &api.GetStakingAssetIDReply{AssetID: s.vm.rules.avaxAssetID}, nil
}

// GetMinStake returns the Primary Network's minimum validator and delegator stakes (§4.9); for
// other subnets it fails as GetStakingAssetID does.
func (s *service) GetMinStake(_ context.Context, args *api.SubnetArgs) (*api.GetMinStakeReply, error) {
	if args.SubnetID != ids.Empty {
		return nil, noTransformationError(args.SubnetID)
	}
	return &api.GetMinStakeReply{
		MinValidatorStake: jsonrpc.Uint64(s.vm.staking.MinValidatorStake),
		MinDelegatorStake: jsonrpc.Uint64(s.vm.staking.MinDelegatorStake),
	}, nil
}

// currentSet returns the validator set of subnetID after the last accepted block, and its height.
func (s *service) currentSet(subnetID ids.ID) ([]SetValidator, uint64, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, 0, err
	}
	set, err := s.vm.RecordedValidatorsAt(subnetID, rec.height)
	return set, rec.height, err
}

// GetTotalStake returns the total weight of the current validators of a subnet (the Primary
// Network by default: its stakers', the genesis's included); an unknown subnet weighs 0, as in the
// reference.
func (s *service) GetTotalStake(_ context.Context, args *api.SubnetArgs) (*api.GetTotalStakeReply, error) {
	set, _, err := s.currentSet(args.SubnetID)
	if err != nil {
		return nil, s.internal("getTotalStake", err)
	}
	var total uint64
	for _, v := range set {
		if total, err = add(total, v.Weight); err != nil {
			return nil, err
		}
	}
	return &api.GetTotalStakeReply{Stake: jsonrpc.Uint64(total), Weight: jsonrpc.Uint64(total)}, nil
}

// GetCurrentSupply returns the reference's upper bound on the AVAX supply, with the last accepted
// height: the genesis's initial supply plus the potential rewards of the stakers added since,
// less those not paid (§4.10). Burned fees do not lower it, as in the reference. Other subnets
// have no supply (no TransformSubnetTx).
func (s *service) GetCurrentSupply(_ context.Context, args *api.SubnetArgs) (*api.GetCurrentSupplyReply, error) {
	if args.SubnetID != ids.Empty {
		return nil, noSupplyError()
	}
	// The supply and the height it is given at, from one block: each block's batch writes both.
	st, release := s.vm.state.pinned()
	defer release()
	rec, _, err := st.lastAccepted()
	if err != nil {
		return nil, s.internal("getCurrentSupply", err)
	}
	supply, err := st.supply()
	if err != nil {
		return nil, s.internal("getCurrentSupply", err)
	}
	return &api.GetCurrentSupplyReply{Supply: jsonrpc.Uint64(supply), Height: jsonrpc.Uint64(rec.height)}, nil
}

// ValidatedBy returns the subnet of a committed chain; the P-Chain's (ids.Empty) is the Primary
// Network.
func (s *service) ValidatedBy(_ context.Context, args *api.ValidatedByArgs) (*api.ValidatedByReply, error) {
	if args.BlockchainID == ids.Empty {
		return &api.ValidatedByReply{SubnetID: ids.Empty}, nil
	}
	tx, found, err := s.vm.state.Tx(args.BlockchainID)
	switch {
	case err != nil:
		return nil, s.internal("validatedBy", err)
	case !found:
		return nil, blockchainNotFoundError(args.BlockchainID)
	}
	cc, ok := tx.Unsigned().(*txs.CreateChainTx)
	if !ok {
		return nil, notBlockchainError(args.BlockchainID)
	}
	return &api.ValidatedByReply{SubnetID: cc.SubnetID}, nil
}

// Validates returns the committed chains of a subnet, in ID order; for the Primary Network its
// chains created by the genesis (the P-Chain itself is not one).
func (s *service) Validates(_ context.Context, args *api.SubnetArgs) (*api.ValidatesReply, error) {
	if args.SubnetID != ids.Empty {
		tx, found, err := s.vm.state.Tx(args.SubnetID)
		switch {
		case err != nil:
			return nil, s.internal("validates", err)
		case !found:
			return nil, subnetNotFoundAPIError(args.SubnetID)
		}
		if _, ok := tx.Unsigned().(*txs.CreateSubnetTx); !ok {
			return nil, notSubnetError(args.SubnetID)
		}
	}
	chainIDs, err := s.vm.state.chainIDs(args.SubnetID)
	if err != nil {
		return nil, s.internal("validates", err)
	}
	if chainIDs == nil {
		chainIDs = []ids.ID{}
	}
	return &api.ValidatesReply{BlockchainIDs: chainIDs}, nil
}

// SampleValidators draws args.Size units of weight without replacement from the current
// validators of a subnet and returns their owners' node IDs, sorted: a validator appears once per
// unit drawn, as in the reference. Size 0 gives none; an empty set fails with "missing
// validators", a size above the total weight with "insufficient weight".
func (s *service) SampleValidators(_ context.Context, args *api.SampleValidatorsArgs) (*api.SampleValidatorsReply, error) {
	if args.Size == 0 {
		return &api.SampleValidatorsReply{Validators: []ids.NodeID{}}, nil
	}
	set, _, err := s.currentSet(args.SubnetID)
	if err != nil {
		return nil, s.internal("sampleValidators", err)
	}
	if len(set) == 0 {
		return nil, samplingError(args.SubnetID, errMissingValidators)
	}
	weights := make([]uint64, len(set))
	for i, v := range set {
		weights[i] = v.Weight
	}
	s.vm.rngMu.Lock()
	idx, err := sampleWeighted(s.vm.rng, weights, int(args.Size))
	s.vm.rngMu.Unlock()
	if err != nil {
		return nil, samplingError(args.SubnetID, err)
	}
	out := make([]ids.NodeID, len(idx))
	for i, j := range idx {
		out[i] = set[j].NodeID
	}
	slices.SortFunc(out, ids.NodeID.Compare)
	return &api.SampleValidatorsReply{Validators: out}, nil
}

// GetAllValidatorsAt returns, for the Primary Network and every subnet with a validator at an
// accepted height (the last accepted one for "proposed"), its warp validator set:
// RecordedValidatorsAt grouped by BLS key, as the reference's getAllValidatorsAt does.
func (s *service) GetAllValidatorsAt(ctx context.Context, args *api.GetAllValidatorsAtArgs) (*api.GetAllValidatorsAtReply, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, s.internal("getAllValidatorsAt", err)
	}
	height := uint64(args.Height)
	if args.Height == api.ProposedHeight {
		height = rec.height
	}
	if height > rec.height {
		return nil, unfinalizedSetsError(height, rec.height)
	}
	subnetIDs, err := s.vm.state.subnetIDs()
	if err != nil {
		return nil, s.internal("getAllValidatorsAt", err)
	}
	reply := &api.GetAllValidatorsAtReply{ValidatorSets: make(map[ids.ID]api.APIWarpSet, len(subnetIDs)+1)}
	for _, id := range append([]ids.ID{ids.Empty}, subnetIDs...) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		set, err := s.vm.RecordedValidatorsAt(id, height)
		if err != nil {
			return nil, s.internal("getAllValidatorsAt", err)
		}
		if len(set) == 0 {
			continue
		}
		ws, err := warpSet(set)
		if err != nil {
			return nil, s.internal("getAllValidatorsAt", fmt.Errorf("subnet %s at %d: %w", id, height, err))
		}
		reply.ValidatorSets[id] = ws
	}
	return reply, nil
}

// warpSet groups a validator set by BLS key: one entry per key with the summed weight and the
// sorted node IDs, entries sorted by uncompressed key (compareWarpKeys), and the total weight of
// the whole set, keyless validators included.
func warpSet(set []SetValidator) (api.APIWarpSet, error) {
	var (
		total uint64
		err   error
		byKey = make(map[[txs.BLSPublicKeyLen]byte]*api.APIWarpValidator, len(set))
		keys  = make([][txs.BLSPublicKeyLen]byte, 0, len(set))
	)
	for _, v := range set {
		if total, err = add(total, v.Weight); err != nil {
			return api.APIWarpSet{}, err
		}
		if v.PublicKey == nil {
			continue
		}
		e, ok := byKey[*v.PublicKey]
		if !ok {
			e = &api.APIWarpValidator{PublicKey: "0x" + hex.EncodeToString(v.PublicKey[:])}
			byKey[*v.PublicKey] = e
			keys = append(keys, *v.PublicKey)
		}
		// The set's total did not overflow, so neither does a part of it.
		e.Weight += jsonrpc.Uint64(v.Weight)
		e.NodeIDs = append(e.NodeIDs, v.NodeID)
	}
	slices.SortFunc(keys, func(a, b [txs.BLSPublicKeyLen]byte) int { return compareWarpKeys(&a, &b) })
	ws := api.APIWarpSet{Validators: make([]api.APIWarpValidator, len(keys)), TotalWeight: jsonrpc.Uint64(total)}
	for i, k := range keys {
		e := byKey[k]
		slices.SortFunc(e.NodeIDs, ids.NodeID.Compare)
		ws.Validators[i] = *e
	}
	return ws, nil
}

// Flag bits of the first byte of a compressed BLS12-381 G1 point (ZCash serialization).
const (
	blsFlagMask = 0xe0 // compression, infinity and sign bits
	blsSignBit  = 0x20 // set when y is the larger of y and p-y
)

// compareWarpKeys orders compressed public keys as their uncompressed forms (x || y, no flags)
// compare, which is how the reference sorts a warp validator set, without decompressing: x first
// (the compressed bytes without the flag bits), then, for one x, y: the sign bit is set for the
// larger of the two y values that x admits.
func compareWarpKeys(a, b *[txs.BLSPublicKeyLen]byte) int {
	if c := cmp.Compare(a[0]&^blsFlagMask, b[0]&^blsFlagMask); c != 0 {
		return c
	}
	if c := bytes.Compare(a[1:], b[1:]); c != 0 {
		return c
	}
	return cmp.Compare(a[0]&blsSignBit, b[0]&blsSignBit)
}

// GetStake returns what the addresses have staked on the Primary Network: the stake outputs
// they own of the current stakers' txs (validators' only with validatorsOnly), the genesis's
// validator txs (§4.6) included until they are rewarded.
func (s *service) GetStake(_ context.Context, args *api.GetStakeArgs) (*api.GetStakeReply, error) {
	if len(args.Addresses) > MaxGetStakeAddrs {
		return nil, tooManyStakeAddrsError(len(args.Addresses))
	}
	addrs, err := utxopage.ParseAddresses(s.chain.ParseService, args.Addresses)
	if err != nil {
		return nil, err
	}
	stakers, err := s.vm.state.allStakers()
	if err != nil {
		return nil, s.internal("getStake", err)
	}
	var txIDs []ids.ID
	for _, st := range stakers {
		if !args.ValidatorsOnly || !st.delegator {
			txIDs = append(txIDs, st.txID)
		}
	}
	staked := map[ids.ID]uint64{}
	outs := make([]string, 0)
	for _, txID := range txIDs {
		tx, err := s.stakingTx(txID)
		if err != nil {
			return nil, s.internal("getStake", err)
		}
		var stake []txs.TransferableOutput
		switch u := tx.Unsigned().(type) {
		case *txs.AddPermissionlessValidatorTx:
			stake = u.Stake
		case *txs.AddPermissionlessDelegatorTx:
			stake = u.Stake
		}
		for i := range stake {
			o := &stake[i]
			out, ok := o.Out.(*secp256k1fx.TransferOutput)
			if lock, isLock := o.Out.(*txs.LockOut); isLock {
				out, ok = lock.Out, lock.Out != nil
			}
			if !ok || !slices.ContainsFunc(out.Addrs, func(a ids.ShortID) bool { return slices.Contains(addrs, a) }) {
				continue
			}
			if staked[o.AssetID], err = add(staked[o.AssetID], out.Amount); err != nil {
				return nil, err
			}
			p := codec.NewPacker(make([]byte, 0, 128))
			p.Version()
			o.Marshal(p)
			b, err := p.Bytes()
			if err != nil {
				return nil, s.internal("getStake", err)
			}
			str, err := args.Encoding.Encode(b)
			if err != nil {
				return nil, encodeError("output", err)
			}
			outs = append(outs, str)
		}
	}
	stakeds := toAPI(staked)
	return &api.GetStakeReply{
		Staked:   stakeds[s.vm.rules.avaxAssetID],
		Stakeds:  stakeds,
		Outputs:  outs,
		Encoding: args.Encoding,
	}, nil
}

// GetRewardUTXOs returns the reward UTXOs paid to the stakers of a staking tx whose period ended,
// in output index order; none for any other tx, as in the reference.
func (s *service) GetRewardUTXOs(_ context.Context, args *api.GetRewardUTXOsArgs) (*api.GetRewardUTXOsReply, error) {
	utxos, err := s.vm.state.rewardUTXOs(args.TxID)
	if err != nil {
		return nil, s.internal("getRewardUTXOs", err)
	}
	reply := &api.GetRewardUTXOsReply{NumFetched: jsonrpc.Uint64(len(utxos)), UTXOs: make([]string, len(utxos)), Encoding: args.Encoding}
	for i, ux := range utxos {
		b, err := ux.Bytes()
		if err != nil {
			return nil, s.internal("getRewardUTXOs", err)
		}
		if reply.UTXOs[i], err = args.Encoding.Encode(b); err != nil {
			return nil, encodeError("utxo", err)
		}
	}
	return reply, nil
}
