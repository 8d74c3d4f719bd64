package icm

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// Keyless is a keyless ("Nick's method") deployment: a contract creation at nonce 0, signed
// without a chain ID by a signature nobody holds the key of, so its sender, the deployer, is
// the same on every chain, and so is the contract's address.
type Keyless struct {
	Tx       *types.Transaction
	Deployer common.Address
	Contract common.Address
}

// Cost is what the deployer must hold for the transaction: gas × gas price.
func (k *Keyless) Cost() *big.Int {
	return new(big.Int).Mul(k.Tx.GasPrice(), new(big.Int).SetUint64(k.Tx.Gas()))
}

// ParseKeyless reads a keyless deployment transaction from its raw bytes: a legacy transaction
// without a chain ID that creates a contract at nonce 0.
func ParseKeyless(raw []byte) (*Keyless, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(raw); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotKeyless, err)
	}
	switch {
	case tx.Type() != types.LegacyTxType || tx.Protected():
		return nil, fmt.Errorf("%w: it has a chain ID", ErrNotKeyless)
	case tx.To() != nil:
		return nil, fmt.Errorf("%w: it creates no contract", ErrNotKeyless)
	case tx.Nonce() != 0:
		return nil, fmt.Errorf("%w: nonce %d, not 0", ErrNotKeyless, tx.Nonce())
	}
	from, err := types.Sender(types.HomesteadSigner{}, tx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotKeyless, err)
	}
	return &Keyless{Tx: tx, Deployer: from, Contract: crypto.CreateAddress(from, 0)}, nil
}

// NewKeyless makes the keyless deployment of initCode with gas at gasPrice, as Teleporter's
// releases make theirs: v = 27 and r = s = a fixed pattern (0x2222…, raised by one until a
// sender can be recovered), so no one knows the deployer's key.
func NewKeyless(initCode []byte, gasPrice *big.Int, gas uint64) (*Keyless, error) {
	r := new(big.Int).SetBytes(common.FromHex("0x2222222222222222222222222222222222222222222222222222222222222222"))
	for range 256 {
		tx := types.NewTx(&types.LegacyTx{
			Nonce: 0, GasPrice: gasPrice, Gas: gas, Data: initCode,
			V: big.NewInt(27), R: new(big.Int).Set(r), S: new(big.Int).Set(r),
		})
		raw, err := tx.MarshalBinary()
		if err != nil {
			return nil, err
		}
		if k, err := ParseKeyless(raw); err == nil {
			return k, nil
		}
		r.Add(r, common.Big1)
	}
	return nil, fmt.Errorf("%w: no recoverable signature", ErrNotKeyless)
}
