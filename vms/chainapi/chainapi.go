// Package chainapi holds the arguments and replies that the X-Chain's avm service and the
// P-Chain's platform service share, field for field (reference/platform-exchange.md §5.1, §6.5):
// issueTx, getTx, getTxStatus, getHeight, getBlock, getBlockByHeight and getUTXOs, and the
// service that answers the first six from a small Chain interface and each chain's Texts. Clients
// (wallet, e2e) use these types for both chains; each chain's api package (vms/platform/api,
// vms/exchange/api) holds only the types of its own methods. The C-Chain's avax service shares
// issueTx's, getTx's and getUTXOs' params too.
//
// Keys match case-insensitively and unknown keys are ignored; an omitted encoding is hex. The
// types are plain values with no methods of their own beyond those of their fields; EncodeString
// renders raw bytes as the replies carry them.
package chainapi

import (
	"encoding/json"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// IssueTxArgs are the params of issueTx: a signed tx in an encoding.
type IssueTxArgs struct {
	Tx       string       `json:"tx"`
	Encoding ids.Encoding `json:"encoding"`
}

// TxIDReply is the result of issueTx.
type TxIDReply struct {
	TxID ids.ID `json:"txID"`
}

// GetTxArgs are the params of getTx.
type GetTxArgs struct {
	TxID     ids.ID       `json:"txID"`
	Encoding ids.Encoding `json:"encoding"`
}

// GetTxReply is the result of getTx: the tx as a string in a hex encoding, or as an object in the
// json encoding.
type GetTxReply struct {
	Tx       json.RawMessage `json:"tx"`
	Encoding ids.Encoding    `json:"encoding"`
}

// GetTxStatusArgs are the params of getTxStatus.
type GetTxStatusArgs struct {
	TxID ids.ID `json:"txID"`
}

// GetTxStatusReply is the result of getTxStatus; each chain has its own statuses.
type GetTxStatusReply struct {
	Status string `json:"status"`
}

// GetHeightReply is the result of getHeight.
type GetHeightReply struct {
	Height jsonrpc.Uint64 `json:"height"`
}

// GetBlockArgs are the params of getBlock.
type GetBlockArgs struct {
	BlockID  ids.ID       `json:"blockID"`
	Encoding ids.Encoding `json:"encoding"`
}

// GetBlockByHeightArgs are the params of getBlockByHeight.
type GetBlockByHeightArgs struct {
	Height   jsonrpc.Uint64 `json:"height"`
	Encoding ids.Encoding   `json:"encoding"`
}

// GetBlockReply is the result of getBlock and getBlockByHeight.
type GetBlockReply struct {
	Block    json.RawMessage `json:"block"`
	Encoding ids.Encoding    `json:"encoding"`
}

// Index is a position in the pages of getUTXOs: an address and a UTXO ID.
type Index struct {
	Address string `json:"address"`
	UTXO    string `json:"utxo"`
}

// GetUTXOsArgs are the params of getUTXOs (§5.1).
type GetUTXOsArgs struct {
	Addresses   []string       `json:"addresses"`
	SourceChain string         `json:"sourceChain"`
	Limit       jsonrpc.Uint32 `json:"limit"`
	StartIndex  Index          `json:"startIndex"`
	Encoding    ids.Encoding   `json:"encoding"`
}

// GetUTXOsReply is the result of getUTXOs.
type GetUTXOsReply struct {
	NumFetched jsonrpc.Uint64 `json:"numFetched"`
	UTXOs      []string       `json:"utxos"`
	EndIndex   Index          `json:"endIndex"`
	Encoding   ids.Encoding   `json:"encoding"`
}

// UTXORef names a UTXO by tx ID and output index, as getBalance lists them.
type UTXORef struct {
	TxID        ids.ID `json:"txID"`
	OutputIndex uint32 `json:"outputIndex"`
}

// EncodeString renders b, a tx's, block's or UTXO's bytes, in a hex encoding as the JSON string
// the replies carry.
func EncodeString(b []byte, enc ids.Encoding) ([]byte, error) {
	s, err := enc.Encode(b)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}
