package precompile

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Test accounts.
var (
	admin   = common.HexToAddress("0x00000000000000000000000000000000000000aa")
	manager = common.HexToAddress("0x00000000000000000000000000000000000000bb")
	enabled = common.HexToAddress("0x00000000000000000000000000000000000000cc")
	nobody  = common.HexToAddress("0x00000000000000000000000000000000000000dd")
	other   = common.HexToAddress("0x00000000000000000000000000000000000000ee")
)

// durangoTime is a block time after 2025-08-02 (the delegatecall-invalidation period).
const durangoTime = 1_800_000_000

func testChainConfig() *params.ChainConfig {
	zero := uint64(0)
	return &params.ChainConfig{
		ChainID: big.NewInt(99999), HomesteadBlock: new(big.Int), EIP150Block: new(big.Int), EIP155Block: new(big.Int),
		EIP158Block: new(big.Int), ByzantiumBlock: new(big.Int), ConstantinopleBlock: new(big.Int), PetersburgBlock: new(big.Int),
		IstanbulBlock: new(big.Int), MuirGlacierBlock: new(big.Int), BerlinBlock: new(big.Int), LondonBlock: new(big.Int),
		TerminalTotalDifficulty: new(big.Int), ShanghaiTime: &zero, CancunTime: &zero,
		BlobScheduleConfig: &params.BlobScheduleConfig{Cancun: params.DefaultCancunBlobConfig},
	}
}

func roles() l1params.AllowListConfig {
	return l1params.AllowListConfig{
		AdminAddresses:   []common.Address{admin},
		ManagerAddresses: []common.Address{manager},
		EnabledAddresses: []common.Address{enabled},
	}
}

func testFeeConfig() l1params.FeeConfig {
	return l1params.FeeConfig{
		GasLimit: big.NewInt(8_000_000), TargetBlockRate: 2, MinBaseFee: big.NewInt(25_000_000_000),
		TargetGas: big.NewInt(15_000_000), BaseFeeChangeDenominator: big.NewInt(36), MinBlockGasCost: big.NewInt(0),
		MaxBlockGasCost: big.NewInt(1_000_000), BlockGasCostStep: big.NewInt(200_000),
	}
}

// allConfigs enables every precompile with the standard roles.
func allConfigs() []l1params.PrecompileConfig {
	zero := uint64(0)
	up := l1params.Upgrade{BlockTimestamp: &zero}
	return []l1params.PrecompileConfig{
		&l1params.DeployerAllowListConfig{AllowListConfig: roles(), Upgrade: up},
		&l1params.NativeMinterConfig{AllowListConfig: roles(), Upgrade: up},
		&l1params.TxAllowListConfig{AllowListConfig: roles(), Upgrade: up},
		&l1params.FeeManagerConfig{AllowListConfig: roles(), Upgrade: up},
		&l1params.RewardManagerConfig{AllowListConfig: roles(), Upgrade: up},
		&l1params.WarpConfig{Upgrade: up},
	}
}

// harness is an EVM over a fresh state with some precompiles activated.
type harness struct {
	t     testing.TB
	state *state.StateDB
	env   Env
	time  uint64
	user  *tracing.Hooks
	rt    *Runtime
	evm   *vm.EVM
}

func newHarness(t testing.TB, rules Rules, cfgs ...l1params.PrecompileConfig) *harness {
	t.Helper()
	st, err := state.New(types.EmptyRootHash, state.NewDatabaseForTesting())
	require.NoError(t, err)
	for _, c := range cfgs {
		require.NoError(t, Activate(st, c, 0, testFeeConfig(), false))
	}
	for _, a := range []common.Address{admin, manager, enabled, nobody, other} {
		st.AddBalance(a, uint256.NewInt(1e18), tracing.BalanceChangeUnspecified)
	}
	h := &harness{t: t, state: st, env: Env{Rules: rules, Active: cfgs, BlockchainID: common.HexToHash("0x1234")}, time: durangoTime}
	h.reset()
	return h
}

// reset builds a fresh Runtime and EVM (after changing env, time or user).
func (h *harness) reset() {
	random := common.Hash{31: 1}
	bctx := vm.BlockContext{
		CanTransfer: core.CanTransfer, Transfer: core.Transfer,
		GetHash:     func(uint64) common.Hash { return common.Hash{} },
		BlockNumber: big.NewInt(7), Time: h.time, Difficulty: new(big.Int), BaseFee: new(big.Int),
		BlobBaseFee: big.NewInt(1), GasLimit: 30_000_000, Random: &random,
	}
	h.rt = New(h.env)
	h.evm = vm.NewEVM(bctx, h.rt.WrapState(h.state), testChainConfig(), vm.Config{Tracer: h.rt.Hooks(h.user)})
	h.rt.Install(h.evm, nil)
}

// call runs a top-level CALL from from (also tx.origin) with gas, returning the output,
// the gas used and the error.
func (h *harness) call(from, to common.Address, input []byte, gas uint64) ([]byte, uint64, error) {
	h.evm.SetTxContext(vm.TxContext{Origin: from, GasPrice: new(uint256.Int)})
	start := vm.NewGasBudget(gas, 0)
	ret, left, err := h.evm.Call(from, to, input, start, new(uint256.Int))
	return ret, gas - left.ExecutionGas, err
}

// apply runs msg as a transaction with core.ApplyMessage.
func (h *harness) apply(from common.Address, to *common.Address, data []byte, gas uint64) *core.ExecutionResult {
	msg := &core.Message{
		From: from, To: to, Nonce: h.state.GetNonce(from), Value: new(uint256.Int), GasLimit: gas,
		GasPrice: new(uint256.Int), GasFeeCap: new(uint256.Int), GasTipCap: new(uint256.Int), Data: data,
	}
	res, err := core.ApplyMessage(h.evm, msg, core.NewGasPool(gas))
	require.NoError(h.t, err)
	return res
}

// pack encodes a call with one of the package's ABIs.
func pack(t testing.TB, a interface {
	Pack(string, ...any) ([]byte, error)
}, name string, args ...any) []byte {
	t.Helper()
	b, err := a.Pack(name, args...)
	require.NoError(t, err)
	return b
}

// proxyCode is runtime code that forwards its calldata to target with op (CALL,
// STATICCALL or DELEGATECALL) and all its gas, returning the output or reverting with it.
func proxyCode(op vm.OpCode, target common.Address) []byte {
	code := []byte{byte(vm.CALLDATASIZE), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.CALLDATACOPY)}
	code = append(code, byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.CALLDATASIZE), byte(vm.PUSH0))
	if op == vm.CALL || op == vm.CALLCODE {
		code = append(code, byte(vm.PUSH0)) // value
	}
	code = append(code, byte(vm.PUSH20))
	code = append(code, target.Bytes()...)
	code = append(code, byte(vm.GAS), byte(op))
	code = append(code, byte(vm.RETURNDATASIZE), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.RETURNDATACOPY))
	dest := len(code) + 6
	code = append(code, byte(vm.PUSH1), byte(dest), byte(vm.JUMPI))
	code = append(code, byte(vm.RETURNDATASIZE), byte(vm.PUSH0), byte(vm.REVERT))
	code = append(code, byte(vm.JUMPDEST), byte(vm.RETURNDATASIZE), byte(vm.PUSH0), byte(vm.RETURN))
	return code
}

// factoryCode is runtime code that CREATEs an empty contract and returns its address
// (zero when the creation failed).
func factoryCode() []byte {
	return []byte{
		byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.CREATE),
		byte(vm.PUSH0), byte(vm.MSTORE), byte(vm.PUSH1), 32, byte(vm.PUSH0), byte(vm.RETURN),
	}
}

// deploy puts code at addr.
func (h *harness) deploy(addr common.Address, code []byte) {
	h.state.SetCode(addr, code, tracing.CodeChangeUnspecified)
	h.state.SetNonce(addr, 1, tracing.NonceChangeUnspecified)
}

// exitRecorder records each frame's exit error by depth.
type exitRecorder struct {
	errs map[int]error
	used map[int]uint64
}

func (e *exitRecorder) hooks() *tracing.Hooks {
	e.errs, e.used = map[int]error{}, map[int]uint64{}
	return &tracing.Hooks{OnExit: func(depth int, _ []byte, gasUsed uint64, err error, _ bool) {
		e.errs[depth], e.used[depth] = err, gasUsed
	}}
}

func word(v uint64) []byte { return common.BigToHash(new(big.Int).SetUint64(v)).Bytes() }

// applyWithAccessList is apply with list as the access list's addresses.
func (h *harness) applyWithAccessList(from common.Address, to *common.Address, data []byte, gas uint64, list ...common.Address) *core.ExecutionResult {
	var al types.AccessList
	for _, a := range list {
		al = append(al, types.AccessTuple{Address: a})
	}
	msg := &core.Message{
		From: from, To: to, Nonce: h.state.GetNonce(from), Value: new(uint256.Int), GasLimit: gas,
		GasPrice: new(uint256.Int), GasFeeCap: new(uint256.Int), GasTipCap: new(uint256.Int), Data: data, AccessList: al,
	}
	res, err := core.ApplyMessage(h.evm, msg, core.NewGasPool(gas))
	require.NoError(h.t, err)
	return res
}
