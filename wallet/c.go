package wallet

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
)

// API paths and names of the C-Chain's atomic side.
const (
	cAlias   = "C"
	cRPCPath = "/ext/bc/C/rpc"
	cAvax    = "/ext/bc/C/avax"
	// feeMargin multiplies the C-Chain's base fee for the fee an atomic tx burns, so that a base
	// fee rising by the next block does not drop it (ACP-176 moves it by at most e^(1/87) per
	// 1M gas over target).
	feeMargin = 2
)

// C is a key's wallet for the C-Chain's atomic txs: AVAX between its EVM balance and the X- and
// P-Chains. It is safe for concurrent use.
type C struct {
	client  *Client
	key     *Key
	clock   clock.Clock
	builder CBuilder
	xChain  ids.ID
	hrp     string
}

// NewC reads the chains' IDs and the AVAX asset from the node (info.getNetworkID,
// info.getBlockchainID of C and X, avm.getAssetDescription) and returns key's C-Chain wallet. It
// refuses the well-known local key on a network other than local and custom ones.
func NewC(ctx context.Context, client *Client, key *Key, clk clock.Clock) (*C, error) {
	networkID, err := networkIDFor(ctx, client, key)
	if err != nil {
		return nil, err
	}
	cID, err := blockchainID(ctx, client, cAlias)
	if err != nil {
		return nil, err
	}
	xID, err := blockchainID(ctx, client, xAlias)
	if err != nil {
		return nil, err
	}
	avax, err := describeAsset(ctx, client, avaxAlias)
	if err != nil {
		return nil, err
	}
	return &C{
		client:  client,
		key:     key,
		clock:   clk,
		builder: CBuilder{NetworkID: networkID, ChainID: cID, AVAXAssetID: avax.AssetID},
		xChain:  xID,
		hrp:     address.HRP(networkID),
	}, nil
}

func blockchainID(ctx context.Context, client *Client, alias string) (ids.ID, error) {
	var chain struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	if err := client.Call(ctx, infoPath, "info.getBlockchainID", map[string]string{"alias": alias}, &chain); err != nil {
		return ids.ID{}, err
	}
	return chain.BlockchainID, nil
}

// api returns the C-Chain's avax service.
func (c *C) api() chainAPI { return chainAPI{client: c.client, path: cAvax, service: "avax"} }

// Peer returns the ID of the chain named alias, X or P, the only chains AVAX moves to and from.
func (c *C) Peer(alias string) (ids.ID, error) {
	switch alias {
	case xAlias:
		return c.xChain, nil
	case pAlias:
		return ids.Empty, nil
	}
	return ids.ID{}, fmt.Errorf("chain %q: %w: want X or P", alias, ErrWrongChain)
}

// Address returns the key's address on chain alias (X or P).
func (c *C) Address(alias string) string { return c.key.ChainAddress(alias, c.builder.NetworkID) }

// EthAddress returns the key's C-Chain address.
func (c *C) EthAddress() common.Address { return c.key.EthAddress() }

// fee returns the base fee atomic txs are priced at: eth_baseFee times feeMargin.
func (c *C) fee(ctx context.Context) (*big.Int, error) {
	var fee hexutil.Big
	if err := c.client.Call(ctx, cRPCPath, "eth_baseFee", []any{}, &fee); err != nil {
		return nil, err
	}
	return new(big.Int).Mul(fee.ToInt(), big.NewInt(feeMargin)), nil
}

// AtomicUTXOs returns the UTXOs the chain source ("X", "P") exported to the key's C-Chain address
// that are not imported yet (avax.getUTXOs with sourceChain).
func (c *C) AtomicUTXOs(ctx context.Context, source string) ([]*xtxs.UTXO, error) {
	return fetchUTXOs(ctx, c.api(), c.key.ChainAddress(cAlias, c.builder.NetworkID), source, xtxs.ParseUTXO)
}

// Import builds and signs an ImportTx of every AVAX UTXO the chain from (X or P) exported to the
// C-Chain that the key alone owns, crediting the key's C-Chain address with their sum less the
// fee, which it returns too. It does not issue it.
func (c *C) Import(ctx context.Context, from string) (*CTx, uint64, error) {
	source, err := c.Peer(from)
	if err != nil {
		return nil, 0, err
	}
	utxos, err := c.AtomicUTXOs(ctx, from)
	if err != nil {
		return nil, 0, err
	}
	fee, err := c.fee(ctx)
	if err != nil {
		return nil, 0, err
	}
	tx, err := c.builder.Import(c.key, source, utxos, c.key.EthAddress(), fee)
	if err != nil {
		return nil, 0, err
	}
	return tx, tx.Fee, nil
}

// Export builds and signs an ExportTx of amount nAVAX from the key's EVM balance to the chain to
// (X or P), owned there by the address toAddr (e.g. `X-local1…`; empty: the key's own), and
// returns it with its fee. It does not issue it.
func (c *C) Export(ctx context.Context, to, toAddr string, amount uint64) (*CTx, uint64, error) {
	if amount == 0 {
		return nil, 0, ErrZeroAmount
	}
	if toAddr == "" {
		toAddr = c.Address(to)
	}
	dest, err := c.Peer(to)
	if err != nil {
		return nil, 0, err
	}
	owner, err := parseChainAddress(toAddr, to, c.hrp)
	if err != nil {
		return nil, 0, err
	}
	var nonce hexutil.Uint64
	if err := c.client.Call(ctx, cRPCPath, "eth_getTransactionCount", []any{c.key.EthAddress(), "latest"}, &nonce); err != nil {
		return nil, 0, err
	}
	fee, err := c.fee(ctx)
	if err != nil {
		return nil, 0, err
	}
	tx, err := c.builder.Export(c.key, uint64(nonce), dest, amount, owner, fee)
	if err != nil {
		return nil, 0, err
	}
	return tx, tx.Fee, nil
}

// Issue sends a signed atomic tx with avax.issueTx and returns its ID. The node's refusal comes
// back as a *jsonrpc.Error with its text.
func (c *C) Issue(ctx context.Context, tx *CTx) (ids.ID, error) {
	return c.api().issue(ctx, tx.Tx.Bytes())
}

// Status returns avax.getAtomicTxStatus's answer: Accepted, Processing, Dropped or Unknown.
func (c *C) Status(ctx context.Context, txID ids.ID) (string, error) {
	var reply struct {
		Status string `json:"status"`
	}
	if err := c.api().call(ctx, "getAtomicTxStatus", map[string]ids.ID{"txID": txID}, &reply); err != nil {
		return "", err
	}
	return reply.Status, nil
}

// WaitAccepted polls avax.getAtomicTxStatus until the tx is accepted, ctx is done or timeout has
// passed on the wallet's clock; then it returns an error wrapping ErrNotAccepted.
func (c *C) WaitAccepted(ctx context.Context, txID ids.ID, timeout time.Duration) error {
	return waitStatus(ctx, c.clock, txID, timeout, statusAccepted, c.Status)
}
