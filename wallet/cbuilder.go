package wallet

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/atomic"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
)

// CBuilder builds and signs the C-Chain's atomic txs (package atomic): AVAX into and out of the
// EVM balances. Its fields are the chain's parameters; it is a value and safe for concurrent use.
type CBuilder struct {
	NetworkID   uint32
	ChainID     ids.ID
	AVAXAssetID ids.ID
}

// CTx is a built atomic tx, the AVAX it moves and the fee it burns, in nAVAX.
type CTx struct {
	Tx *atomic.Tx
	// Amount is what an import credits or an export exports.
	Amount uint64
	Fee    uint64
}

// Import spends utxos, AVAX that source exported to the C-Chain, owned by key alone, into one
// EVM output to to: their sum less the fee at baseFee (wei per gas).
func (b *CBuilder) Import(key *Key, source ids.ID, utxos []*xtxs.UTXO, to common.Address, baseFee *big.Int) (*CTx, error) {
	var total uint64
	var ins []xtxs.TransferableInput
	for _, s := range (&XBuilder{AVAXAssetID: b.AVAXAssetID}).spendable(key, utxos) {
		if s.ux.AssetID != b.AVAXAssetID || total+s.amount < total {
			continue
		}
		total += s.amount
		ins = append(ins, s.input())
	}
	if len(ins) == 0 {
		return nil, ErrNothingToImport
	}
	sortInputs(ins)
	unsigned := &atomic.ImportTx{
		NetworkID:      b.NetworkID,
		BlockchainID:   b.ChainID,
		SourceChain:    source,
		ImportedInputs: ins,
		Outs:           []atomic.EVMOutput{{Address: to, Amount: total, AssetID: b.AVAXAssetID}},
	}
	keys := make([]*Key, len(ins))
	for i := range keys {
		keys[i] = key
	}
	// The fee depends on the tx's length, which the amount does not change.
	fee, err := b.fee(unsigned, keys, baseFee)
	if err != nil {
		return nil, err
	}
	if total <= fee {
		return nil, insufficientFundsError(b.AVAXAssetID, total, fee+1)
	}
	unsigned.Outs[0].Amount = total - fee
	return b.sign(unsigned, keys, total-fee, fee)
}

// Export debits amount plus the fee at baseFee from key's EVM balance (whose account nonce is
// nonce) and exports amount of AVAX to dest, owned by to.
func (b *CBuilder) Export(key *Key, nonce uint64, dest ids.ID, amount uint64, to ids.ShortID, baseFee *big.Int) (*CTx, error) {
	unsigned := &atomic.ExportTx{
		NetworkID:        b.NetworkID,
		BlockchainID:     b.ChainID,
		DestinationChain: dest,
		Ins:              []atomic.EVMInput{{Address: key.EthAddress(), Amount: amount, AssetID: b.AVAXAssetID, Nonce: nonce}},
		ExportedOutputs:  []xtxs.TransferableOutput{xtxs.TransferTo(b.AVAXAssetID, amount, to)},
	}
	keys := []*Key{key}
	fee, err := b.fee(unsigned, keys, baseFee)
	if err != nil {
		return nil, err
	}
	if amount+fee < amount {
		return nil, atomic.ErrOverflow
	}
	unsigned.Ins[0].Amount = amount + fee
	return b.sign(unsigned, keys, amount, fee)
}

// fee is what unsigned, signed by keys, must burn at baseFee.
func (b *CBuilder) fee(unsigned atomic.UnsignedTx, keys []*Key, baseFee *big.Int) (uint64, error) {
	tx, err := b.sign(unsigned, keys, 0, 0)
	if err != nil {
		return 0, err
	}
	return atomic.Fee(tx.Tx.GasUsed(), baseFee)
}

// sign signs unsigned with one credential per key, in order.
func (b *CBuilder) sign(unsigned atomic.UnsignedTx, keys []*Key, amount, fee uint64) (*CTx, error) {
	ub, err := atomic.UnsignedBytes(unsigned)
	if err != nil {
		return nil, err
	}
	creds, err := credentials(ub, keys)
	if err != nil {
		return nil, err
	}
	tx, err := atomic.NewTx(unsigned, creds)
	if err != nil {
		return nil, err
	}
	return &CTx{Tx: tx, Amount: amount, Fee: fee}, nil
}
