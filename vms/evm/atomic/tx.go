package atomic

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/internal/signed"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// Type IDs of the atomic codec (codec-vectors-2.json typeIDs): the two kinds; the secp256k1fx
// types keep the X-Chain's IDs (TransferInput 5, TransferOutput 7, Credential 9).
const (
	TypeIDImportTx uint32 = 0
	TypeIDExportTx uint32 = 1
)

// Encoded sizes that bound slice counts before allocating.
const (
	evmOutputSize             = common.AddressLength + 8 + ids.IDLen
	evmInputSize              = evmOutputSize + 8
	minTransferableInputSize  = utxo.IDSize + ids.IDLen + 4 + secp256k1fx.MinTransferInputSize
	minTransferableOutputSize = ids.IDLen + 4 + secp256k1fx.MinTransferOutputSize
)

// UnsignedTx is an ImportTx or an ExportTx. The set is closed.
type UnsignedTx interface {
	codec.Marshaler
	Unmarshal(u *codec.Unpacker)
	// Visit calls the method of v for the tx's kind.
	Visit(v Visitor) error
	isUnsignedTx()
}

// Visitor has one method per kind.
type Visitor interface {
	ImportTx(*ImportTx) error
	ExportTx(*ExportTx) error
}

// EVMOutput credits Amount of AssetID to Address: for AVAX, Amount nAVAX is Amount·10⁹ wei.
type EVMOutput struct {
	Address common.Address
	Amount  uint64
	AssetID ids.ID
}

// Marshal writes address, amount and asset ID.
func (o *EVMOutput) Marshal(p *codec.Packer) {
	p.Fixed(o.Address[:])
	p.Uint64(o.Amount)
	p.ID(o.AssetID)
}

// Unmarshal reads the fields written by Marshal.
func (o *EVMOutput) Unmarshal(u *codec.Unpacker) {
	u.Fixed(o.Address[:])
	o.Amount = u.Uint64()
	o.AssetID = u.ID()
}

// EVMInput debits Amount of AssetID from Address, whose account nonce must be Nonce; the export
// increments it.
type EVMInput struct {
	Address common.Address
	Amount  uint64
	AssetID ids.ID
	Nonce   uint64
}

// Marshal writes address, amount, asset ID and nonce.
func (in *EVMInput) Marshal(p *codec.Packer) {
	p.Fixed(in.Address[:])
	p.Uint64(in.Amount)
	p.ID(in.AssetID)
	p.Uint64(in.Nonce)
}

// Unmarshal reads the fields written by Marshal.
func (in *EVMInput) Unmarshal(u *codec.Unpacker) {
	u.Fixed(in.Address[:])
	in.Amount = u.Uint64()
	in.AssetID = u.ID()
	in.Nonce = u.Uint64()
}

// ImportTx spends UTXOs SourceChain exported to the C-Chain and credits Outs (type ID 0).
type ImportTx struct {
	NetworkID      uint32
	BlockchainID   ids.ID
	SourceChain    ids.ID
	ImportedInputs []xtxs.TransferableInput
	Outs           []EVMOutput
}

func (*ImportTx) isUnsignedTx() {}

// Visit calls v.ImportTx.
func (tx *ImportTx) Visit(v Visitor) error { return v.ImportTx(tx) }

// Marshal writes the fields in wire order.
func (tx *ImportTx) Marshal(p *codec.Packer) {
	p.Uint32(tx.NetworkID)
	p.ID(tx.BlockchainID)
	p.ID(tx.SourceChain)
	union.WriteList(p, tx.ImportedInputs)
	union.WriteList(p, tx.Outs)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ImportTx) Unmarshal(u *codec.Unpacker) {
	tx.NetworkID = u.Uint32()
	tx.BlockchainID = u.ID()
	tx.SourceChain = u.ID()
	tx.ImportedInputs = union.ReadList[xtxs.TransferableInput](u, minTransferableInputSize)
	tx.Outs = union.ReadList[EVMOutput](u, evmOutputSize)
}

// ExportTx debits Ins and puts ExportedOutputs into DestinationChain's shared memory (type ID 1).
type ExportTx struct {
	NetworkID        uint32
	BlockchainID     ids.ID
	DestinationChain ids.ID
	Ins              []EVMInput
	ExportedOutputs  []xtxs.TransferableOutput
}

func (*ExportTx) isUnsignedTx() {}

// Visit calls v.ExportTx.
func (tx *ExportTx) Visit(v Visitor) error { return v.ExportTx(tx) }

// Marshal writes the fields in wire order.
func (tx *ExportTx) Marshal(p *codec.Packer) {
	p.Uint32(tx.NetworkID)
	p.ID(tx.BlockchainID)
	p.ID(tx.DestinationChain)
	union.WriteList(p, tx.Ins)
	union.WriteList(p, tx.ExportedOutputs)
}

// Unmarshal reads the fields written by Marshal.
func (tx *ExportTx) Unmarshal(u *codec.Unpacker) {
	tx.NetworkID = u.Uint32()
	tx.BlockchainID = u.ID()
	tx.DestinationChain = u.ID()
	tx.Ins = union.ReadList[EVMInput](u, evmInputSize)
	tx.ExportedOutputs = union.ReadList[xtxs.TransferableOutput](u, minTransferableOutputSize)
}

// unsignedTxs is the atomic codec's kinds by type ID.
var unsignedTxs = union.New("unsigned atomic tx",
	union.Of[UnsignedTx, *ImportTx](TypeIDImportTx),
	union.Of[UnsignedTx, *ExportTx](TypeIDExportTx),
)

var txCodec = signed.CodecOf(unsignedTxs, ErrNilTx)

// Tx is a signed atomic tx: one credential per imported input (ImportTx) or EVM input
// (ExportTx). A Tx is immutable and caches its bytes and ID.
type Tx struct {
	signed.Tx[UnsignedTx]
}

// NewTx encodes unsigned and creds into a Tx. The caller must not modify either afterwards.
func NewTx(unsigned UnsignedTx, creds []secp256k1fx.Credential) (*Tx, error) {
	return signed.NewAs[Tx](txCodec, unsigned, creds)
}

// UnsignedBytes encodes unsigned as it is signed: codec version, type ID and fields.
func UnsignedBytes(unsigned UnsignedTx) ([]byte, error) {
	return signed.UnsignedBytes(txCodec, unsigned)
}

// ParseTx decodes signed tx bytes, at most codec.MaxSize long. It copies b.
func ParseTx(b []byte) (*Tx, error) {
	return signed.ParseAs[Tx](txCodec, b)
}

// ParseBatch decodes a block's batch of atomic txs: codec version, count, then each tx without
// its version (the reference's ExtData from Apricot Phase 5 on). It copies b.
func ParseBatch(b []byte) ([]*Tx, error) {
	u := codec.NewUnpackerCopy(b, len(b))
	u.Version()
	txs := signed.ReadAll[Tx](txCodec, u)
	if err := u.Done(); err != nil {
		return nil, err
	}
	return txs, nil
}

// BatchBytes encodes txs as ParseBatch reads them.
func BatchBytes(txs []*Tx) ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 512*len(txs)+6))
	p.Version()
	signed.WriteAll(txCodec, p, txs)
	return p.Bytes()
}

// SignerEthAddress returns the Ethereum address of the key that made signature sig of credential
// cred over the tx's unsigned bytes: keccak256 of the uncompressed public key, last 20 bytes.
func SignerEthAddress(tx *Tx, cred, sig int) (common.Address, error) {
	pub, err := secp256k1fx.RecoverPublicKey(tx.UnsignedHash(), tx.Creds()[cred].Sigs[sig])
	if err != nil {
		return common.Address{}, err
	}
	return common.BytesToAddress(crypto.Keccak256(pub.SerializeUncompressed()[1:])[12:]), nil
}
