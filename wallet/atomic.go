package wallet

import (
	"context"
	"fmt"
	"slices"

	"github.com/cornice-node/cornice/ids"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// Cross-chain transfers (issue #14 §1): an ExportTx on the source chain puts AVAX into the
// destination chain's shared memory, and an ImportTx on the destination takes it out. The
// builders make the txs without I/O; X and P resolve the other chain and read the atomic UTXOs
// from the node (getUTXOs with sourceChain).

// Export returns an ExportTx that moves amount nAVAX from the key's UTXOs to destination's shared
// memory, owned by `to` there; it pays the tx fee with change back to the key.
func (b *XBuilder) Export(key *Key, utxos []*xtxs.UTXO, destination ids.ID, to ids.ShortID, amount uint64) (*xtxs.Tx, error) {
	if amount == 0 {
		return nil, ErrZeroAmount
	}
	base, keys, err := b.fund(key, utxos, nil, map[ids.ID]uint64{b.AVAXAssetID: amount}, b.TxFee)
	if err != nil {
		return nil, err
	}
	return SignTx(&xtxs.ExportTx{
		BaseTx: *base,
		Export: xtxs.Export{DestinationChain: destination, ExportedOuts: []xtxs.TransferableOutput{xtxs.TransferTo(b.AVAXAssetID, amount, to)}},
	}, keys...)
}

// Import returns an ImportTx that takes every AVAX UTXO of atomicUTXOs (what source exported
// to the X-Chain) the key can spend alone, and sends their sum less the tx fee to `to`.
func (b *XBuilder) Import(key *Key, atomicUTXOs []*xtxs.UTXO, source ids.ID, to ids.ShortID) (*xtxs.Tx, error) {
	var (
		ins   []xtxs.TransferableInput
		total uint64
	)
	for _, s := range b.spendable(key, atomicUTXOs) {
		if s.ux.AssetID != b.AVAXAssetID || total+s.amount < total {
			continue
		}
		total += s.amount
		ins = append(ins, s.input())
	}
	if len(ins) == 0 {
		return nil, ErrNothingToImport
	}
	if total <= b.TxFee {
		return nil, insufficientFundsError(b.AVAXAssetID, total, b.TxFee+1)
	}
	sortInputs(ins)
	keys := make([]*Key, len(ins))
	for i := range keys {
		keys[i] = key
	}
	return SignTx(&xtxs.ImportTx{
		BaseTx: xtxs.BaseTx{
			NetworkID:    b.NetworkID,
			BlockchainID: b.ChainID,
			Outs:         []xtxs.TransferableOutput{xtxs.TransferTo(b.AVAXAssetID, total-b.TxFee, to)},
			Memo:         []byte{},
		},
		Import: xtxs.Import{SourceChain: source, ImportedIns: ins},
	}, keys...)
}

// Export returns an ExportTx that moves amount nAVAX from the key's UTXOs to destination's shared
// memory, owned by `to` there; it pays the dynamic fee with change back to the key.
func (b *PBuilder) Export(key *Key, utxos []*txs.UTXO, destination ids.ID, to ids.ShortID, amount uint64) (*txs.Tx, error) {
	if amount == 0 {
		return nil, ErrZeroAmount
	}
	return b.build(key, utxos, amount, nil, nil, func(base txs.BaseTx) txs.UnsignedTx {
		return &txs.ExportTx{
			BaseTx: base,
			Export: txs.Export{DestinationChain: destination, ExportedOuts: []txs.TransferableOutput{txs.TransferTo(b.AVAXAssetID, amount, to)}},
		}
	})
}

// Import returns an ImportTx that takes every AVAX UTXO of atomicUTXOs (what source exported to
// the P-Chain) the key can spend alone, and sends their sum less the dynamic fee to `to`. The fee
// depends on the signed tx's size: it is found as a fixed point, as build does.
func (b *PBuilder) Import(key *Key, atomicUTXOs []*txs.UTXO, source ids.ID, to ids.ShortID) (*txs.Tx, error) {
	var (
		ins   []txs.TransferableInput
		total uint64
	)
	for _, s := range b.spendable(key, atomicUTXOs) {
		if total+s.amount < total {
			continue
		}
		total += s.amount
		ins = append(ins, s.input(b.AVAXAssetID))
	}
	if len(ins) == 0 {
		return nil, ErrNothingToImport
	}
	slices.SortFunc(ins, func(a, c txs.TransferableInput) int {
		return comparePInputs(a.TxID, a.OutputIndex, c.TxID, c.OutputIndex)
	})
	return b.settleFee(func(fee uint64) (*txs.Tx, error) {
		if total <= fee {
			return nil, insufficientFundsError(b.AVAXAssetID, total, fee+1)
		}
		return b.sign(&txs.ImportTx{
			BaseTx: txs.BaseTx{
				NetworkID: b.NetworkID,
				Outs:      []txs.TransferableOutput{txs.TransferTo(b.AVAXAssetID, total-fee, to)},
				Memo:      []byte{},
			},
			Import: txs.Import{SourceChain: source, ImportedIns: ins},
		}, len(ins), key, nil)
	})
}

// Peer is the other chain of a cross-chain transfer, as the node names it.
type Peer struct {
	// Alias is the chain's alias ("X", "P", "C"): the prefix of its addresses.
	Alias string
	// ID is the chain's blockchain ID.
	ID ids.ID
}

// peer resolves alias to the chain the node runs under it (info.getBlockchainID).
func peer(ctx context.Context, client *Client, alias string) (Peer, error) {
	var chain struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	if err := client.Call(ctx, infoPath, "info.getBlockchainID", map[string]string{"alias": alias}, &chain); err != nil {
		return Peer{}, fmt.Errorf("chain %q: %w", alias, err)
	}
	return Peer{Alias: alias, ID: chain.BlockchainID}, nil
}

// recipient parses `to`, an address of the chain p on the network of hrp, or returns key's
// address when it is empty.
func recipient(key *Key, p Peer, hrp, to string) (ids.ShortID, error) {
	if to == "" {
		return key.Address(), nil
	}
	return parseChainAddress(to, p.Alias, hrp)
}

// Export builds and signs an ExportTx moving amount nAVAX from the key's X-Chain UTXOs to the
// chain destination ("P", "C"), for the address `to` of that chain (empty: the key's own). It
// returns the tx and the fee it pays; it does not issue it.
func (x *X) Export(ctx context.Context, destination, to string, amount uint64) (*xtxs.Tx, uint64, error) {
	dest, err := peer(ctx, x.client, destination)
	if err != nil {
		return nil, 0, err
	}
	addr, err := recipient(x.key, dest, x.hrp, to)
	if err != nil {
		return nil, 0, err
	}
	utxos, err := x.UTXOs(ctx)
	if err != nil {
		return nil, 0, err
	}
	b := x.Builder()
	tx, err := b.Export(x.key, utxos, dest.ID, addr, amount)
	return tx, b.TxFee, err
}

// AtomicUTXOs returns the UTXOs the chain source ("P", "C") exported to the key's X-Chain address
// that are not imported yet.
func (x *X) AtomicUTXOs(ctx context.Context, source string) ([]*xtxs.UTXO, error) {
	return fetchUTXOs(ctx, x.api(), x.Address(), source, xtxs.ParseUTXO)
}

// Import builds and signs an ImportTx taking every AVAX UTXO the chain source ("P", "C")
// exported to the key's X-Chain address, less the fee, to that address. It returns the tx and
// the fee it pays; it does not issue it.
func (x *X) Import(ctx context.Context, source string) (*xtxs.Tx, uint64, error) {
	src, err := peer(ctx, x.client, source)
	if err != nil {
		return nil, 0, err
	}
	utxos, err := x.AtomicUTXOs(ctx, source)
	if err != nil {
		return nil, 0, err
	}
	b := x.Builder()
	tx, err := b.Import(x.key, utxos, src.ID, x.key.Address())
	return tx, b.TxFee, err
}

// Export builds and signs an ExportTx moving amount nAVAX from the key's P-Chain UTXOs to the
// chain destination ("X", "C"), for the address `to` of that chain (empty: the key's own). It
// returns the tx and the fee it pays; it does not issue it.
func (p *P) Export(ctx context.Context, destination, to string, amount uint64) (*txs.Tx, uint64, error) {
	dest, err := peer(ctx, p.client, destination)
	if err != nil {
		return nil, 0, err
	}
	addr, err := recipient(p.key, dest, p.hrp, to)
	if err != nil {
		return nil, 0, err
	}
	b, utxos, err := p.prepare(ctx)
	if err != nil {
		return nil, 0, err
	}
	tx, err := b.Export(p.key, utxos, dest.ID, addr, amount)
	if err != nil {
		return nil, 0, err
	}
	return tx, b.Fee(tx), nil
}

// AtomicUTXOs returns the UTXOs the chain source ("X", "C") exported to the key's P-Chain address
// that are not imported yet.
func (p *P) AtomicUTXOs(ctx context.Context, source string) ([]*txs.UTXO, error) {
	return fetchUTXOs(ctx, p.api(), p.Address(), source, txs.ParseUTXO)
}

// Import builds and signs an ImportTx taking every AVAX UTXO the chain source ("X", "C") exported
// to the key's P-Chain address, less the fee, to that address. It returns the tx and the fee it
// pays; it does not issue it.
func (p *P) Import(ctx context.Context, source string) (*txs.Tx, uint64, error) {
	src, err := peer(ctx, p.client, source)
	if err != nil {
		return nil, 0, err
	}
	b, err := p.Builder(ctx)
	if err != nil {
		return nil, 0, err
	}
	utxos, err := p.AtomicUTXOs(ctx, source)
	if err != nil {
		return nil, 0, err
	}
	tx, err := b.Import(p.key, utxos, src.ID, p.key.Address())
	if err != nil {
		return nil, 0, err
	}
	return tx, b.Fee(tx), nil
}
