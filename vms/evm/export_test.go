package evm

import "context"

// BuildBlockNoFeeCheck builds a block as BuildBlock does but without the
// block fee check, and without remembering it as the block built last, so
// that tests can hand its bytes to ParseBlock as a block from elsewhere.
func (vm *VM) BuildBlockNoFeeCheck(ctx context.Context) (*Block, error) {
	return vm.buildBlock(ctx, false, false)
}

// SetGasCost changes the block gas cost a built block claims.
func SetGasCost(b *Block, cost uint64) { b.gasCost = cost }
