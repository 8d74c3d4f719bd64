package api

import (
	"math"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Arguments and replies of the platform service (reference/platform-exchange.md §5.1). Keys match
// case-insensitively and unknown keys are ignored; an omitted encoding is hex.

// GetBalanceArgs are the params of platform.getBalance.
type GetBalanceArgs struct {
	Addresses []string `json:"addresses"`
}

// GetBalanceReply is the result of platform.getBalance (§5.1): AVAX totals, then per-asset maps
// keyed by asset ID.
type GetBalanceReply struct {
	Balance             jsonrpc.Uint64            `json:"balance"`
	Unlocked            jsonrpc.Uint64            `json:"unlocked"`
	LockedStakeable     jsonrpc.Uint64            `json:"lockedStakeable"`
	LockedNotStakeable  jsonrpc.Uint64            `json:"lockedNotStakeable"`
	Balances            map[ids.ID]jsonrpc.Uint64 `json:"balances"`
	Unlockeds           map[ids.ID]jsonrpc.Uint64 `json:"unlockeds"`
	LockedStakeables    map[ids.ID]jsonrpc.Uint64 `json:"lockedStakeables"`
	LockedNotStakeables map[ids.ID]jsonrpc.Uint64 `json:"lockedNotStakeables"`
	UTXOIDs             []chainapi.UTXORef        `json:"utxoIDs"`
}

// GetSubnetArgs are the params of platform.getSubnet.
type GetSubnetArgs struct {
	SubnetID ids.ID `json:"subnetID"`
}

// GetSubnetReply is the result of platform.getSubnet (§5.1). Before the subnet is converted to an
// L1 the conversion fields are empty and managerAddress is null.
type GetSubnetReply struct {
	IsPermissioned           bool           `json:"isPermissioned"`
	ControlKeys              []string       `json:"controlKeys"`
	Threshold                jsonrpc.Uint32 `json:"threshold"`
	Locktime                 jsonrpc.Uint64 `json:"locktime"`
	SubnetTransformationTxID ids.ID         `json:"subnetTransformationTxID"`
	ConversionID             ids.ID         `json:"conversionID"`
	ManagerChainID           ids.ID         `json:"managerChainID"`
	ManagerAddress           *string        `json:"managerAddress"`
}

// GetSubnetsArgs are the params of platform.getSubnets: the subnets to list, or none for all.
type GetSubnetsArgs struct {
	IDs []ids.ID `json:"ids"`
}

// APISubnet is one subnet of platform.getSubnets.
type APISubnet struct {
	ID          ids.ID         `json:"id"`
	ControlKeys []string       `json:"controlKeys"`
	Threshold   jsonrpc.Uint32 `json:"threshold"`
}

// GetSubnetsReply is the result of platform.getSubnets.
type GetSubnetsReply struct {
	Subnets []APISubnet `json:"subnets"`
}

// APIBlockchain is one blockchain of platform.getBlockchains.
type APIBlockchain struct {
	ID       ids.ID `json:"id"`
	Name     string `json:"name"`
	SubnetID ids.ID `json:"subnetID"`
	VMID     ids.ID `json:"vmID"`
}

// GetBlockchainsReply is the result of platform.getBlockchains.
type GetBlockchainsReply struct {
	Blockchains []APIBlockchain `json:"blockchains"`
}

// GetBlockchainStatusArgs are the params of platform.getBlockchainStatus: a chain ID or alias.
type GetBlockchainStatusArgs struct {
	BlockchainID string `json:"blockchainID"`
}

// GetBlockchainStatusReply is the result of platform.getBlockchainStatus (§5.1).
type GetBlockchainStatusReply struct {
	Status string `json:"status"`
}

// GetCurrentValidatorsArgs are the params of platform.getCurrentValidators.
type GetCurrentValidatorsArgs struct {
	SubnetID ids.ID       `json:"subnetID"`
	NodeIDs  []ids.NodeID `json:"nodeIDs"`
}

// APISigner is a validator's BLS key and proof of possession, "0x" + hex.
type APISigner struct {
	PublicKey         string `json:"publicKey"`
	ProofOfPossession string `json:"proofOfPossession"`
}

// APIPrimaryValidator is a Primary Network validator of platform.getCurrentValidators (§5.1).
// This node's genesis stake has no staking tx and no reward owners: its txID is empty and the
// owners are left out; a staking validator has both.
type APIPrimaryValidator struct {
	TxID                   ids.ID         `json:"txID"`
	StartTime              jsonrpc.Uint64 `json:"startTime"`
	EndTime                jsonrpc.Uint64 `json:"endTime"`
	Weight                 jsonrpc.Uint64 `json:"weight"`
	NodeID                 ids.NodeID     `json:"nodeID"`
	ValidationRewardOwner  *APIOwner      `json:"validationRewardOwner,omitempty"`
	DelegationRewardOwner  *APIOwner      `json:"delegationRewardOwner,omitempty"`
	PotentialReward        jsonrpc.Uint64 `json:"potentialReward"`
	AccruedDelegateeReward jsonrpc.Uint64 `json:"accruedDelegateeReward"`
	DelegationFee          string         `json:"delegationFee"`
	Uptime                 string         `json:"uptime"`
	Connected              bool           `json:"connected"`
	Signer                 *APISigner     `json:"signer,omitempty"`
	DelegatorCount         jsonrpc.Uint64 `json:"delegatorCount"`
	DelegatorWeight        jsonrpc.Uint64 `json:"delegatorWeight"`
	// Delegators is listed when exactly one node ID was asked for.
	Delegators *[]APIPrimaryDelegator `json:"delegators,omitempty"`
}

// APIPrimaryDelegator is a delegator of a Primary Network validator, as
// platform.getCurrentValidators lists it (§5.1).
type APIPrimaryDelegator struct {
	TxID            ids.ID         `json:"txID"`
	StartTime       jsonrpc.Uint64 `json:"startTime"`
	EndTime         jsonrpc.Uint64 `json:"endTime"`
	Weight          jsonrpc.Uint64 `json:"weight"`
	NodeID          ids.NodeID     `json:"nodeID"`
	RewardOwner     *APIOwner      `json:"rewardOwner,omitempty"`
	PotentialReward jsonrpc.Uint64 `json:"potentialReward"`
}

// APIStaker is a legacy subnet validator of platform.getCurrentValidators: the reference's bare
// staker object (§5.1).
type APIStaker struct {
	TxID      ids.ID         `json:"txID"`
	StartTime jsonrpc.Uint64 `json:"startTime"`
	EndTime   jsonrpc.Uint64 `json:"endTime"`
	Weight    jsonrpc.Uint64 `json:"weight"`
	NodeID    ids.NodeID     `json:"nodeID"`
}

// APIOwner is an owner as platform.getCurrentValidators shows it: numbers as strings, addresses
// `P-<hrp>1…` (§5.1).
type APIOwner struct {
	Locktime  jsonrpc.Uint64 `json:"locktime"`
	Threshold jsonrpc.Uint64 `json:"threshold"`
	Addresses []string       `json:"addresses"`
}

// APIL1Validator is an L1 validator of platform.getCurrentValidators (§5.1). Balance is its
// remaining balance, "0" when it is inactive.
type APIL1Validator struct {
	NodeID       ids.NodeID     `json:"nodeID"`
	Weight       jsonrpc.Uint64 `json:"weight"`
	StartTime    jsonrpc.Uint64 `json:"startTime"`
	ValidationID ids.ID         `json:"validationID"`
	// PublicKey is the compressed BLS public key, "0x" + hex.
	PublicKey             string         `json:"publicKey"`
	RemainingBalanceOwner APIOwner       `json:"remainingBalanceOwner"`
	DeactivationOwner     APIOwner       `json:"deactivationOwner"`
	MinNonce              jsonrpc.Uint64 `json:"minNonce"`
	Balance               jsonrpc.Uint64 `json:"balance"`
}

// GetCurrentValidatorsReply is the result of platform.getCurrentValidators. Each validator is an
// APIPrimaryValidator, or for an L1 an APIL1Validator.
type GetCurrentValidatorsReply struct {
	Validators []any `json:"validators"`
}

// GetTimestampReply is the result of platform.getTimestamp: the chain time.
type GetTimestampReply struct {
	Timestamp string `json:"timestamp"`
}

// GetFeeConfigReply is the result of platform.getFeeConfig (§5.1): plain numbers.
type GetFeeConfigReply struct {
	Weights                  txs.Dimensions `json:"weights"`
	MaxCapacity              uint64         `json:"maxCapacity"`
	MaxPerSecond             uint64         `json:"maxPerSecond"`
	TargetPerSecond          uint64         `json:"targetPerSecond"`
	MinPrice                 uint64         `json:"minPrice"`
	ExcessConversionConstant uint64         `json:"excessConversionConstant"`
}

// GetFeeStateReply is the result of platform.getFeeState (§5.1): the last accepted block's fee
// state and chain time.
type GetFeeStateReply struct {
	Capacity  uint64 `json:"capacity"`
	Excess    uint64 `json:"excess"`
	Price     uint64 `json:"price"`
	Timestamp string `json:"timestamp"`
}

// GetL1ValidatorArgs are the params of platform.getL1Validator.
type GetL1ValidatorArgs struct {
	ValidationID ids.ID `json:"validationID"`
}

// GetL1ValidatorReply is the result of platform.getL1Validator (§5.1): the validator as
// platform.getCurrentValidators shows it, then its subnet and the height of the last accepted
// block it was read at.
type GetL1ValidatorReply struct {
	APIL1Validator
	SubnetID ids.ID         `json:"subnetID"`
	Height   jsonrpc.Uint64 `json:"height"`
}

// ProposedHeight is the Height that "proposed" decodes to: the height a new block would be
// proposed on, which on cornice (no proposer VM) is the last accepted block's
// (reference/platform-exchange.md §5.1, vms/platformvm/api/height.go).
const ProposedHeight Height = math.MaxUint64

// Height is a P-Chain height parameter: a uint64 as a string or a bare number, or "proposed"
// (ProposedHeight). The number 2^64-1 is refused: it stands for "proposed". Null leaves it
// unchanged.
type Height uint64

// MarshalJSON writes "proposed" or the height as a string.
func (h Height) MarshalJSON() ([]byte, error) {
	if h == ProposedHeight {
		return []byte(`"proposed"`), nil
	}
	return jsonrpc.Uint64(h).MarshalJSON()
}

// UnmarshalJSON reads what MarshalJSON writes, and bare numbers.
func (h *Height) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		return nil
	case `"proposed"`:
		*h = ProposedHeight
		return nil
	}
	var u jsonrpc.Uint64
	if err := u.UnmarshalJSON(b); err != nil || Height(u) == ProposedHeight {
		return errInvalidHeight
	}
	*h = Height(u)
	return nil
}

// GetValidatorsAtArgs are the params of platform.getValidatorsAt: a height and a subnet (the
// primary network when omitted).
type GetValidatorsAtArgs struct {
	Height   Height `json:"height"`
	SubnetID ids.ID `json:"subnetID"`
}

// APIValidatorAt is one validator of platform.getValidatorsAt: its compressed BLS key ("0x" + hex,
// or null) and its weight as a string (§5.1, the reference's custom marshaller).
type APIValidatorAt struct {
	PublicKey *string        `json:"publicKey"`
	Weight    jsonrpc.Uint64 `json:"weight"`
}

// GetValidatorsAtReply is the result of platform.getValidatorsAt: node ID → validator, keys in
// node ID string order (encoding/json sorts map keys). For an L1 the inactive validators' weights
// are summed under NodeID-111111111111111111116DBWJs with a null key (§4.7).
type GetValidatorsAtReply map[ids.NodeID]APIValidatorAt

// GetValidatorFeeConfigReply is the result of platform.getValidatorFeeConfig (§5.1): the L1
// validators' continuous fee configuration, plain numbers.
type GetValidatorFeeConfigReply struct {
	Capacity                 uint64 `json:"capacity"`
	Target                   uint64 `json:"target"`
	MinPrice                 uint64 `json:"minPrice"`
	ExcessConversionConstant uint64 `json:"excessConversionConstant"`
}

// GetValidatorFeeStateReply is the result of platform.getValidatorFeeState (§5.1): the continuous
// fee's excess and price per validator-second after the last accepted block, and its chain time.
type GetValidatorFeeStateReply struct {
	Excess    uint64 `json:"excess"`
	Price     uint64 `json:"price"`
	Timestamp string `json:"timestamp"`
}

// SubnetArgs are the params of the methods that take only a subnet (the primary network when
// omitted): platform.getStakingAssetID, getMinStake, getTotalStake, getCurrentSupply and
// validates.
type SubnetArgs struct {
	SubnetID ids.ID `json:"subnetID"`
}

// GetStakingAssetIDReply is the result of platform.getStakingAssetID.
type GetStakingAssetIDReply struct {
	AssetID ids.ID `json:"assetID"`
}

// GetMinStakeReply is the result of platform.getMinStake: the minimum stakes in nAVAX, as strings.
type GetMinStakeReply struct {
	MinValidatorStake jsonrpc.Uint64 `json:"minValidatorStake"`
	MinDelegatorStake jsonrpc.Uint64 `json:"minDelegatorStake"`
}

// GetTotalStakeReply is the result of platform.getTotalStake: the total weight, twice (the
// reference keeps the deprecated "stake" beside "weight").
type GetTotalStakeReply struct {
	Stake  jsonrpc.Uint64 `json:"stake"`
	Weight jsonrpc.Uint64 `json:"weight"`
}

// GetCurrentSupplyReply is the result of platform.getCurrentSupply: the supply bound and the
// last accepted height it was read at.
type GetCurrentSupplyReply struct {
	Supply jsonrpc.Uint64 `json:"supply"`
	Height jsonrpc.Uint64 `json:"height"`
}

// ValidatedByArgs are the params of platform.validatedBy.
type ValidatedByArgs struct {
	BlockchainID ids.ID `json:"blockchainID"`
}

// ValidatedByReply is the result of platform.validatedBy.
type ValidatedByReply struct {
	SubnetID ids.ID `json:"subnetID"`
}

// ValidatesReply is the result of platform.validates.
type ValidatesReply struct {
	BlockchainIDs []ids.ID `json:"blockchainIDs"`
}

// SampleSize is the size param of platform.sampleValidators: a uint16 as a decimal string, or a
// bare number (the reference's avajson.Uint16). Null leaves it unchanged.
type SampleSize uint16

// MarshalJSON returns the size as a quoted decimal.
func (s SampleSize) MarshalJSON() ([]byte, error) { return jsonrpc.Uint64(s).MarshalJSON() }

// UnmarshalJSON reads what MarshalJSON writes, and bare numbers up to 65535.
func (s *SampleSize) UnmarshalJSON(b []byte) error {
	u := jsonrpc.Uint64(*s)
	if err := u.UnmarshalJSON(b); err != nil {
		return err
	}
	if u > math.MaxUint16 {
		return sampleSizeError(uint64(u))
	}
	*s = SampleSize(u)
	return nil
}

// SampleValidatorsArgs are the params of platform.sampleValidators.
type SampleValidatorsArgs struct {
	Size     SampleSize `json:"size"`
	SubnetID ids.ID     `json:"subnetID"`
}

// SampleValidatorsReply is the result of platform.sampleValidators: node IDs sorted, a node ID
// once per unit of weight drawn.
type SampleValidatorsReply struct {
	Validators []ids.NodeID `json:"validators"`
}

// GetAllValidatorsAtArgs are the params of platform.getAllValidatorsAt.
type GetAllValidatorsAtArgs struct {
	Height Height `json:"height"`
}

// APIWarpValidator is one entry of a warp validator set: a compressed BLS key ("0x" + hex, no
// checksum), the weight of the validators holding it and their node IDs, sorted.
type APIWarpValidator struct {
	PublicKey string         `json:"publicKey"`
	Weight    jsonrpc.Uint64 `json:"weight"`
	NodeIDs   []ids.NodeID   `json:"nodeIDs"`
}

// APIWarpSet is a subnet's warp validator set: its validators with a key, sorted by uncompressed
// key, and the total weight, keyless validators included.
type APIWarpSet struct {
	Validators  []APIWarpValidator `json:"validators"`
	TotalWeight jsonrpc.Uint64     `json:"totalWeight"`
}

// GetAllValidatorsAtReply is the result of platform.getAllValidatorsAt: subnet ID → warp set, for
// every subnet with a validator at the height.
type GetAllValidatorsAtReply struct {
	ValidatorSets map[ids.ID]APIWarpSet `json:"validatorSets"`
}

// GetStakeArgs are the params of platform.getStake: at most MaxGetStakeAddrs addresses, whether
// to count validators only, and the encoding of the outputs (hex by default).
type GetStakeArgs struct {
	Addresses      []string     `json:"addresses"`
	ValidatorsOnly bool         `json:"validatorsOnly"`
	Encoding       ids.Encoding `json:"encoding"`
}

// GetStakeReply is the result of platform.getStake: the AVAX staked, the amounts per asset and
// the staked outputs (TransferableOutputs, txs-codec encoded).
type GetStakeReply struct {
	Staked   jsonrpc.Uint64            `json:"staked"`
	Stakeds  map[ids.ID]jsonrpc.Uint64 `json:"stakeds"`
	Outputs  []string                  `json:"stakedOutputs"`
	Encoding ids.Encoding              `json:"encoding"`
}

// GetRewardUTXOsArgs are the params of platform.getRewardUTXOs: a staking tx and an encoding.
type GetRewardUTXOsArgs = chainapi.GetTxArgs

// GetRewardUTXOsReply is the result of platform.getRewardUTXOs.
type GetRewardUTXOsReply struct {
	NumFetched jsonrpc.Uint64 `json:"numFetched"`
	UTXOs      []string       `json:"utxos"`
	Encoding   ids.Encoding   `json:"encoding"`
}
