package api

import (
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/chainapi"
)

// Arguments and replies of the avm service (reference/platform-exchange.md §6.5, §5.1). Keys
// match case-insensitively and unknown keys are ignored; an omitted encoding is hex.

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

// GetBalanceReply is the result of avm.getBalance.
type GetBalanceReply struct {
	Balance jsonrpc.Uint64     `json:"balance"`
	UTXOIDs []chainapi.UTXORef `json:"utxoIDs"`
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
