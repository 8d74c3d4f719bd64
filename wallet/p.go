package wallet

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/address"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// API path and names of the P-Chain (platform-exchange.md §5.1).
const (
	pPath = "/ext/bc/P"
	// cChainRPCPath is the C-Chain's Ethereum JSON-RPC endpoint.
	cChainRPCPath = "/ext/bc/C/rpc"
	pAlias        = "P"
	// statusCommitted is platform.getTxStatus's answer for an accepted tx (§5.1).
	statusCommitted = "Committed"
)

// P is a key's wallet on a node's P-Chain. It is safe for concurrent use.
type P struct {
	client *Client
	key    *Key
	clock  clock.Clock
	// builder holds the chain's parameters, read once by NewP; GasPrice and Time are set per tx.
	builder PBuilder
	hrp     string
}

// NewP reads the P-Chain's parameters from the node (info.getNetworkID, the AVAX asset from
// avm.getAssetDescription, the fee weights from platform.getFeeConfig) and returns key's wallet
// there. It refuses the well-known local key on a network other than local and custom ones.
func NewP(ctx context.Context, client *Client, key *Key, clk clock.Clock) (*P, error) {
	networkID, err := networkIDFor(ctx, client, key)
	if err != nil {
		return nil, err
	}
	avax, err := describeAsset(ctx, client, avaxAlias)
	if err != nil {
		return nil, err
	}
	var cfg api.GetFeeConfigReply
	if err := client.Call(ctx, pPath, "platform.getFeeConfig", nil, &cfg); err != nil {
		return nil, err
	}
	return &P{
		client: client,
		key:    key,
		clock:  clk,
		builder: PBuilder{
			NetworkID:   networkID,
			AVAXAssetID: avax.AssetID,
			Weights:     cfg.Weights,
		},
		hrp: address.HRP(networkID),
	}, nil
}

// Builder returns the chain's parameters as a builder, with GasPrice from platform.getFeeState
// and Time set to now.
func (p *P) Builder(ctx context.Context) (PBuilder, error) {
	var st api.GetFeeStateReply
	if err := p.client.Call(ctx, pPath, "platform.getFeeState", nil, &st); err != nil {
		return PBuilder{}, err
	}
	b := p.builder
	b.GasPrice = st.Price
	b.Time = uint64(p.clock.Now().Unix())
	return b, nil
}

// api returns the chain's platform service.
func (p *P) api() chainAPI { return chainAPI{client: p.client, path: pPath, service: "platform"} }

// NetworkID returns the ID of the node's network.
func (p *P) NetworkID() uint32 { return p.builder.NetworkID }

// Address returns the key's P-Chain address.
func (p *P) Address() string { return p.key.ChainAddress(pAlias, p.builder.NetworkID) }

// ParseAddress parses a P-Chain address of this network, e.g. `P-local1…`.
func (p *P) ParseAddress(s string) (ids.ShortID, error) {
	return parseChainAddress(s, pAlias, p.hrp)
}

// UTXOs returns every UTXO the key's address owns on the P-Chain, page by page.
func (p *P) UTXOs(ctx context.Context) ([]*txs.UTXO, error) {
	return fetchUTXOs(ctx, p.api(), p.Address(), "", txs.ParseUTXO)
}

// prepare returns the builder at the current price and the key's UTXOs.
func (p *P) prepare(ctx context.Context) (PBuilder, []*txs.UTXO, error) {
	b, err := p.Builder(ctx)
	if err != nil {
		return PBuilder{}, nil, err
	}
	utxos, err := p.UTXOs(ctx)
	return b, utxos, err
}

// Send builds and signs a BaseTx sending amount nAVAX to the P-Chain address to. It does not
// issue it.
func (p *P) Send(ctx context.Context, to string, amount uint64) (*txs.Tx, error) {
	addr, err := p.ParseAddress(to)
	if err != nil {
		return nil, err
	}
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.Send(p.key, utxos, addr, amount)
}

// CreateSubnet builds and signs a CreateSubnetTx owned by the P-Chain address owner, or by the
// key's address if owner is empty. The subnet's ID is the tx's ID. It does not issue it.
func (p *P) CreateSubnet(ctx context.Context, owner string) (*txs.Tx, error) {
	addr := p.key.Address()
	if owner != "" {
		var err error
		if addr, err = p.ParseAddress(owner); err != nil {
			return nil, err
		}
	}
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.CreateSubnet(p.key, utxos, addr)
}

// CreateSubnetOwners builds and signs a CreateSubnetTx that any one of owners controls
// (threshold 1), as [PBuilder.CreateSubnetOwners] does. It does not issue it.
func (p *P) CreateSubnetOwners(ctx context.Context, owners []ids.ShortID) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.CreateSubnetOwners(p.key, utxos, owners)
}

// CreateChain builds and signs a CreateChainTx on subnetID, authorized by the key, which must be
// one of the subnet's owners with a threshold of 1 (platform.getSubnet). It does not issue it.
func (p *P) CreateChain(ctx context.Context, subnetID ids.ID, name string, vmID ids.ID, genesis []byte) (*txs.Tx, error) {
	auth, err := p.subnetAuth(ctx, subnetID)
	if err != nil {
		return nil, err
	}
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.CreateChain(p.key, utxos, subnetID, name, vmID, genesis, auth)
}

// subnetAuth returns the key's authorization as subnetID's owner, which it must be alone with a
// threshold of 1 (platform.getSubnet).
func (p *P) subnetAuth(ctx context.Context, subnetID ids.ID) (PAuth, error) {
	var subnet api.GetSubnetReply
	if err := p.client.Call(ctx, pPath, "platform.getSubnet", api.GetSubnetArgs{SubnetID: subnetID}, &subnet); err != nil {
		return PAuth{}, err
	}
	i := slices.Index(subnet.ControlKeys, p.Address())
	if i < 0 || subnet.Threshold != 1 {
		return PAuth{}, fmt.Errorf("subnet %s: %w: %s", subnetID, ErrNotSubnetOwner, p.Address())
	}
	return PAuth{SigIndices: []uint32{uint32(i)}, Keys: []*Key{p.key}}, nil
}

// L1Validator is an initial validator of ConvertSubnet. Its remaining balance owner and
// deactivation owner are the key's address alone.
type L1Validator struct {
	NodeID ids.NodeID
	Weight uint64
	// Balance in nAVAX pays the continuous fee; the key pays it.
	Balance uint64
	Signer  txs.ProofOfPossession
}

// ConvertSubnet builds and signs a ConvertSubnetToL1Tx turning subnetID into an L1 managed by
// the address on chainID, authorized by the key as the subnet's sole owner (platform.getSubnet).
// Each validator's owners are the key's address. The validators are sorted by node ID in the tx;
// validator i's validation ID is its ValidationID(i). It does not issue it.
func (p *P) ConvertSubnet(ctx context.Context, subnetID, chainID ids.ID, address []byte, validators []L1Validator) (*txs.Tx, error) {
	auth, err := p.subnetAuth(ctx, subnetID)
	if err != nil {
		return nil, err
	}
	owner := txs.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{p.key.Address()}}
	vals := make([]txs.ConvertSubnetToL1Validator, len(validators))
	for i, v := range validators {
		vals[i] = txs.ConvertSubnetToL1Validator{
			NodeID:                v.NodeID[:],
			Weight:                v.Weight,
			Balance:               v.Balance,
			Signer:                v.Signer,
			RemainingBalanceOwner: owner,
			DeactivationOwner:     owner,
		}
	}
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.ConvertSubnet(p.key, utxos, subnetID, chainID, address, vals, auth)
}

// IncreaseBalance builds and signs an IncreaseL1ValidatorBalanceTx adding amount nAVAX to the L1
// validator validationID's balance. It does not issue it.
func (p *P) IncreaseBalance(ctx context.Context, validationID ids.ID, amount uint64) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.IncreaseBalance(p.key, utxos, validationID, amount)
}

// RegisterValidator builds and signs a RegisterL1ValidatorTx for the signed warp message, with
// balance nAVAX and pop, the proof of possession of the message's BLS key. It does not issue it.
func (p *P) RegisterValidator(ctx context.Context, balance uint64, pop [bls.SignatureLen]byte, message []byte) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.RegisterValidator(p.key, utxos, balance, pop, message)
}

// SetValidatorWeight builds and signs a SetL1ValidatorWeightTx for the signed warp message. It
// does not issue it.
func (p *P) SetValidatorWeight(ctx context.Context, message []byte) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.SetValidatorWeight(p.key, utxos, message)
}

// DisableValidator builds and signs a DisableL1ValidatorTx of the L1 validator validationID,
// authorized by the key, which must be the validator's deactivation owner alone with a threshold
// of 1 (as ConvertSubnet makes it); otherwise the node refuses the tx. It does not issue it.
func (p *P) DisableValidator(ctx context.Context, validationID ids.ID) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.DisableValidator(p.key, utxos, validationID, PAuth{SigIndices: []uint32{0}, Keys: []*Key{p.key}})
}

// Issue sends a signed tx to the node with platform.issueTx and returns its ID.
func (p *P) Issue(ctx context.Context, tx *txs.Tx) (ids.ID, error) {
	return p.api().issue(ctx, tx.Bytes())
}

// Status returns platform.getTxStatus's answer: "Committed", "Processing" or "Unknown" (§5.1).
func (p *P) Status(ctx context.Context, txID ids.ID) (string, error) {
	return p.api().status(ctx, txID)
}

// WaitAccepted polls platform.getTxStatus until the tx is committed, ctx is done or timeout has
// passed on the wallet's clock; then it returns an error wrapping ErrNotAccepted.
func (p *P) WaitAccepted(ctx context.Context, txID ids.ID, timeout time.Duration) error {
	return waitStatus(ctx, p.clock, txID, timeout, statusCommitted, p.Status)
}

// IssueAndWait issues tx (Issue) and waits at most timeout until the P-Chain commits it
// (WaitAccepted); it returns the tx's ID, also when the wait fails.
func (p *P) IssueAndWait(ctx context.Context, tx *txs.Tx, timeout time.Duration) (ids.ID, error) {
	id, err := p.Issue(ctx, tx)
	if err != nil {
		return ids.ID{}, err
	}
	return id, p.WaitAccepted(ctx, id, timeout)
}

// Staker is what AddValidator and AddDelegator stake: the node, the end time and the stake.
type Staker struct {
	NodeID ids.NodeID
	// End is when the staking period ends; it starts when the chain accepts the tx.
	End time.Time
	// Stake is in nAVAX.
	Stake uint64
}

// AddValidator builds and signs an AddPermissionlessValidatorTx making s.NodeID, with the BLS key
// and proof of possession pop, a Primary Network validator staking s.Stake nAVAX of the key's
// until s.End, asking delegators a fee of shares parts per million; both rewards go to the key's
// address. It does not issue it.
func (p *P) AddValidator(ctx context.Context, s Staker, pop txs.ProofOfPossession, shares uint32) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.AddValidator(p.key, utxos, p.validator(b, s), pop, shares, p.key.Address())
}

// AddDelegator builds and signs an AddPermissionlessDelegatorTx delegating s.Stake nAVAX of the
// key's to the validator s.NodeID until s.End; the reward goes to the key's address. It does not
// issue it.
func (p *P) AddDelegator(ctx context.Context, s Staker) (*txs.Tx, error) {
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, err
	}
	return b.AddDelegator(p.key, utxos, p.validator(b, s), p.key.Address())
}

// validator is s as a staking tx's Validator, starting at the builder's time.
func (p *P) validator(b PBuilder, s Staker) txs.Validator {
	return txs.Validator{NodeID: s.NodeID, Start: b.Time, End: uint64(max(s.End.Unix(), 0)), Weight: s.Stake}
}

// NodeIdentity returns the node ID and the BLS proof of possession of the node the wallet talks
// to, what AddValidator needs to make it a validator (NodeIdentity).
func (p *P) NodeIdentity(ctx context.Context) (ids.NodeID, txs.ProofOfPossession, error) {
	return NodeIdentity(ctx, p.client)
}

// NodeIdentity returns the node ID and the BLS proof of possession of the node client talks to,
// from its info.getNodeID.
func NodeIdentity(ctx context.Context, client *Client) (ids.NodeID, txs.ProofOfPossession, error) {
	var self info.GetNodeIDReply
	if err := client.Call(ctx, infoPath, "info.getNodeID", nil, &self); err != nil {
		return ids.NodeID{}, txs.ProofOfPossession{}, fmt.Errorf("read the node's ID: %w", err)
	}
	return self.NodeID, txs.ProofOfPossession{PublicKey: self.NodePOP.PublicKey, Signature: self.NodePOP.ProofOfPossession}, nil
}

// Burned returns the AVAX tx burns: the fee the chain charged (PBuilder.Burned).
func (p *P) Burned(tx *txs.Tx) uint64 { return p.builder.Burned(tx) }
