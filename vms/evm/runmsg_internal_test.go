package evm

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/stretchr/testify/require"
)

// A call's own deadline (callEnv.deadline, serveCall's bound) stops it on every path of runMsg
// as the end of its context would: on an EVM of the call base's pools, on an EVM of its own for
// a tracer, and on one for a call with state overrides, which has no call base. The call is a
// creation whose code loops until its gas (the gas cap) runs out; its context never ends.
func TestRunMsgDeadline(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	loop := hexutil.Bytes{0x5b, 0x60, 0x00, 0x56} // JUMPDEST PUSH1 0 JUMP
	balance := hexutil.Big(*common.Big1)
	for _, tc := range []struct {
		name  string
		so    *stateOverride
		hooks *tracing.Hooks
		base  bool // whether the call has a call base
	}{
		{name: "pooled", base: true},
		{name: "tracer", hooks: &tracing.Hooks{}, base: true},
		{name: "overrides", so: &stateOverride{common.Address{1}: {Balance: &balance}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, msg, err := vm.callMsg(callArgs{Data: &loop}, nil, tc.so, nil)
			require.NoError(t, err)
			require.Equal(t, tc.base, env.base != nil, "the path under test")
			env.deadline = time.Now().Add(-time.Second)
			_, err = vm.runMsg(context.Background(), env, msg, tc.hooks)
			require.ErrorIs(t, err, errExecutionAborted)
		})
	}
}
