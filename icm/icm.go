package icm

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/ids"
)

//go:embed contracts/contracts.json
var contractsJSON []byte

// Contract is a compiled contract: its ABI and creation bytecode.
type Contract struct {
	ABI      abi.ABI
	Bytecode []byte
}

// Names of the contracts in contracts.json.
const (
	MessengerName    = "Messenger"
	TestReceiverName = "TestReceiver"
	TestTokenName    = "TestToken"
)

var loadContracts = sync.OnceValues(func() (map[string]*Contract, error) {
	var raw map[string]struct {
		ABI json.RawMessage `json:"abi"`
		Bin hexutil.Bytes   `json:"bin"`
	}
	if err := json.Unmarshal(contractsJSON, &raw); err != nil {
		return nil, fmt.Errorf("read contracts.json: %w", err)
	}
	out := make(map[string]*Contract, len(raw))
	for name, c := range raw {
		a, err := abi.JSON(bytes.NewReader(c.ABI))
		if err != nil {
			return nil, fmt.Errorf("ABI of %s: %w", name, err)
		}
		out[name] = &Contract{ABI: a, Bytecode: c.Bin}
	}
	return out, nil
})

// Load returns the compiled contract name (MessengerName, …).
func Load(name string) (*Contract, error) {
	all, err := loadContracts()
	if err != nil {
		return nil, err
	}
	c, ok := all[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownContract, name)
	}
	return c, nil
}

// Messenger returns the messenger contract. It panics if contracts.json, built into the
// binary and checked by the tests, does not hold it.
func Messenger() *Contract {
	c, err := Load(MessengerName)
	if err != nil {
		panic(err)
	}
	return c
}

// Receipt is a TeleporterMessageReceipt: a message received, and who relayed it.
type Receipt struct {
	ReceivedMessageNonce *big.Int       `abi:"receivedMessageNonce"`
	RelayerRewardAddress common.Address `abi:"relayerRewardAddress"`
}

// Message is a TeleporterMessage, the payload of the Warp message a messenger sends.
type Message struct {
	MessageNonce            *big.Int         `abi:"messageNonce"`
	OriginSenderAddress     common.Address   `abi:"originSenderAddress"`
	DestinationBlockchainID [32]byte         `abi:"destinationBlockchainID"`
	DestinationAddress      common.Address   `abi:"destinationAddress"`
	RequiredGasLimit        *big.Int         `abi:"requiredGasLimit"`
	AllowedRelayerAddresses []common.Address `abi:"allowedRelayerAddresses"`
	Receipts                []Receipt        `abi:"receipts"`
	Message                 []byte           `abi:"message"`
}

// messageArgs is abi.encode's layout of one TeleporterMessage, from the event that carries it.
func messageArgs() abi.Arguments {
	ev := Messenger().ABI.Events["SendCrossChainMessage"]
	for _, in := range ev.Inputs {
		if in.Name == "message" {
			return abi.Arguments{{Type: in.Type}}
		}
	}
	panic("icm: SendCrossChainMessage has no message input")
}

// DecodeMessage decodes the payload of a messenger's Warp message.
func DecodeMessage(payload []byte) (*Message, error) {
	args := messageArgs()
	vals, err := args.Unpack(payload)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotAMessage, err)
	}
	m, ok := abi.ConvertType(vals[0], new(Message)).(*Message)
	if !ok {
		return nil, fmt.Errorf("%w: %T", ErrNotAMessage, vals[0])
	}
	return m, nil
}

// Encode returns abi.encode(m), the payload of m's Warp message.
func (m *Message) Encode() ([]byte, error) {
	return messageArgs().Pack(m)
}

// MessageID is the ID of message nonce from source to destination:
// keccak256(abi.encode(source, destination, nonce)), as Teleporter's calculateMessageID.
func MessageID(source, destination ids.ID, nonce *big.Int) common.Hash {
	var b [96]byte
	copy(b[:32], source[:])
	copy(b[32:64], destination[:])
	nonce.FillBytes(b[64:])
	return crypto.Keccak256Hash(b[:])
}

// SendCrossChainMessageTopic is the topic of the messenger's SendCrossChainMessage event, as
// its ABI gives it.
func SendCrossChainMessageTopic() common.Hash {
	return Messenger().ABI.Events["SendCrossChainMessage"].ID
}

// ReceiveCrossChainMessageTopic is the topic of the messenger's ReceiveCrossChainMessage event,
// as its ABI gives it.
func ReceiveCrossChainMessageTopic() common.Hash {
	return Messenger().ABI.Events["ReceiveCrossChainMessage"].ID
}
