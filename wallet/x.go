package wallet

import (
	"context"
	"fmt"
	"time"

	xapi "github.com/cornice-node/cornice/vms/exchange/api"

	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
)

// API paths and names of the X-Chain (platform-exchange.md §6.5).
const (
	infoPath  = "/ext/info"
	xPath     = "/ext/bc/X"
	xAlias    = "X"
	avaxAlias = "AVAX"
	// pageSize is the getUTXOs page the wallet asks for: the node's maximum (§5.1).
	pageSize = 1024
	// statusAccepted is avm.getTxStatus's answer for an accepted tx (§6.5).
	statusAccepted = "Accepted"
	// pollInterval is how often WaitAccepted asks for the status.
	pollInterval = 20 * time.Millisecond
)

// X is a key's wallet on a node's X-Chain. It is safe for concurrent use.
type X struct {
	client *Client
	key    *Key
	clock  clock.Clock
	// builder holds the chain's parameters, read once by NewX; Time is set per tx.
	builder XBuilder
	hrp     string
}

// NewX reads the X-Chain's parameters from the node (info.getNetworkID,
// info.getBlockchainID, the AVAX asset from avm.getAssetDescription and the fees from
// avm.getTxFee) and returns key's wallet there. It refuses the well-known local key on a network
// other than local and custom ones (CheckKeyForNetwork). clk gives the chain time for locktimes
// and the pace of WaitAccepted.
func NewX(ctx context.Context, client *Client, key *Key, clk clock.Clock) (*X, error) {
	networkID, err := networkIDFor(ctx, client, key)
	if err != nil {
		return nil, err
	}
	var chain struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	if err := client.Call(ctx, infoPath, "info.getBlockchainID", map[string]string{"alias": xAlias}, &chain); err != nil {
		return nil, err
	}
	avax, err := describeAsset(ctx, client, avaxAlias)
	if err != nil {
		return nil, err
	}
	var fees xapi.GetTxFeeReply
	if err := client.Call(ctx, xPath, "avm.getTxFee", nil, &fees); err != nil {
		return nil, err
	}
	return &X{
		client: client,
		key:    key,
		clock:  clk,
		builder: XBuilder{
			NetworkID:        networkID,
			ChainID:          chain.BlockchainID,
			AVAXAssetID:      avax.AssetID,
			TxFee:            uint64(fees.TxFee),
			CreateAssetTxFee: uint64(fees.CreateAssetTxFee),
		},
		hrp: address.HRP(networkID),
	}, nil
}

func describeAsset(ctx context.Context, client *Client, asset string) (*xapi.GetAssetDescriptionReply, error) {
	var reply xapi.GetAssetDescriptionReply
	err := client.Call(ctx, xPath, "avm.getAssetDescription", xapi.GetAssetDescriptionArgs{AssetID: asset}, &reply)
	if err != nil {
		return nil, fmt.Errorf("asset %s: %w", asset, err)
	}
	return &reply, nil
}

// Builder returns the chain's parameters as a builder, with Time set to now.
func (x *X) Builder() XBuilder {
	b := x.builder
	b.Time = uint64(x.clock.Now().Unix())
	return b
}

// api returns the chain's avm service.
func (x *X) api() chainAPI { return chainAPI{client: x.client, path: xPath, service: "avm"} }

// Address returns the key's X-Chain address.
func (x *X) Address() string { return x.key.ChainAddress(xAlias, x.builder.NetworkID) }

// ParseAddress parses an X-Chain address of this network, e.g. `X-local1…`.
func (x *X) ParseAddress(s string) (ids.ShortID, error) {
	return parseChainAddress(s, xAlias, x.hrp)
}

// Asset resolves an asset ID or alias ("AVAX") with avm.getAssetDescription.
func (x *X) Asset(ctx context.Context, asset string) (*xapi.GetAssetDescriptionReply, error) {
	return describeAsset(ctx, x.client, asset)
}

// UTXOs returns every UTXO the key's address owns, reading avm.getUTXOs page by page.
func (x *X) UTXOs(ctx context.Context) ([]*xtxs.UTXO, error) {
	return fetchUTXOs(ctx, x.api(), x.Address(), "", xtxs.ParseUTXO)
}

// Send builds and signs a BaseTx sending amount of assetID to the X-Chain address to, from the
// key's current UTXOs. It does not issue it.
func (x *X) Send(ctx context.Context, to string, assetID ids.ID, amount uint64) (*xtxs.Tx, error) {
	addr, err := x.ParseAddress(to)
	if err != nil {
		return nil, err
	}
	utxos, err := x.UTXOs(ctx)
	if err != nil {
		return nil, err
	}
	b := x.Builder()
	return b.Send(x.key, utxos, addr, assetID, amount)
}

// CreateAsset builds and signs a CreateAssetTx of a fixed supply owned by the key. It does not
// issue it. The asset's ID is the tx's ID.
func (x *X) CreateAsset(ctx context.Context, name, symbol string, denomination uint8, supply uint64) (*xtxs.Tx, error) {
	utxos, err := x.UTXOs(ctx)
	if err != nil {
		return nil, err
	}
	b := x.Builder()
	return b.CreateAsset(x.key, utxos, name, symbol, denomination, supply)
}

// Issue sends a signed tx to the node with avm.issueTx and returns its ID. The node's refusal
// comes back as a *jsonrpc.Error with its text.
func (x *X) Issue(ctx context.Context, tx *xtxs.Tx) (ids.ID, error) {
	return x.api().issue(ctx, tx.Bytes())
}

// Status returns avm.getTxStatus's answer for a tx: "Accepted" or "Unknown" (§6.5).
func (x *X) Status(ctx context.Context, txID ids.ID) (string, error) {
	return x.api().status(ctx, txID)
}

// WaitAccepted polls avm.getTxStatus until the tx is accepted, ctx is done or timeout has
// passed on the wallet's clock; then it returns an error wrapping ErrNotAccepted.
func (x *X) WaitAccepted(ctx context.Context, txID ids.ID, timeout time.Duration) error {
	return waitStatus(ctx, x.clock, txID, timeout, statusAccepted, x.Status)
}

// waitStatus polls status until it answers want, ctx is done or timeout has passed on clk.
func waitStatus(ctx context.Context, clk clock.Clock, txID ids.ID, timeout time.Duration, want string, status func(context.Context, ids.ID) (string, error)) error {
	deadline := clk.NewTimer(timeout)
	defer deadline.Stop()
	for {
		got, err := status(ctx, txID)
		if err != nil {
			return err
		}
		if got == want {
			return nil
		}
		tick := clk.NewTimer(pollInterval)
		select {
		case <-ctx.Done():
			tick.Stop()
			return fmt.Errorf("tx %s: %w", txID, ctx.Err())
		case <-deadline.C:
			tick.Stop()
			return notAcceptedError(txID, got)
		case <-tick.C:
		}
	}
}
