package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
)

// warpAPI is the warp namespace of an L1 (l1-evm.md §5.7): its sent messages and the node's
// signatures of them and of accepted blocks. IDs are CB58, signatures and messages 0x-hex.
// The reference serves it only with warp-api-enabled in the chain config; cornice serves it
// on every L1 (docs/decisions.md).
type warpAPI struct{ vm *VM }

// GetMessage is warp_getMessage: the unsigned message an accepted block sent.
func (a *warpAPI) GetMessage(_ context.Context, messageID ids.ID) (hexutil.Bytes, error) {
	msg, err := a.vm.warpMessage(messageID)
	if err != nil {
		return nil, warpGetMessageError(messageID, err)
	}
	return msg.Bytes(), nil
}

// GetMessageSignature is warp_getMessageSignature: the node's 96-byte BLS signature of a sent
// message.
func (a *warpAPI) GetMessageSignature(_ context.Context, messageID ids.ID) (hexutil.Bytes, error) {
	msg, err := a.vm.warpMessage(messageID)
	if err != nil {
		return nil, warpGetMessageError(messageID, err)
	}
	sig, err := a.vm.signWarp(msg)
	if err != nil {
		return nil, warpMessageSignatureError(messageID, err)
	}
	return sig.Compress(), nil
}

// GetBlockSignature is warp_getBlockSignature: the node's signature of the Hash payload of an
// accepted block (blockID is the EVM block hash).
func (a *warpAPI) GetBlockSignature(_ context.Context, blockID ids.ID) (hexutil.Bytes, error) {
	sig, err := a.vm.signWarpBlock(blockID)
	if err != nil {
		return nil, warpBlockSignatureError(blockID, err)
	}
	return sig.Compress(), nil
}

// GetMessageAggregateSignature is warp_getMessageAggregateSignature: the signed message, as
// aggregated from the validators of subnetID ("" for the chain's own subnet) at the P-Chain's
// current height, asked over the network until quorumNum percent signed (not range-checked, as
// the reference); the aggregate holds what signed, whether or not it reaches quorumNum.
func (a *warpAPI) GetMessageAggregateSignature(ctx context.Context, messageID ids.ID, quorumNum uint64, subnetID string) (hexutil.Bytes, error) {
	msg, err := a.vm.warpMessage(messageID)
	if err != nil {
		return nil, warpNotFound(err)
	}
	return a.aggregate(ctx, msg, quorumNum, subnetID)
}

// GetBlockAggregateSignature is warp_getBlockAggregateSignature: as
// GetMessageAggregateSignature, for the Hash payload of block blockID. The block is not
// checked first: an unknown one gets no signature, and the answer is "0x".
func (a *warpAPI) GetBlockAggregateSignature(ctx context.Context, blockID ids.ID, quorumNum uint64, subnetID string) (hexutil.Bytes, error) {
	if a.vm.blockByHash([32]byte(blockID)) == nil {
		return hexutil.Bytes{}, nil
	}
	return a.aggregate(ctx, a.vm.warpBlockMessage(blockID), quorumNum, subnetID)
}

func (a *warpAPI) aggregate(ctx context.Context, msg *warp.UnsignedMessage, quorum uint64, subnet string) (hexutil.Bytes, error) {
	subnetID := a.vm.warp.subnetID
	if subnet != "" {
		id, err := ids.FromString(subnet)
		if err != nil {
			return nil, warpSubnetIDError(subnet)
		}
		subnetID = id
	}
	b, err := a.vm.aggregateWarp(ctx, msg, subnetID, quorum)
	if err != nil {
		return nil, err
	}
	return hexutil.Bytes(b), nil
}
