package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// X-Chain type IDs (reference/platform-exchange.md §1.3): the five tx kinds, then each fx's types
// in fx order (secp256k1fx 5–9, nftfx 10–14, propertyfx 15–19), then the standard block. The txs,
// block and genesis codecs share this numbering.
const (
	TypeIDBaseTx         uint32 = 0
	TypeIDCreateAssetTx  uint32 = 1
	TypeIDOperationTx    uint32 = 2
	TypeIDImportTx       uint32 = 3
	TypeIDExportTx       uint32 = 4
	TypeIDTransferInput  uint32 = 5
	TypeIDMintOutput     uint32 = 6
	TypeIDTransferOutput uint32 = 7
	TypeIDMintOperation  uint32 = 8
	TypeIDCredential     uint32 = 9
	TypeIDStandardBlock  uint32 = 20
)

// unsignedTxs is the X-Chain's tx kinds by type ID.
var unsignedTxs = union.New("unsigned tx",
	union.Of[UnsignedTx, *BaseTx](TypeIDBaseTx),
	union.Of[UnsignedTx, *CreateAssetTx](TypeIDCreateAssetTx),
	union.Of[UnsignedTx, *OperationTx](TypeIDOperationTx),
	union.Of[UnsignedTx, *ImportTx](TypeIDImportTx),
	union.Of[UnsignedTx, *ExportTx](TypeIDExportTx),
)

// outputs is what an Output field holds: a TransferOutput (7) or a MintOutput (6).
var outputs = union.New("output",
	union.Of[Output, *secp256k1fx.TransferOutput](TypeIDTransferOutput),
	union.Of[Output, *secp256k1fx.MintOutput](TypeIDMintOutput),
)

// WriteOutput writes out's type ID and body, as a UTXO or an initial state holds it: the bytes
// initial-state outputs are sorted by (§3.3).
func WriteOutput(p *codec.Packer, out Output) { outputs.Write(p, out) }
