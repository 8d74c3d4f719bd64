package precompile

import (
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// Role is an address's role in an allow list (l1-evm.md §5.1).
type Role uint64

// The roles, with their stored values.
const (
	RoleNone    Role = 0
	RoleEnabled Role = 1
	RoleAdmin   Role = 2
	// RoleManager exists from Durango on.
	RoleManager Role = 3
)

// String prints a role as the reference's error texts do (NoRole, EnabledRole, AdminRole,
// ManagerRole; UnknownRole for any other stored value).
func (r Role) String() string {
	switch r {
	case RoleNone:
		return "NoRole"
	case RoleEnabled:
		return "EnabledRole"
	case RoleAdmin:
		return "AdminRole"
	case RoleManager:
		return "ManagerRole"
	default:
		return "UnknownRole"
	}
}

// IsEnabled reports whether r may use the precompile: Enabled, Admin or Manager.
func (r Role) IsEnabled() bool { return r == RoleEnabled || r == RoleAdmin || r == RoleManager }

// CanModify reports whether an address with role r may change another address's role from
// from to to: an Admin anything, a Manager only between None and Enabled, nobody else
// anything (l1-evm.md §5.1).
func (r Role) CanModify(from, to Role) bool {
	switch r {
	case RoleAdmin:
		return true
	case RoleManager:
		return (from == RoleNone || from == RoleEnabled) && (to == RoleNone || to == RoleEnabled)
	default:
		return false
	}
}

// StateReader is the part of a state the read helpers need; *state.StateDB and vm.StateDB
// implement it.
type StateReader interface {
	GetState(addr common.Address, key common.Hash) common.Hash
}

// StateWriter is a StateReader that can also write storage.
type StateWriter interface {
	StateReader
	SetState(addr common.Address, key, value common.Hash) common.Hash
}

// roleFromHash decodes a stored role; a value that does not fit is UnknownRole's.
func roleFromHash(h common.Hash) Role {
	for _, b := range h[:24] {
		if b != 0 {
			return Role(^uint64(0))
		}
	}
	return Role(new(big.Int).SetBytes(h[24:]).Uint64())
}

// RoleOf returns addr's role in the allow list of the precompile at precompile: the
// precompile's storage slot keyed by the address left-padded to 32 bytes (l1-evm.md §5.1).
func RoleOf(state StateReader, precompile, addr common.Address) Role {
	return roleFromHash(state.GetState(precompile, common.BytesToHash(addr.Bytes())))
}

// SetRole writes addr's role in the allow list of the precompile at precompile.
func SetRole(state StateWriter, precompile, addr common.Address, role Role) {
	state.SetState(precompile, common.BytesToHash(addr.Bytes()), common.BigToHash(new(big.Int).SetUint64(uint64(role))))
}

// TxAllowed reports whether from may send transactions under the transaction allow list:
// it has the Enabled, Manager or Admin role (l1-evm.md §5.3). Call it only while
// txAllowListConfig is active; it is checked at admission and in block building, not in
// eth_call or eth_estimateGas.
func TxAllowed(state StateReader, from common.Address) bool {
	return RoleOf(state, l1params.TxAllowListAddress, from).IsEnabled()
}

// CheckTxAllowed is TxAllowed with the reference's admission error, TxNotAllowedError.
func CheckTxAllowed(state StateReader, from common.Address) error {
	if !TxAllowed(state, from) {
		return TxNotAllowedError(from)
	}
	return nil
}

// CanDeploy reports whether a transaction whose tx.origin is origin may create contracts
// under the deployer allow list (l1-evm.md §5.2). Call it only while
// contractDeployerAllowListConfig is active.
func CanDeploy(state StateReader, origin common.Address) bool {
	return RoleOf(state, l1params.DeployerAllowListAddress, origin).IsEnabled()
}

// allowListEventGas is RoleSet's cost: log, four topics, one word (l1-evm.md §5.1).
const allowListEventGas = logGas + 4*logTopicGas + 32*logDataGas

// addAllowList registers the allow-list functions in c.
func addAllowList(c *contract) {
	m := allowListABI.Methods
	c.add(m["readAllowList"].ID, function{run: readAllowList})
	c.add(m["setAdmin"].ID, function{run: roleSetter("setAdmin", RoleAdmin)})
	c.add(m["setEnabled"].ID, function{run: roleSetter("setEnabled", RoleEnabled)})
	c.add(m["setNone"].ID, function{run: roleSetter("setNone", RoleNone)})
	c.add(m["setManager"].ID, function{run: roleSetter("setManager", RoleManager), durango: true})
}

// decodeAddressArg decodes fn's single address argument: exactly 32 bytes before Durango,
// any padding after.
func decodeAddressArg(c *call, a abi.ABI, fn string) (common.Address, error) {
	if c.strict() && len(c.input) != common.HashLength {
		return common.Address{}, allowListLenError(fn, len(c.input))
	}
	vals, err := unpackInputs(a, fn, c.input)
	if err != nil {
		return common.Address{}, err
	}
	return vals[0].(common.Address), nil
}

// readAllowList returns the role of its argument (5,000 gas; anyone).
func readAllowList(c *call) ([]byte, error) {
	if err := c.use(readSlotGas); err != nil {
		return nil, err
	}
	addr, err := decodeAddressArg(c, allowListABI, "readAllowList")
	if err != nil {
		return nil, err
	}
	role := RoleOf(c.state, c.addr, addr)
	return common.BigToHash(new(big.Int).SetUint64(uint64(role))).Bytes(), nil
}

// roleSetter returns the setter that gives its argument role: charge → decode → read-only
// → permission → (Durango) event → write (l1-evm.md §5.1).
func roleSetter(fn string, role Role) func(c *call) ([]byte, error) {
	return func(c *call) ([]byte, error) {
		if err := c.use(writeSlotGas); err != nil {
			return nil, err
		}
		target, err := decodeAddressArg(c, allowListABI, fn)
		if err != nil {
			return nil, err
		}
		if c.readOnly {
			return nil, vm.ErrWriteProtection
		}
		callerRole := RoleOf(c.state, c.addr, c.caller)
		current := RoleOf(c.state, c.addr, target)
		if !callerRole.CanModify(current, role) {
			return nil, cannotModifyError(c.caller, current, role)
		}
		if c.rules.IsDurango {
			if err := c.use(allowListEventGas); err != nil {
				return nil, err
			}
			c.log([]common.Hash{
				allowListABI.Events["RoleSet"].ID,
				common.BigToHash(new(big.Int).SetUint64(uint64(role))),
				common.BytesToHash(target.Bytes()),
				common.BytesToHash(c.caller.Bytes()),
			}, common.BigToHash(new(big.Int).SetUint64(uint64(current))).Bytes())
		}
		SetRole(c.state, c.addr, target, role)
		return []byte{}, nil
	}
}

// configureAllowList writes a config's roles in the reference's order: enabled, admin,
// manager (l1-evm.md §5.1).
func configureAllowList(state StateWriter, precompile common.Address, cfg l1params.AllowListConfig) {
	for _, a := range cfg.EnabledAddresses {
		SetRole(state, precompile, a, RoleEnabled)
	}
	for _, a := range cfg.AdminAddresses {
		SetRole(state, precompile, a, RoleAdmin)
	}
	for _, a := range cfg.ManagerAddresses {
		SetRole(state, precompile, a, RoleManager)
	}
}
