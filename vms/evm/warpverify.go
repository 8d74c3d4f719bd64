package evm

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
	"github.com/cornice-node/cornice/warp/payload"
)

// Codes of the chain's signature refusals (acp118.Error.Code), as the reference's Subnet-EVM
// numbers them: a request it cannot parse, and one it will not sign.
const (
	CodeWarpParse  int32 = 1
	CodeWarpVerify int32 = 2
)

var _ acp118.Verifier = (*VM)(nil)

// VerifyWarp implements acp118.Verifier (network-consensus-warp.md §4.3): the chain signs a
// message that one of its accepted blocks sent, and the Hash payload of an accepted block. The
// reference's off-chain ValidatorUptime messages are not signed here.
func (vm *VM) VerifyWarp(_ context.Context, msg *warp.UnsignedMessage, _ []byte) error {
	_, err := vm.warpMessage(msg.ID())
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("read warp message %s: %w", msg.ID(), err)
	}
	p, err := payload.Parse(msg.Payload)
	if err != nil {
		return &acp118.Error{Code: CodeWarpParse, Message: "failed to parse payload: " + err.Error()}
	}
	if h, ok := p.(*payload.Hash); ok {
		if vm.blockByHash(common.Hash(h.Hash)) == nil {
			return &acp118.Error{Code: CodeWarpVerify, Message: fmt.Sprintf("failed to get block %s: not found", h.Hash)}
		}
		return nil
	}
	return &acp118.Error{Code: CodeWarpVerify, Message: fmt.Sprintf("failed to get message %s: not found", msg.ID())}
}
