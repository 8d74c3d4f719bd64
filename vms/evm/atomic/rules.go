package atomic

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
)

// Gas constants of atomic txs (the reference's, from Apricot Phase 5 on).
const (
	// TxBytesGas is the gas of one byte of a tx's unsigned bytes.
	TxBytesGas = 1
	// CostPerSignature is the gas of one signature (secp256k1fx).
	CostPerSignature = 1000
	// IntrinsicGas is every atomic tx's fixed gas (ap5.AtomicTxIntrinsicGas).
	IntrinsicGas = 10_000
	// EVMOutputGas is the gas one more EVMOutput adds: its bytes.
	EVMOutputGas = evmOutputSize * TxBytesGas
	// EVMInputGas is the gas one more EVMInput adds: its bytes and its signature.
	EVMInputGas = evmInputSize*TxBytesGas + CostPerSignature
	// X2CRate is how many wei one nAVAX is.
	X2CRate = 1_000_000_000
)

// Context is what the syntactic checks need of the chain.
type Context struct {
	NetworkID uint32
	// ChainID is the C-Chain's blockchain ID.
	ChainID     ids.ID
	AVAXAssetID ids.ID
	// IsPeer reports whether a chain may be a source or destination: a chain of the Primary
	// Network other than the C-Chain (the X- and P-Chains).
	IsPeer func(chainID ids.ID) bool
	// PChainID is the P-Chain's ID, to which only AVAX may be exported.
	PChainID ids.ID
}

// Verify checks what needs no state (the reference's UnsignedAtomicTx.Verify, all upgrades
// through Granite active).
func (tx *Tx) Verify(c *Context) error {
	return tx.Unsigned().Visit(&syntactic{c: c})
}

type syntactic struct{ c *Context }

func (s *syntactic) ImportTx(tx *ImportTx) error {
	c := s.c
	switch {
	case len(tx.ImportedInputs) == 0:
		return ErrNoImportInputs
	case tx.NetworkID != c.NetworkID:
		return ErrWrongNetworkID
	case tx.BlockchainID != c.ChainID:
		return ErrWrongChainID
	case len(tx.Outs) == 0:
		return ErrNoEVMOutputs
	case tx.SourceChain == c.ChainID || !c.IsPeer(tx.SourceChain):
		return ErrWrongChainID
	}
	for i := range tx.Outs {
		out := &tx.Outs[i]
		if err := out.verify(); err != nil {
			return fmt.Errorf("EVM Output failed verification: %w", err)
		}
		if out.AssetID != c.AVAXAssetID {
			return ErrImportNonAVAXOutput
		}
	}
	for i := range tx.ImportedInputs {
		in := &tx.ImportedInputs[i]
		if err := in.In.Verify(); err != nil {
			return fmt.Errorf("atomic input failed verification: %w", err)
		}
		if in.AssetID != c.AVAXAssetID {
			return ErrImportNonAVAXInput
		}
	}
	for i := 1; i < len(tx.ImportedInputs); i++ {
		if utxo.Compare(&tx.ImportedInputs[i-1].UTXOID, &tx.ImportedInputs[i].UTXOID) >= 0 {
			return ErrInputsNotSortedUnique
		}
	}
	for i := 1; i < len(tx.Outs); i++ {
		if tx.Outs[i-1].compare(&tx.Outs[i]) >= 0 {
			return ErrOutputsNotSortedUnique
		}
	}
	return nil
}

func (s *syntactic) ExportTx(tx *ExportTx) error {
	c := s.c
	switch {
	case len(tx.ExportedOutputs) == 0:
		return ErrNoExportOutputs
	case tx.NetworkID != c.NetworkID:
		return ErrWrongNetworkID
	case tx.BlockchainID != c.ChainID:
		return ErrWrongChainID
	case tx.DestinationChain == c.ChainID || !c.IsPeer(tx.DestinationChain):
		return ErrWrongChainID
	}
	for i := range tx.Ins {
		in := &tx.Ins[i]
		if err := in.verify(); err != nil {
			return err
		}
		if in.AssetID != c.AVAXAssetID {
			return ErrExportNonAVAXInput
		}
	}
	var prev []byte
	for i := range tx.ExportedOutputs {
		out := &tx.ExportedOutputs[i]
		if err := out.Out.Verify(); err != nil {
			return err
		}
		if out.AssetID != c.AVAXAssetID {
			if tx.DestinationChain == c.PChainID {
				return ErrWrongChainID
			}
			return ErrExportNonAVAXOutput
		}
		key := outputBytes(out)
		if prev != nil && bytes.Compare(prev, key) > 0 {
			return ErrOutputsNotSorted
		}
		prev = key
	}
	for i := 1; i < len(tx.Ins); i++ {
		if tx.Ins[i-1].compare(&tx.Ins[i]) >= 0 {
			return ErrInputsNotSortedUnique
		}
	}
	return nil
}

// outputBytes is out's encoding, asset ID first: the order exported outputs must be in.
func outputBytes(out *xtxs.TransferableOutput) []byte {
	p := codec.NewPacker(make([]byte, 0, 96))
	out.Marshal(p)
	b, _ := p.Bytes()
	return b
}

func (o *EVMOutput) verify() error {
	switch {
	case o.Amount == 0:
		return ErrNoValueOutput
	case o.AssetID == ids.Empty:
		return ErrEmptyAssetID
	}
	return nil
}

func (in *EVMInput) verify() error {
	switch {
	case in.Amount == 0:
		return ErrNoValueInput
	case in.AssetID == ids.Empty:
		return ErrEmptyAssetID
	}
	return nil
}

// compare orders EVM outputs by address, then asset ID.
func (o *EVMOutput) compare(other *EVMOutput) int {
	if c := bytes.Compare(o.Address[:], other.Address[:]); c != 0 {
		return c
	}
	return bytes.Compare(o.AssetID[:], other.AssetID[:])
}

// compare orders EVM inputs by address, then asset ID.
func (in *EVMInput) compare(other *EVMInput) int {
	if c := bytes.Compare(in.Address[:], other.Address[:]); c != 0 {
		return c
	}
	return bytes.Compare(in.AssetID[:], other.AssetID[:])
}

// GasUsed is the tx's gas: its unsigned bytes, its signatures, and the intrinsic gas.
func (tx *Tx) GasUsed() uint64 {
	gas := uint64(len(tx.UnsignedBytes())) * TxBytesGas
	switch u := tx.Unsigned().(type) {
	case *ImportTx:
		for i := range u.ImportedInputs {
			gas += uint64(len(u.ImportedInputs[i].In.SigIndices)) * CostPerSignature
		}
	case *ExportTx:
		gas += uint64(len(u.Ins)) * CostPerSignature
	}
	return gas + IntrinsicGas
}

// Burned is how much of assetID the tx consumes beyond what it produces.
func (tx *Tx) Burned(assetID ids.ID) (uint64, error) {
	var in, out uint64
	var err error
	switch u := tx.Unsigned().(type) {
	case *ImportTx:
		for i := range u.ImportedInputs {
			if u.ImportedInputs[i].AssetID == assetID {
				if in, err = add(in, u.ImportedInputs[i].In.Amount); err != nil {
					return 0, err
				}
			}
		}
		for i := range u.Outs {
			if u.Outs[i].AssetID == assetID {
				if out, err = add(out, u.Outs[i].Amount); err != nil {
					return 0, err
				}
			}
		}
	case *ExportTx:
		for i := range u.Ins {
			if u.Ins[i].AssetID == assetID {
				if in, err = add(in, u.Ins[i].Amount); err != nil {
					return 0, err
				}
			}
		}
		for i := range u.ExportedOutputs {
			if u.ExportedOutputs[i].AssetID == assetID {
				if out, err = add(out, u.ExportedOutputs[i].Out.Amount); err != nil {
					return 0, err
				}
			}
		}
	}
	if in < out {
		return 0, ErrUnderflow
	}
	return in - out, nil
}

func add(a, b uint64) (uint64, error) {
	if a+b < a {
		return 0, ErrOverflow
	}
	return a + b, nil
}

// Fee is the nAVAX a tx of gas gas must burn at baseFee (wei): ⌈gas·baseFee / 10⁹⌉.
func Fee(gas uint64, baseFee *big.Int) (uint64, error) {
	f := new(big.Int).Mul(new(big.Int).SetUint64(gas), baseFee)
	f.Add(f, big.NewInt(X2CRate-1))
	f.Div(f, big.NewInt(X2CRate))
	if !f.IsUint64() {
		return 0, ErrFeeOverflow
	}
	return f.Uint64(), nil
}

// InputIDs returns what the tx consumes, for conflicts between txs: an ImportTx's UTXO IDs, an
// ExportTx's (nonce, address) pairs packed into 32 bytes as the reference does.
func (tx *Tx) InputIDs() []ids.ID {
	switch u := tx.Unsigned().(type) {
	case *ImportTx:
		out := make([]ids.ID, len(u.ImportedInputs))
		for i := range u.ImportedInputs {
			out[i] = u.ImportedInputs[i].InputID()
		}
		return out
	case *ExportTx:
		out := make([]ids.ID, len(u.Ins))
		for i := range u.Ins {
			binary.BigEndian.PutUint64(out[i][:8], u.Ins[i].Nonce)
			binary.BigEndian.PutUint32(out[i][8:12], uint32(len(u.Ins[i].Address)))
			copy(out[i][12:], u.Ins[i].Address[:])
		}
		return out
	}
	return nil
}

// ExportedUTXOs returns the UTXOs an ExportTx puts into its destination's shared memory: output
// i of the tx, i counting from 0 (a C-Chain ExportTx has no other outputs); nil for an ImportTx.
func (tx *Tx) ExportedUTXOs() []*xtxs.UTXO {
	u, ok := tx.Unsigned().(*ExportTx)
	if !ok {
		return nil
	}
	out := make([]*xtxs.UTXO, len(u.ExportedOutputs))
	for i := range u.ExportedOutputs {
		o := &u.ExportedOutputs[i]
		out[i] = &xtxs.UTXO{
			UTXOID:  utxo.UTXOID{TxID: tx.ID(), OutputIndex: uint32(i)},
			AssetID: o.AssetID,
			Out:     o.Out,
		}
	}
	return out
}

// PeerChain returns the chain the tx imports from or exports to.
func (tx *Tx) PeerChain() ids.ID {
	switch u := tx.Unsigned().(type) {
	case *ImportTx:
		return u.SourceChain
	case *ExportTx:
		return u.DestinationChain
	}
	return ids.Empty
}

// SortEVMOutputs sorts outs as Verify wants them.
func SortEVMOutputs(outs []EVMOutput) {
	slices.SortFunc(outs, func(a, b EVMOutput) int { return a.compare(&b) })
}
