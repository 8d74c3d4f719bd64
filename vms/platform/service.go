package platform

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
	"github.com/cornice-node/cornice/vms/internal/txlog"
	"github.com/cornice-node/cornice/vms/internal/utxopage"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Statuses of txs and blockchains (§5.1).
const (
	statusCommitted  = "Committed"
	statusAborted    = "Aborted"
	statusProcessing = "Processing"
	statusUnknown    = "Unknown"
	statusValidating = "Validating"
	statusSyncing    = "Syncing"
	statusCreated    = "Created"
	statusPreferred  = "Preferred"
)

// service is the platform API of one P-Chain VM (§5). It is safe for concurrent use.
type service struct {
	vm *VM
	// addrs formats this chain's addresses, and chain parses them.
	addrs *addressCache
	chain address.Chain
}

// newHandler returns the chain's JSON-RPC server, service name "platform".
func (vm *VM) newHandler() http.Handler {
	s := &service{
		vm:    vm,
		addrs: newAddressCache(vm.hrp),
		chain: address.Chain{Alias: txs.ChainAlias, IsChain: isThisChain, HRP: vm.hrp},
	}
	srv := jsonrpc.NewServer("platform", vm.log)
	chainapi.Register(srv, txChain{vm.state, vm}, s.texts(), txlog.New(vm.log, vm.clock, txlog.DefaultPerSecond))
	utxopage.Register(srv, utxoChain{vm.state, s})
	jsonrpc.Register(srv, "getBalance", s.GetBalance)
	jsonrpc.Register(srv, "getSubnet", s.GetSubnet)
	jsonrpc.Register(srv, "getSubnets", s.GetSubnets)
	jsonrpc.Register(srv, "getBlockchains", s.GetBlockchains)
	jsonrpc.Register(srv, "getBlockchainStatus", s.GetBlockchainStatus)
	jsonrpc.Register(srv, "getCurrentValidators", s.GetCurrentValidators)
	jsonrpc.Register(srv, "getL1Validator", s.GetL1Validator)
	jsonrpc.Register(srv, "getValidatorsAt", s.GetValidatorsAt)
	jsonrpc.Register(srv, "getTimestamp", s.GetTimestamp)
	jsonrpc.Register(srv, "getFeeConfig", s.GetFeeConfig)
	jsonrpc.Register(srv, "getFeeState", s.GetFeeState)
	jsonrpc.Register(srv, "getValidatorFeeConfig", s.GetValidatorFeeConfig)
	jsonrpc.Register(srv, "getValidatorFeeState", s.GetValidatorFeeState)
	s.registerStaking(srv)
	return srv
}

// internal logs an internal failure of method and returns the client's text.
func (s *service) internal(method string, err error) error {
	s.vm.log.Error("platform call failed", "method", method, "err", err)
	return errInternal
}

// txChain is the P-Chain as chainapi.Register reads it, in the texts of the platform service:
// its accepted state answers Tx, Block, BlockIDAt and LastHeight, and the VM's Intake ParseTx,
// IssueTx and PushTx.
type txChain struct {
	*state
	*VM
}

var _ chainapi.Chain[*txs.Tx, txs.Block] = txChain{}

// TxStatus is "Committed" for a committed tx, "Aborted" for a reward tx an abort block decided,
// "Processing" for a pending one and "Unknown" for any other (§5.1).
func (c txChain) TxStatus(id ids.ID) (string, error) { return txStatus(c.state, c.pending, id) }

// txStatusState is what txStatus reads of the accepted state (*state).
type txStatusState interface {
	HasTx(id ids.ID) (bool, error)
	aborted(id ids.ID) (bool, error)
}

// txStatus is TxStatus over the accepted state s and the mempool's pending. It reads the mempool
// first: a tx leaves the mempool only after its block's commit is published (VM.Accepted), so a
// tx no longer pending by then is found committed. Read the other way round, a block accepted
// between the two reads made its tx "Unknown": not committed yet at the first, no longer pending
// at the second.
func txStatus(s txStatusState, pending func(ids.ID) bool, id ids.ID) (string, error) {
	wasPending := pending(id)
	ok, err := s.HasTx(id)
	switch {
	case err != nil:
		return "", err
	case ok:
		if aborted, err := s.aborted(id); err != nil || aborted {
			return statusAborted, err
		}
		return statusCommitted, nil
	case wasPending:
		return statusProcessing, nil
	}
	return statusUnknown, nil
}

func (c txChain) TxJSON(tx *txs.Tx) ([]byte, error) { return txs.TxJSON(tx, c.VM.hrp) }

func (c txChain) BlockJSON(blk txs.Block) ([]byte, error) { return txs.BlockJSON(blk, c.VM.hrp) }

// texts are the platform service's answers in the shared methods: the empty tx ID is looked up
// like any other, and a failure to render JSON is an encoding error.
func (s *service) texts() chainapi.Texts {
	return chainapi.Texts{
		ParseTxError: parseTxError,
		IssueTxError: issueError,
		TxNotFound:   errTxNotFound,
		EncodeError:  func(what string, _ ids.Encoding, err error) error { return encodeError(what, err) },
		JSONError:    func(_, what string, err error) error { return encodeError(what, err) },
		Internal:     s.internal,
	}
}

// isThisChain reports whether alias names the P-Chain: "P", "platform" or its ID.
func isThisChain(alias string) bool {
	return alias == txs.ChainAlias || alias == "platform" || alias == ids.Empty.String()
}

// formatAddresses formats this chain's addresses.
func (s *service) formatAddresses(addrs []ids.ShortID) ([]string, error) {
	return s.addrs.formatAll(addrs)
}

// utxoChain is the P-Chain as utxopage.Serve reads it, in the texts of platform.getUTXOs; its accepted
// state answers UTXOIDs and UTXOBytes.
type utxoChain struct {
	*state
	s *service
}

var _ utxopage.Chain = utxoChain{}

// UTXOs implements utxopage.Chain: the P-Chain's own UTXOs, or with another chain as the source
// the atomic UTXOs it exported to the P-Chain.
func (c utxoChain) UTXOs(sourceChain string) (utxopage.Index, error) {
	return utxopage.OwnOrAtomic(utxopage.Own(c.Reader), isThisChain, c.s.vm.rules.chains, c.Shared(), sourceChain)
}

func (c utxoChain) ParseAddress(str string) (ids.ShortID, error) { return c.s.chain.ParseService(str) }

func (c utxoChain) FormatAddress(addr ids.ShortID) (string, error) {
	return address.Format(txs.ChainAlias, c.s.vm.hrp, addr)
}

func (utxoChain) EncodeError(_ ids.Encoding, err error) error { return encodeError("utxo", err) }

func (c utxoChain) Internal(err error) error { return c.s.internal("getUTXOs", err) }

// GetBalance returns what the addresses own, split into unlocked, locked-stakeable (a LockOut
// before its locktime) and locked-not-stakeable (a TransferOutput before its locktime), in total
// for AVAX and per asset, with the UTXOs counted (§5.1).
func (s *service) GetBalance(ctx context.Context, args *api.GetBalanceArgs) (*api.GetBalanceReply, error) {
	if len(args.Addresses) == 0 {
		return nil, utxopage.ErrNoAddresses
	}
	addrs, err := utxopage.ParseAddresses(s.chain.ParseService, args.Addresses)
	if err != nil {
		return nil, err
	}
	now := s.vm.now()
	// One state for every address and page: a tx moving funds between two of the addresses,
	// accepted between their reads, would otherwise count them twice or not at all.
	st, release := s.vm.state.pinned()
	defer release()
	var (
		unlocked, stakeable, notStakeable = map[ids.ID]uint64{}, map[ids.ID]uint64{}, map[ids.ID]uint64{}
		refs                              = make([]chainapi.UTXORef, 0)
		seen                              = make(map[ids.ID]struct{})
	)
	for _, addr := range addrs {
		var start ids.ID
		for {
			page, err := st.UTXOIDs(addr, start, utxopage.MaxPageSize)
			if err != nil {
				return nil, s.internal("getBalance", err)
			}
			for _, id := range page {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if _, dup := seen[id]; dup {
					continue
				}
				seen[id] = struct{}{}
				ux, found, err := st.UTXO(id)
				switch {
				case err != nil:
					return nil, s.internal("getBalance", err)
				case !found:
					return nil, s.internal("getBalance", fmt.Errorf("utxo %s of %s is missing", id, addr))
				}
				var (
					m      map[ids.ID]uint64
					amount uint64
				)
				switch out := ux.Out.(type) {
				case *secp256k1fx.TransferOutput:
					m, amount = unlocked, out.Amount
					if out.Locktime > now {
						m = notStakeable
					}
				case *txs.LockOut:
					m, amount = unlocked, out.Out.Amount
					if out.Locktime > now {
						m = stakeable
					} else if out.Out.Locktime > now {
						m = notStakeable
					}
				default:
					continue
				}
				if m[ux.AssetID], err = add(m[ux.AssetID], amount); err != nil {
					return nil, err
				}
				refs = append(refs, chainapi.UTXORef{TxID: ux.TxID, OutputIndex: ux.OutputIndex})
			}
			if len(page) < utxopage.MaxPageSize {
				break
			}
			start = page[len(page)-1]
		}
	}
	avax := s.vm.rules.avaxAssetID
	reply := &api.GetBalanceReply{
		Unlocked:            jsonrpc.Uint64(unlocked[avax]),
		LockedStakeable:     jsonrpc.Uint64(stakeable[avax]),
		LockedNotStakeable:  jsonrpc.Uint64(notStakeable[avax]),
		Balances:            map[ids.ID]jsonrpc.Uint64{},
		Unlockeds:           toAPI(unlocked),
		LockedStakeables:    toAPI(stakeable),
		LockedNotStakeables: toAPI(notStakeable),
		UTXOIDs:             refs,
	}
	for _, m := range []map[ids.ID]uint64{unlocked, stakeable, notStakeable} {
		for asset, v := range m {
			sum, err := add(uint64(reply.Balances[asset]), v)
			if err != nil {
				return nil, err
			}
			reply.Balances[asset] = jsonrpc.Uint64(sum)
		}
	}
	reply.Balance = reply.Balances[avax]
	return reply, nil
}

func toAPI(m map[ids.ID]uint64) map[ids.ID]jsonrpc.Uint64 {
	out := make(map[ids.ID]jsonrpc.Uint64, len(m))
	for k, v := range m {
		out[k] = jsonrpc.Uint64(v)
	}
	return out
}

// GetSubnet returns a subnet's owner and, once it is an L1, its conversion (§5.1).
func (s *service) GetSubnet(_ context.Context, args *api.GetSubnetArgs) (*api.GetSubnetReply, error) {
	if args.SubnetID == ids.Empty {
		return nil, errPrimaryNotSubnet
	}
	st, release := s.vm.state.pinned()
	defer release()
	owner, found, err := subnetOwner(st, args.SubnetID)
	switch {
	case err != nil:
		return nil, s.internal("getSubnet", err)
	case !found:
		return nil, errNotFound
	}
	keys, err := s.formatAddresses(owner.Addrs)
	if err != nil {
		return nil, s.internal("getSubnet", err)
	}
	reply := &api.GetSubnetReply{
		IsPermissioned: true,
		ControlKeys:    keys,
		Threshold:      jsonrpc.Uint32(owner.Threshold),
		Locktime:       jsonrpc.Uint64(owner.Locktime),
	}
	conv, converted, err := st.conversion(args.SubnetID)
	switch {
	case err != nil:
		return nil, s.internal("getSubnet", err)
	case converted:
		addr := "0x" + hex.EncodeToString(conv.address)
		reply.IsPermissioned = false
		reply.ConversionID = conv.conversionID
		reply.ManagerChainID = conv.chainID
		reply.ManagerAddress = &addr
	}
	return reply, nil
}

// subnetOwner returns an accepted subnet's owner in st; found is false for an unknown subnet.
func subnetOwner(st *state, id ids.ID) (*secp256k1fx.OutputOwners, bool, error) {
	ok, err := st.DB().Has(chainstate.IDKey(keySubnet, id))
	if err != nil || !ok {
		return nil, false, err
	}
	owner, err := st.subnetOwner(id)
	if err != nil {
		return nil, false, err
	}
	return owner, true, nil
}

// GetSubnets returns the subnets asked for, or every subnet and then the primary network (§5.1).
// Unknown IDs are skipped.
func (s *service) GetSubnets(_ context.Context, args *api.GetSubnetsArgs) (*api.GetSubnetsReply, error) {
	st, release := s.vm.state.pinned()
	defer release()
	subnetIDs := args.IDs
	if len(subnetIDs) == 0 {
		var err error
		if subnetIDs, err = st.subnetIDs(); err != nil {
			return nil, s.internal("getSubnets", err)
		}
		subnetIDs = append(subnetIDs, ids.Empty)
	}
	reply := &api.GetSubnetsReply{Subnets: make([]api.APISubnet, 0, len(subnetIDs))}
	for _, id := range subnetIDs {
		if id == ids.Empty {
			reply.Subnets = append(reply.Subnets, api.APISubnet{ID: id, ControlKeys: []string{}})
			continue
		}
		owner, found, err := subnetOwner(st, id)
		if err != nil {
			return nil, s.internal("getSubnets", err)
		}
		if !found {
			continue
		}
		keys, err := s.formatAddresses(owner.Addrs)
		if err != nil {
			return nil, s.internal("getSubnets", err)
		}
		reply.Subnets = append(reply.Subnets, api.APISubnet{ID: id, ControlKeys: keys, Threshold: jsonrpc.Uint32(owner.Threshold)})
	}
	return reply, nil
}

// GetBlockchains returns every blockchain: the subnets' (subnets in ID order) first, the primary
// network's last; within a subnet, in ID order (the reference's order is its database's).
func (s *service) GetBlockchains(context.Context, *struct{}) (*api.GetBlockchainsReply, error) {
	st, release := s.vm.state.pinned()
	defer release()
	subnetIDs, err := st.subnetIDs()
	if err != nil {
		return nil, s.internal("getBlockchains", err)
	}
	subnetIDs = append(subnetIDs, ids.Empty)
	reply := &api.GetBlockchainsReply{Blockchains: make([]api.APIBlockchain, 0)}
	for _, subnetID := range subnetIDs {
		chainIDs, err := st.chainIDs(subnetID)
		if err != nil {
			return nil, s.internal("getBlockchains", err)
		}
		for _, id := range chainIDs {
			cc, err := st.createChainTx(id)
			switch {
			case err != nil:
				return nil, s.internal("getBlockchains", err)
			case cc == nil:
				return nil, s.internal("getBlockchains", fmt.Errorf("chain %s has no CreateChainTx", id))
			}
			reply.Blockchains = append(reply.Blockchains, api.APIBlockchain{ID: id, Name: cc.ChainName, SubnetID: cc.SubnetID, VMID: cc.VMID})
		}
	}
	return reply, nil
}

// createChainTx returns the committed CreateChainTx of chain id, or nil if there is none.
func (s *service) createChainTx(id ids.ID) (*txs.CreateChainTx, error) {
	return s.vm.state.createChainTx(id)
}

// GetBlockchainStatus returns "Validating" for a chain this node runs on a subnet it validates
// (the primary network), "Syncing" for one it runs on another subnet, "Created" for a committed
// chain it does not run, "Preferred" for a chain whose CreateChainTx is pending, and "Unknown"
// otherwise (§5.1).
func (s *service) GetBlockchainStatus(_ context.Context, args *api.GetBlockchainStatusArgs) (*api.GetBlockchainStatusReply, error) {
	if args.BlockchainID == "" {
		return nil, errNoBlockchainID
	}
	if s.vm.aliases != nil {
		if id, err := s.vm.aliases.Lookup(args.BlockchainID); err == nil {
			cc, err := s.createChainTx(id)
			if err != nil {
				return nil, s.internal("getBlockchainStatus", err)
			}
			if cc != nil {
				validating, err := s.vm.ValidatesSubnet(s.vm.validator.nodeID, cc.SubnetID)
				if err != nil {
					return nil, s.internal("getBlockchainStatus", err)
				}
				if validating {
					return &api.GetBlockchainStatusReply{Status: statusValidating}, nil
				}
				return &api.GetBlockchainStatusReply{Status: statusSyncing}, nil
			}
		}
	}
	id, err := ids.FromString(args.BlockchainID)
	if err != nil {
		return &api.GetBlockchainStatusReply{Status: statusUnknown}, nil
	}
	cc, err := s.createChainTx(id)
	switch {
	case err != nil:
		return nil, s.internal("getBlockchainStatus", err)
	case cc != nil:
		return &api.GetBlockchainStatusReply{Status: statusCreated}, nil
	case s.vm.pending(id):
		return &api.GetBlockchainStatusReply{Status: statusPreferred}, nil
	}
	return &api.GetBlockchainStatusReply{Status: statusUnknown}, nil
}

// GetCurrentValidators returns the validators of args.SubnetID, filtered by nodeIDs: for the
// Primary Network its staking validators, the genesis's included (service_stakers.go); for a
// subnet its current legacy validators as bare stakers (tx ID order), then, for an L1, its L1
// validators in validation ID order (§5.1).
func (s *service) GetCurrentValidators(_ context.Context, args *api.GetCurrentValidatorsArgs) (*api.GetCurrentValidatorsReply, error) {
	reply := &api.GetCurrentValidatorsReply{Validators: make([]any, 0, 1)}
	if args.SubnetID != ids.Empty {
		legacy, vals, err := s.vm.CurrentValidators(args.SubnetID)
		if err != nil {
			return nil, s.internal("getCurrentValidators", err)
		}
		for _, v := range legacy {
			if len(args.NodeIDs) > 0 && !slices.Contains(args.NodeIDs, v.NodeID) {
				continue
			}
			reply.Validators = append(reply.Validators, api.APIStaker{
				TxID:      v.TxID,
				StartTime: jsonrpc.Uint64(v.StartTime),
				EndTime:   jsonrpc.Uint64(v.EndTime),
				Weight:    jsonrpc.Uint64(v.Weight),
				NodeID:    v.NodeID,
			})
		}
		var owners ownerMemo
		for i := range vals {
			v := &vals[i]
			if len(args.NodeIDs) > 0 && !slices.Contains(args.NodeIDs, v.NodeID) {
				continue
			}
			apiV, err := s.l1ValidatorReply(v, &owners)
			if err != nil {
				return nil, s.internal("getCurrentValidators", err)
			}
			reply.Validators = append(reply.Validators, apiV)
		}
		return reply, nil
	}
	stakers, err := s.stakerValidators(args.NodeIDs)
	if err != nil {
		return nil, s.internal("getCurrentValidators", err)
	}
	reply.Validators = append(reply.Validators, stakers...)
	return reply, nil
}

// l1ValidatorJSON returns v as platform.getCurrentValidators shows it.
func (s *service) l1ValidatorJSON(v *L1Validator) (*api.APIL1Validator, error) {
	owner := func(o *txs.PChainOwner) (api.APIOwner, error) {
		addrs, err := s.formatAddresses(o.Addresses)
		return api.APIOwner{Threshold: jsonrpc.Uint64(o.Threshold), Addresses: addrs}, err
	}
	rbo, err := owner(&v.RemainingBalanceOwner)
	if err != nil {
		return nil, err
	}
	do, err := owner(&v.DeactivationOwner)
	if err != nil {
		return nil, err
	}
	return &api.APIL1Validator{
		NodeID:                v.NodeID,
		Weight:                jsonrpc.Uint64(v.Weight),
		StartTime:             jsonrpc.Uint64(v.StartTime),
		ValidationID:          v.ValidationID,
		PublicKey:             "0x" + hex.EncodeToString(v.PublicKey[:]),
		RemainingBalanceOwner: rbo,
		DeactivationOwner:     do,
		MinNonce:              jsonrpc.Uint64(v.MinNonce),
		Balance:               jsonrpc.Uint64(v.Balance),
	}, nil
}

// GetL1Validator returns an L1 validator, active or not, as getCurrentValidators shows it, with
// its subnet and the last accepted height it was read at (§5.1).
func (s *service) GetL1Validator(_ context.Context, args *api.GetL1ValidatorArgs) (*api.GetL1ValidatorReply, error) {
	v, height, found, err := s.vm.l1ValidatorAt(args.ValidationID)
	switch {
	case err != nil:
		return nil, s.internal("getL1Validator", err)
	case !found:
		return nil, l1ValidatorNotFoundError(args.ValidationID)
	}
	apiV, err := s.l1ValidatorJSON(&v)
	if err != nil {
		return nil, s.internal("getL1Validator", err)
	}
	return &api.GetL1ValidatorReply{APIL1Validator: *apiV, SubnetID: v.SubnetID, Height: jsonrpc.Uint64(height)}, nil
}

// GetValidatorsAt returns the validator set of a subnet (the primary network by default) as of an
// accepted height, or of the last accepted block for "proposed" (§5.1, RecordedValidatorsAt).
func (s *service) GetValidatorsAt(_ context.Context, args *api.GetValidatorsAtArgs) (*api.GetValidatorsAtReply, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, s.internal("getValidatorsAt", err)
	}
	height := uint64(args.Height)
	if args.Height == api.ProposedHeight {
		height = rec.height
	}
	if height > rec.height {
		return nil, unfinalizedHeightError(height, args.SubnetID, rec.height)
	}
	set, err := s.vm.RecordedValidatorsAt(args.SubnetID, height)
	if err != nil {
		return nil, s.internal("getValidatorsAt", err)
	}
	reply := make(api.GetValidatorsAtReply, len(set))
	for _, v := range set {
		apiV := api.APIValidatorAt{Weight: jsonrpc.Uint64(v.Weight)}
		if v.PublicKey != nil {
			pk := "0x" + hex.EncodeToString(v.PublicKey[:])
			apiV.PublicKey = &pk
		}
		reply[v.NodeID] = apiV
	}
	return &reply, nil
}

// GetTimestamp returns the chain time: the last accepted block's, as committed (§5.1).
func (s *service) GetTimestamp(context.Context, *struct{}) (*api.GetTimestampReply, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, s.internal("getTimestamp", err)
	}
	return &api.GetTimestampReply{Timestamp: rec.fees.timestamp().Format(timeFormat)}, nil
}

// timeFormat is RFC 3339 in whole seconds, as the reference prints chain times.
const timeFormat = "2006-01-02T15:04:05Z07:00"

// GetFeeConfig returns the dynamic fee configuration (§4.8, §5.1).
func (s *service) GetFeeConfig(context.Context, *struct{}) (*api.GetFeeConfigReply, error) {
	c := &s.vm.rules.fees
	return &api.GetFeeConfigReply{
		Weights:                  c.Weights,
		MaxCapacity:              c.MaxCapacity,
		MaxPerSecond:             c.MaxPerSecond,
		TargetPerSecond:          c.TargetPerSecond,
		MinPrice:                 c.MinPrice,
		ExcessConversionConstant: c.ExcessConversionConstant,
	}, nil
}

// GetFeeState returns the fee state after the last accepted block, as committed, with its price and chain time
// (§5.1).
func (s *service) GetFeeState(context.Context, *struct{}) (*api.GetFeeStateReply, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, s.internal("getFeeState", err)
	}
	f := rec.fees
	return &api.GetFeeStateReply{
		Capacity:  f.capacity,
		Excess:    f.excess,
		Price:     f.price(&s.vm.rules.fees),
		Timestamp: f.timestamp().Format(timeFormat),
	}, nil
}

// GetValidatorFeeConfig returns the L1 validators' continuous fee configuration (§4.7, §5.1).
func (s *service) GetValidatorFeeConfig(context.Context, *struct{}) (*api.GetValidatorFeeConfigReply, error) {
	c := &s.vm.rules.validatorFees
	return &api.GetValidatorFeeConfigReply{
		Capacity:                 c.Capacity,
		Target:                   c.Target,
		MinPrice:                 c.MinPrice,
		ExcessConversionConstant: c.ExcessConversionConstant,
	}, nil
}

// GetValidatorFeeState returns the continuous fee's excess and price after the last accepted
// block, as committed, with its chain time (§4.7, §5.1).
func (s *service) GetValidatorFeeState(context.Context, *struct{}) (*api.GetValidatorFeeStateReply, error) {
	rec, _, err := s.vm.state.lastAccepted()
	if err != nil {
		return nil, s.internal("getValidatorFeeState", err)
	}
	c := &s.vm.rules.validatorFees
	return &api.GetValidatorFeeStateReply{
		Excess:    rec.fees.validatorExcess,
		Price:     CalculatePrice(c.MinPrice, rec.fees.validatorExcess, c.ExcessConversionConstant),
		Timestamp: rec.fees.timestamp().Format(timeFormat),
	}, nil
}
