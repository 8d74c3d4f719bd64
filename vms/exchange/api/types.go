package api

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/internal/chainapi"
)

// Arguments and replies of the avm service (reference/platform-exchange.md §6.5, §5.1). Keys
// match case-insensitively and unknown keys are ignored; an omitted encoding is hex.

// IssueTxArgs are the params of avm.issueTx: a signed tx in an encoding.
type IssueTxArgs = chainapi.IssueTxArgs

// TxIDReply is the result of avm.issueTx.
type TxIDReply = chainapi.TxIDReply

// GetTxArgs are the params of avm.getTx.
type GetTxArgs = chainapi.GetTxArgs

// GetTxReply is the result of avm.getTx: the tx as a string in a hex encoding, or as an object
// in the json encoding.
type GetTxReply = chainapi.GetTxReply

// GetTxStatusArgs are the params of avm.getTxStatus.
type GetTxStatusArgs = chainapi.GetTxStatusArgs

// GetTxStatusReply is the result of avm.getTxStatus: "Accepted" or "Unknown" (§6.5).
type GetTxStatusReply = chainapi.GetTxStatusReply

// GetHeightReply is the result of avm.getHeight.
type GetHeightReply = chainapi.GetHeightReply

// GetBlockArgs are the params of avm.getBlock.
type GetBlockArgs = chainapi.GetBlockArgs

// GetBlockByHeightArgs are the params of avm.getBlockByHeight.
type GetBlockByHeightArgs = chainapi.GetBlockByHeightArgs

// GetBlockReply is the result of avm.getBlock and avm.getBlockByHeight.
type GetBlockReply = chainapi.GetBlockReply

// Index is a position in the pages of avm.getUTXOs: an address and a UTXO ID.
type Index = chainapi.Index

// GetUTXOsArgs are the params of avm.getUTXOs (§5.1).
type GetUTXOsArgs = chainapi.GetUTXOsArgs

// GetUTXOsReply is the result of avm.getUTXOs.
type GetUTXOsReply = chainapi.GetUTXOsReply

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
type UTXORef = chainapi.UTXORef

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
