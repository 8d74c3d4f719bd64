package precompile

import (
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// The precompiles' interfaces (l1-evm.md §5.1, §5.4–§5.7). The selectors and event topics
// are derived from these signatures; abi_test.go pins them to the reference's values.
const (
	allowListJSON = `[
 {"type":"function","name":"readAllowList","stateMutability":"view","inputs":[{"name":"addr","type":"address"}],"outputs":[{"name":"role","type":"uint256"}]},
 {"type":"function","name":"setAdmin","stateMutability":"nonpayable","inputs":[{"name":"addr","type":"address"}],"outputs":[]},
 {"type":"function","name":"setEnabled","stateMutability":"nonpayable","inputs":[{"name":"addr","type":"address"}],"outputs":[]},
 {"type":"function","name":"setManager","stateMutability":"nonpayable","inputs":[{"name":"addr","type":"address"}],"outputs":[]},
 {"type":"function","name":"setNone","stateMutability":"nonpayable","inputs":[{"name":"addr","type":"address"}],"outputs":[]},
 {"type":"event","name":"RoleSet","anonymous":false,"inputs":[{"name":"role","type":"uint256","indexed":true},{"name":"account","type":"address","indexed":true},{"name":"sender","type":"address","indexed":true},{"name":"oldRole","type":"uint256","indexed":false}]}
]`

	nativeMinterJSON = `[
 {"type":"function","name":"mintNativeCoin","stateMutability":"nonpayable","inputs":[{"name":"addr","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]},
 {"type":"event","name":"NativeCoinMinted","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"recipient","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false}]}
]`

	feeManagerJSON = `[
 {"type":"function","name":"setFeeConfig","stateMutability":"nonpayable","inputs":[` + feeFieldsJSON + `],"outputs":[]},
 {"type":"function","name":"getFeeConfig","stateMutability":"view","inputs":[],"outputs":[` + feeFieldsJSON + `]},
 {"type":"function","name":"getFeeConfigLastChangedAt","stateMutability":"view","inputs":[],"outputs":[{"name":"blockNumber","type":"uint256"}]},
 {"type":"event","name":"FeeConfigChanged","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},
  {"name":"oldFeeConfig","type":"tuple","indexed":false,"components":[` + feeFieldsJSON + `]},
  {"name":"newFeeConfig","type":"tuple","indexed":false,"components":[` + feeFieldsJSON + `]}]}
]`

	feeFieldsJSON = `{"name":"gasLimit","type":"uint256"},{"name":"targetBlockRate","type":"uint256"},{"name":"minBaseFee","type":"uint256"},{"name":"targetGas","type":"uint256"},{"name":"baseFeeChangeDenominator","type":"uint256"},{"name":"minBlockGasCost","type":"uint256"},{"name":"maxBlockGasCost","type":"uint256"},{"name":"blockGasCostStep","type":"uint256"}`

	rewardManagerJSON = `[
 {"type":"function","name":"allowFeeRecipients","stateMutability":"nonpayable","inputs":[],"outputs":[]},
 {"type":"function","name":"disableRewards","stateMutability":"nonpayable","inputs":[],"outputs":[]},
 {"type":"function","name":"setRewardAddress","stateMutability":"nonpayable","inputs":[{"name":"addr","type":"address"}],"outputs":[]},
 {"type":"function","name":"areFeeRecipientsAllowed","stateMutability":"view","inputs":[],"outputs":[{"name":"isAllowed","type":"bool"}]},
 {"type":"function","name":"currentRewardAddress","stateMutability":"view","inputs":[],"outputs":[{"name":"rewardAddress","type":"address"}]},
 {"type":"event","name":"FeeRecipientsAllowed","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true}]},
 {"type":"event","name":"RewardAddressChanged","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"oldRewardAddress","type":"address","indexed":true},{"name":"newRewardAddress","type":"address","indexed":true}]},
 {"type":"event","name":"RewardsDisabled","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true}]}
]`

	warpJSON = `[
 {"type":"function","name":"getBlockchainID","stateMutability":"view","inputs":[],"outputs":[{"name":"blockchainID","type":"bytes32"}]},
 {"type":"function","name":"getVerifiedWarpMessage","stateMutability":"view","inputs":[{"name":"index","type":"uint32"}],"outputs":[
  {"name":"message","type":"tuple","components":[{"name":"sourceChainID","type":"bytes32"},{"name":"originSenderAddress","type":"address"},{"name":"payload","type":"bytes"}]},
  {"name":"valid","type":"bool"}]},
 {"type":"function","name":"getVerifiedWarpBlockHash","stateMutability":"view","inputs":[{"name":"index","type":"uint32"}],"outputs":[
  {"name":"warpBlockHash","type":"tuple","components":[{"name":"sourceChainID","type":"bytes32"},{"name":"blockHash","type":"bytes32"}]},
  {"name":"valid","type":"bool"}]},
 {"type":"function","name":"sendWarpMessage","stateMutability":"nonpayable","inputs":[{"name":"payload","type":"bytes"}],"outputs":[{"name":"messageID","type":"bytes32"}]},
 {"type":"event","name":"SendWarpMessage","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"messageID","type":"bytes32","indexed":true},{"name":"message","type":"bytes","indexed":false}]}
]`
)

// The parsed interfaces: tables that never change.
var (
	allowListABI     = mustParseABI(allowListJSON)
	nativeMinterABI  = mustParseABI(nativeMinterJSON)
	feeManagerABI    = mustParseABI(feeManagerJSON)
	rewardManagerABI = mustParseABI(rewardManagerJSON)
	warpABI          = mustParseABI(warpJSON)
)

// mustParseABI parses one of the constant interfaces above; a failure is a programmer error.
func mustParseABI(s string) abi.ABI {
	a, err := abi.JSON(strings.NewReader(s))
	if err != nil {
		panic("precompile: bad built-in ABI: " + err.Error())
	}
	return a
}

// AllowListABI returns the allow-list interface shared by four precompiles (l1-evm.md §5.1).
func AllowListABI() abi.ABI { return allowListABI }

// NativeMinterABI returns the native minter's own functions and event (l1-evm.md §5.4).
func NativeMinterABI() abi.ABI { return nativeMinterABI }

// FeeManagerABI returns the fee manager's own functions and event (l1-evm.md §5.5).
func FeeManagerABI() abi.ABI { return feeManagerABI }

// RewardManagerABI returns the reward manager's own functions and events (l1-evm.md §5.6).
func RewardManagerABI() abi.ABI { return rewardManagerABI }

// WarpABI returns the warp precompile's interface (l1-evm.md §5.7).
func WarpABI() abi.ABI { return warpABI }

// unpackInputs decodes the arguments of a's method fn from in (the input after the
// selector). Extra bytes after the arguments are ignored, as from Durango on (l1-evm.md
// §5.0); callers check the exact length first when strict.
func unpackInputs(a abi.ABI, fn string, in []byte) ([]any, error) {
	return a.Methods[fn].Inputs.Unpack(in)
}
