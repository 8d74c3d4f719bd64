package wallet

import (
	"context"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/chainapi"
)

// chainAPI is a chain's JSON-RPC service as X and P call it: the methods that the avm and
// platform services share, with the same params and results, one type each in package chainapi
// (platform-exchange.md §5.1, §6.5).
type chainAPI struct {
	client *Client
	// path is the chain's endpoint, "/ext/bc/X"; service is its service name, "avm".
	path, service string
}

// call calls the chain's method (without the service name).
func (c chainAPI) call(ctx context.Context, method string, args, reply any) error {
	return c.client.Call(ctx, c.path, c.service+"."+method, args, reply)
}

// fetchUTXOs returns every UTXO addr owns, reading getUTXOs page by page and parsing each UTXO
// with parse: the chain's own, or with a sourceChain the atomic UTXOs that chain exported to it.
func fetchUTXOs[U any](ctx context.Context, c chainAPI, addr, sourceChain string, parse func([]byte) (U, error)) ([]U, error) {
	args := chainapi.GetUTXOsArgs{Addresses: []string{addr}, SourceChain: sourceChain, Limit: pageSize, Encoding: ids.HexNC}
	var utxos []U
	for {
		var reply chainapi.GetUTXOsReply
		if err := c.call(ctx, "getUTXOs", args, &reply); err != nil {
			return nil, err
		}
		for _, s := range reply.UTXOs {
			b, err := ids.HexNC.Decode(s)
			if err != nil {
				return nil, fmt.Errorf("%s.getUTXOs: decode utxo: %w", c.service, err)
			}
			ux, err := parse(b)
			if err != nil {
				return nil, fmt.Errorf("%s.getUTXOs: parse utxo: %w", c.service, err)
			}
			utxos = append(utxos, ux)
		}
		if len(reply.UTXOs) < pageSize {
			return utxos, nil
		}
		args.StartIndex = reply.EndIndex
	}
}

// issue sends a signed tx's bytes with issueTx and returns its ID.
func (c chainAPI) issue(ctx context.Context, signed []byte) (ids.ID, error) {
	s, err := ids.Hex.Encode(signed)
	if err != nil {
		return ids.ID{}, fmt.Errorf("encode tx: %w", err)
	}
	var reply chainapi.TxIDReply
	if err := c.call(ctx, "issueTx", chainapi.IssueTxArgs{Tx: s, Encoding: ids.Hex}, &reply); err != nil {
		return ids.ID{}, err
	}
	return reply.TxID, nil
}

// status returns getTxStatus's answer for a tx.
func (c chainAPI) status(ctx context.Context, txID ids.ID) (string, error) {
	var reply chainapi.GetTxStatusReply
	if err := c.call(ctx, "getTxStatus", chainapi.GetTxStatusArgs{TxID: txID}, &reply); err != nil {
		return "", err
	}
	return reply.Status, nil
}

// parseChainAddress parses an address of the chain alias on the network of hrp, e.g. `X-local1…`.
func parseChainAddress(s, alias, hrp string) (ids.ShortID, error) {
	gotAlias, gotHRP, addr, err := address.Parse(s)
	if err != nil {
		// address.Parse's text repeats the address and names bech32 internals: say what is
		// expected instead, keeping the error's identity.
		return ids.ShortID{}, fmt.Errorf("address %q: %w: want %s-%s1…", s, address.ErrInvalidAddress, alias, hrp)
	}
	if gotAlias != alias || gotHRP != hrp {
		return ids.ShortID{}, fmt.Errorf("address %q: %w: want %s-%s1…", s, ErrWrongChain, alias, hrp)
	}
	return addr, nil
}

// networkIDFor reads the node's network ID with info.getNetworkID and checks that key may be
// used there (CheckKeyForNetwork).
func networkIDFor(ctx context.Context, client *Client, key *Key) (uint32, error) {
	var network struct {
		NetworkID jsonrpc.Uint32 `json:"networkID"`
	}
	if err := client.Call(ctx, infoPath, "info.getNetworkID", nil, &network); err != nil {
		return 0, err
	}
	networkID := uint32(network.NetworkID)
	if err := CheckKeyForNetwork(key, networkID); err != nil {
		return 0, err
	}
	return networkID, nil
}
