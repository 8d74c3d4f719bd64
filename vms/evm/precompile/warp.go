package precompile

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// Warp gas before Granite and from Granite (l1-evm.md §5.7).
const (
	warpGetBlockchainIDGas        = 2
	warpGetBlockchainIDGasGranite = 200
	warpGetVerifiedGas            = 2
	warpGetVerifiedGasGranite     = 750
	warpChunkGas                  = 3_200
	warpChunkGasGranite           = 512
	// warpSendBaseGas is log, three topics and two slot writes; 8 per input byte follows.
	warpSendBaseGas = logGas + 3*logTopicGas + 2*writeSlotGas
)

// addWarp registers the warp functions in c.
func addWarp(c *contract) {
	m := warpABI.Methods
	c.add(m["getBlockchainID"].ID, function{run: getBlockchainID})
	c.add(m["getVerifiedWarpMessage"].ID, function{run: getVerified("getVerifiedWarpMessage", warpMessageOutput)})
	c.add(m["getVerifiedWarpBlockHash"].ID, function{run: getVerified("getVerifiedWarpBlockHash", warpBlockHashOutput)})
	c.add(m["sendWarpMessage"].ID, function{run: sendWarpMessage})
}

func getBlockchainID(c *call) ([]byte, error) {
	gas := uint64(warpGetBlockchainIDGas)
	if c.rules.IsGranite {
		gas = warpGetBlockchainIDGasGranite
	}
	if err := c.use(gas); err != nil {
		return nil, err
	}
	id := c.r.env.BlockchainID
	return id.Bytes(), nil
}

// SetWarpPredicates gives the runtime the warp predicates of the transaction about to run,
// in access-list order, with the verification results the block recorded. Every
// transaction's call replaces the previous one's; nil means none.
func (r *Runtime) SetWarpPredicates(ps []WarpPredicate) { r.warp = ps }

// getVerified returns fn: decode the index; for a predicate that exists and verified, charge
// its chunks and return out of its message, otherwise the "invalid" output for the base gas
// only (l1-evm.md §5.7).
func getVerified(fn string, out func(m *warp.Message) ([]byte, error)) func(c *call) ([]byte, error) {
	return func(c *call) ([]byte, error) {
		gas, chunkGas := uint64(warpGetVerifiedGas), uint64(warpChunkGas)
		if c.rules.IsGranite {
			gas, chunkGas = warpGetVerifiedGasGranite, warpChunkGasGranite
		}
		if err := c.use(gas); err != nil {
			return nil, err
		}
		vals, err := unpackInputs(warpABI, fn, c.input)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errUnpackInput, err)
		}
		index := vals[0].(uint32)
		if int64(index) >= int64(len(c.r.warp)) || !c.r.warp[index].Valid {
			return invalidWarpOutput(fn), nil
		}
		p := c.r.warp[index]
		if err := c.use(chunkGas * uint64(len(p.Keys))); err != nil {
			return nil, err
		}
		b, err := UnpackPredicate(p.Keys)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidPredicateBytes, err)
		}
		m, err := warp.ParseMessage(b)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidWarpMessage, err)
		}
		return out(m)
	}
}

// warpMessageOutput is getVerifiedWarpMessage's output for m: its source chain, the sender
// and payload of its AddressedCall, valid.
func warpMessageOutput(m *warp.Message) ([]byte, error) {
	call, err := payload.ParseAddressedCall(m.Payload)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidAddressedPayload, err)
	}
	msg := warpMessage{
		SourceChainID:       m.SourceChainID,
		OriginSenderAddress: common.BytesToAddress(call.SourceAddress),
		Payload:             call.Payload,
	}
	return packWarpOutput("getVerifiedWarpMessage", msg, true), nil
}

// warpBlockHashOutput is getVerifiedWarpBlockHash's output for m: its source chain and the
// hash of its Hash payload, valid.
func warpBlockHashOutput(m *warp.Message) ([]byte, error) {
	h, err := payload.ParseHash(m.Payload)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidBlockHashPayload, err)
	}
	return packWarpOutput("getVerifiedWarpBlockHash", warpBlockHash{SourceChainID: m.SourceChainID, BlockHash: h.Hash}, true), nil
}

// warpMessage and warpBlockHash are the tuples of the getVerified functions' outputs.
type (
	warpMessage struct {
		SourceChainID       [32]byte
		OriginSenderAddress common.Address
		Payload             []byte
	}
	warpBlockHash struct {
		SourceChainID [32]byte
		BlockHash     [32]byte
	}
)

// invalidWarpOutput is the ABI output of fn with an empty message and valid = false.
func invalidWarpOutput(fn string) []byte {
	if fn == "getVerifiedWarpMessage" {
		return packWarpOutput(fn, warpMessage{Payload: []byte{}}, false)
	}
	return packWarpOutput(fn, warpBlockHash{}, false)
}

// packWarpOutput packs fn's output (tuple, valid).
func packWarpOutput(fn string, tuple any, valid bool) []byte {
	out, err := warpABI.Methods[fn].Outputs.Pack(tuple, valid)
	if err != nil {
		panic("precompile: pack warp output: " + err.Error()) // the tuple types are fixed
	}
	return out
}

// sendWarpMessage builds the unsigned message of an AddressedCall from the caller (its
// 20-byte address) with the given payload, from this chain, logs SendWarpMessage(sender,
// messageID, message) and returns the message ID. The node stores the message for signing
// when the block is accepted (l1-evm.md §5.7).
func sendWarpMessage(c *call) ([]byte, error) {
	if err := c.use(warpSendBaseGas + logDataGas*uint64(len(c.input))); err != nil {
		return nil, err
	}
	if c.readOnly {
		return nil, vm.ErrWriteProtection
	}
	vals, err := unpackInputs(warpABI, "sendWarpMessage", c.input)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSendInput, err)
	}
	call := &payload.AddressedCall{SourceAddress: c.caller.Bytes(), Payload: vals[0].([]byte)}
	msg := warp.NewUnsignedMessage(c.r.env.NetworkID, ids.ID(c.r.env.BlockchainID), call.Bytes())
	id := msg.ID()
	data, err := warpABI.Events["SendWarpMessage"].Inputs.NonIndexed().Pack(msg.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSendInput, err)
	}
	c.log([]common.Hash{warpABI.Events["SendWarpMessage"].ID, common.BytesToHash(c.caller.Bytes()), common.Hash(id)}, data)
	return id[:], nil
}

// SendWarpMessageTopic is the topic of the SendWarpMessage event, by which the VM finds the
// messages a block sent.
func SendWarpMessageTopic() common.Hash { return warpABI.Events["SendWarpMessage"].ID }

// SentWarpMessage returns the unsigned message of a SendWarpMessage log's data.
func SentWarpMessage(data []byte) (*warp.UnsignedMessage, error) {
	vals, err := warpABI.Events["SendWarpMessage"].Inputs.NonIndexed().Unpack(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidWarpMessage, err)
	}
	return warp.ParseUnsignedMessage(vals[0].([]byte))
}
