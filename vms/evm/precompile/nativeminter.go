package precompile

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// Native minter gas (l1-evm.md §5.4).
const (
	mintGas = 30_000
	// mintEventGas is NativeCoinMinted's cost: log, three topics, one word.
	mintEventGas = logGas + 3*logTopicGas + 32*logDataGas
	mintInputLen = 2 * common.HashLength
)

// addNativeMinter registers mintNativeCoin in c.
func addNativeMinter(c *contract) {
	c.add(nativeMinterABI.Methods["mintNativeCoin"].ID, function{run: mintNativeCoin})
}

// mintNativeCoin adds amount to addr's balance: charge → read-only → decode → caller
// Enabled+ → (Durango) event → create addr if absent → credit (l1-evm.md §5.4).
func mintNativeCoin(c *call) ([]byte, error) {
	if err := c.use(mintGas); err != nil {
		return nil, err
	}
	if c.readOnly {
		return nil, vm.ErrWriteProtection
	}
	if c.strict() && len(c.input) != mintInputLen {
		return nil, fmt.Errorf("%w: %d", errInvalidMintLen, len(c.input))
	}
	vals, err := unpackInputs(nativeMinterABI, "mintNativeCoin", c.input)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUnpackInput, err)
	}
	to, amount := vals[0].(common.Address), vals[1].(*big.Int)
	if !RoleOf(c.state, c.addr, c.caller).IsEnabled() {
		return nil, cannotMintError(c.caller)
	}
	if c.rules.IsDurango {
		if err := c.use(mintEventGas); err != nil {
			return nil, err
		}
		c.log([]common.Hash{
			nativeMinterABI.Events["NativeCoinMinted"].ID,
			common.BytesToHash(c.caller.Bytes()),
			common.BytesToHash(to.Bytes()),
		}, common.BigToHash(amount).Bytes())
	}
	if !c.state.Exist(to) {
		c.state.CreateAccount(to)
	}
	c.state.AddBalance(to, uint256.MustFromBig(amount), tracing.BalanceChangeUnspecified)
	return []byte{}, nil
}
