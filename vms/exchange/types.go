package exchange

import (
	"encoding/json"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Arguments and replies of the avm service (reference/platform-exchange.md §6.5, §5.1). Keys
// match case-insensitively and unknown keys are ignored; an omitted encoding is hex.

// IssueTxArgs are the params of avm.issueTx: a signed tx in an encoding.
type IssueTxArgs struct {
	Tx       string       `json:"tx"`
	Encoding ids.Encoding `json:"encoding"`
}

// TxIDReply is the result of avm.issueTx.
type TxIDReply struct {
	TxID ids.ID `json:"txID"`
}

// GetTxArgs are the params of avm.getTx.
type GetTxArgs struct {
	TxID     ids.ID       `json:"txID"`
	Encoding ids.Encoding `json:"encoding"`
}

// GetTxReply is the result of avm.getTx: the tx as a string in a hex encoding, or as an object
// in the json encoding.
type GetTxReply struct {
	Tx       json.RawMessage `json:"tx"`
	Encoding ids.Encoding    `json:"encoding"`
}

// GetTxStatusArgs are the params of avm.getTxStatus.
type GetTxStatusArgs struct {
	TxID ids.ID `json:"txID"`
}

// GetTxStatusReply is the result of avm.getTxStatus: "Accepted" or "Unknown" (§6.5).
type GetTxStatusReply struct {
	Status string `json:"status"`
}

// GetHeightReply is the result of avm.getHeight.
type GetHeightReply struct {
	Height jsonrpc.Uint64 `json:"height"`
}

// GetBlockArgs are the params of avm.getBlock.
type GetBlockArgs struct {
	BlockID  ids.ID       `json:"blockID"`
	Encoding ids.Encoding `json:"encoding"`
}

// GetBlockByHeightArgs are the params of avm.getBlockByHeight.
type GetBlockByHeightArgs struct {
	Height   jsonrpc.Uint64 `json:"height"`
	Encoding ids.Encoding   `json:"encoding"`
}

// GetBlockReply is the result of avm.getBlock and avm.getBlockByHeight.
type GetBlockReply struct {
	Block    json.RawMessage `json:"block"`
	Encoding ids.Encoding    `json:"encoding"`
}

// Index is a position in the pages of avm.getUTXOs: an address and a UTXO ID.
type Index struct {
	Address string `json:"address"`
	UTXO    string `json:"utxo"`
}

// GetUTXOsArgs are the params of avm.getUTXOs (§5.1).
type GetUTXOsArgs struct {
	Addresses   []string       `json:"addresses"`
	SourceChain string         `json:"sourceChain"`
	Limit       jsonrpc.Uint32 `json:"limit"`
	StartIndex  Index          `json:"startIndex"`
	Encoding    ids.Encoding   `json:"encoding"`
}

// GetUTXOsReply is the result of avm.getUTXOs.
type GetUTXOsReply struct {
	NumFetched jsonrpc.Uint64 `json:"numFetched"`
	UTXOs      []string       `json:"utxos"`
	EndIndex   Index          `json:"endIndex"`
	Encoding   ids.Encoding   `json:"encoding"`
}

// GetAssetDescriptionArgs are the params of avm.getAssetDescription: an asset ID or alias.
type GetAssetDescriptionArgs struct {
	AssetID string `json:"assetID"`
}

// GetAssetDescriptionReply is the result of avm.getAssetDescription.
type GetAssetDescriptionReply struct {
	AssetID      ids.ID        `json:"assetID"`
	Name         string        `json:"name"`
	Symbol       string        `json:"symbol"`
	Denomination jsonrpc.Uint8 `json:"denomination"`
}

// GetBalanceArgs are the params of avm.getBalance.
type GetBalanceArgs struct {
	Address        string `json:"address"`
	AssetID        string `json:"assetID"`
	IncludePartial bool   `json:"includePartial"`
}

// UTXORef names a UTXO by tx ID and output index.
type UTXORef struct {
	TxID        ids.ID `json:"txID"`
	OutputIndex uint32 `json:"outputIndex"`
}

// GetBalanceReply is the result of avm.getBalance.
type GetBalanceReply struct {
	Balance jsonrpc.Uint64 `json:"balance"`
	UTXOIDs []UTXORef      `json:"utxoIDs"`
}

// GetAllBalancesArgs are the params of avm.getAllBalances.
type GetAllBalancesArgs struct {
	Address        string `json:"address"`
	IncludePartial bool   `json:"includePartial"`
}

// Balance is one asset's balance: the asset's alias if it has one, else its ID.
type Balance struct {
	AssetID string         `json:"asset"`
	Balance jsonrpc.Uint64 `json:"balance"`
}

// GetAllBalancesReply is the result of avm.getAllBalances.
type GetAllBalancesReply struct {
	Balances []Balance `json:"balances"`
}

// GetTxFeeReply is the result of avm.getTxFee (§6.3).
type GetTxFeeReply struct {
	TxFee            jsonrpc.Uint64 `json:"txFee"`
	CreateAssetTxFee jsonrpc.Uint64 `json:"createAssetTxFee"`
}
