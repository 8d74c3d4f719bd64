package txs

import (
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

var (
	ewoq = ids.ShortID{0x3c, 0xb7, 0xd3, 0x84, 0x2e, 0x8c, 0xee, 0x6a, 0x0e, 0xbd, 0x09, 0xf1, 0xfe, 0x88, 0x4f, 0x68, 0x61, 0xe1, 0xb2, 0x9c}
	vmrq = ids.ShortID{0x46, 0xa9, 0xc0, 0x4f, 0x4b, 0xf7, 0x83, 0xaa, 0x69, 0xda, 0xab, 0xd5, 0x19, 0xdc, 0xf3, 0x69, 0x78, 0x16, 0x8b, 0x66}
)

// TestTypeIDs checks the X-Chain's type table against the IDs the reference codecs printed
// (platform-exchange.md §1.3, §8.1).
func TestTypeIDs(t *testing.T) {
	t.Parallel()
	avm := loadVectors(t).TypeIDs["avm"]
	tests := []struct {
		name string
		id   uint32
	}{
		{"txs.BaseTx", TypeIDBaseTx},
		{"txs.CreateAssetTx", TypeIDCreateAssetTx},
		{"txs.OperationTx", TypeIDOperationTx},
		{"txs.ImportTx", TypeIDImportTx},
		{"txs.ExportTx", TypeIDExportTx},
		{"secp256k1fx.TransferInput", TypeIDTransferInput},
		{"secp256k1fx.MintOutput", TypeIDMintOutput},
		{"secp256k1fx.TransferOutput", TypeIDTransferOutput},
		{"secp256k1fx.MintOperation", TypeIDMintOperation},
		{"secp256k1fx.Credential", TypeIDCredential},
		{"block.StandardBlock", TypeIDStandardBlock},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, ok := avm[tt.name]
			require.True(t, ok)
			require.Equal(t, want, tt.id)
		})
	}
}

// TestTxVectors parses every X-Chain tx vector and checks that it encodes back byte for byte,
// with the same ID, unsigned bytes and produced UTXOs (platform-exchange.md §8.4, §8.5).
func TestTxVectors(t *testing.T) {
	t.Parallel()
	vectortest.Each(t, loadVectors(t).xTxVectors(), 2, func(t *testing.T, vec map[string]any) {
		tx := vectortest.CheckTxVector(t, vec, ParseTx)
		vectortest.CheckRebuild(t, tx, NewTx, UnsignedBytes)
		vectortest.CheckProducedUTXOs(t, tx.ID(), vec["producedUTXOs"].([]any), tx.UTXOs())
	})
}

// TestBaseTxFromFields builds the BaseTx vector from its inputs (platform-exchange.md §8.5) and
// checks its bytes.
func TestBaseTxFromFields(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	vec := v.Vectors.Named(t, "x_base_tx_transfer_avax")
	avax := cb58(t, v.LocalNetwork.AVAXAssetID)
	var sig secp256k1fx.Signature
	copy(sig[:], unhex(t, str(t, vec, "signatureHex")))

	unsigned := &BaseTx{
		NetworkID:    12345,
		BlockchainID: cb58(t, v.LocalNetwork.XChainID),
		Outs: []TransferableOutput{
			{AssetID: avax, Out: &secp256k1fx.TransferOutput{
				Amount:       1_000_000_000,
				OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{vmrq}},
			}},
			{AssetID: avax, Out: &secp256k1fx.TransferOutput{
				Amount:       299_999_998_999_000_000,
				OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}},
			}},
		},
		Ins: []TransferableInput{{
			UTXOID:  utxo.UTXOID{TxID: avax, OutputIndex: 1},
			AssetID: avax,
			In:      &secp256k1fx.TransferInput{Amount: 300_000_000_000_000_000, Input: secp256k1fx.Input{SigIndices: []uint32{0}}},
		}},
		Memo: []byte("hello"),
	}
	tx, err := NewTx(unsigned, []secp256k1fx.Credential{{Sigs: []secp256k1fx.Signature{sig}}})
	require.NoError(t, err)
	require.Equal(t, unhex(t, str(t, vec, "signedBytesHex")), tx.Bytes())
	require.Equal(t, cb58(t, str(t, vec, "txID")), tx.ID())
	require.Len(t, tx.UnsignedBytes(), 307) // §8.5
	require.Len(t, tx.Bytes(), 384)

	parsed, err := ParseTx(tx.Bytes())
	require.NoError(t, err)
	require.Equal(t, unsigned, parsed.Unsigned())
	require.Equal(t, unsigned.Ins[0].InputID(), unsigned.Ins[0].UTXOID.InputID())
}

// TestOtherKinds round-trips the tx kinds the vectors do not cover, and checks the UTXOs they
// produce.
func TestOtherKinds(t *testing.T) {
	t.Parallel()
	owners := func(addrs ...ids.ShortID) secp256k1fx.OutputOwners {
		return secp256k1fx.OutputOwners{Threshold: uint32(len(addrs)), Addrs: addrs}
	}
	base := BaseTx{
		NetworkID:    12345,
		BlockchainID: ids.ID{1},
		Outs: []TransferableOutput{{AssetID: ids.ID{2}, Out: &secp256k1fx.TransferOutput{
			Amount: 7, OutputOwners: owners(ewoq),
		}}},
		Ins: []TransferableInput{{
			UTXOID: utxo.UTXOID{TxID: ids.ID{3}, OutputIndex: 4}, AssetID: ids.ID{2},
			In: &secp256k1fx.TransferInput{Amount: 8, Input: secp256k1fx.Input{SigIndices: []uint32{0}}},
		}},
		Memo: []byte{},
	}
	creds := []secp256k1fx.Credential{{Sigs: []secp256k1fx.Signature{{1}}}, {Sigs: []secp256k1fx.Signature{}}}
	tests := []struct {
		name      string
		tx        UnsignedTx
		typeID    uint32
		wantUTXOs int
	}{
		{"base", &base, TypeIDBaseTx, 1},
		{
			name: "create asset with fixed and variable supply",
			tx: &CreateAssetTx{BaseTx: base, Name: "Coin", Symbol: "C", Denomination: 3, States: []InitialState{{
				FxIndex: 0,
				Outs: []Output{
					&secp256k1fx.TransferOutput{Amount: 100, OutputOwners: owners(vmrq)},
					&secp256k1fx.MintOutput{OutputOwners: owners(ewoq, vmrq)},
				},
			}}},
			typeID:    TypeIDCreateAssetTx,
			wantUTXOs: 3,
		},
		{
			name: "operation mint",
			tx: &OperationTx{BaseTx: base, Ops: []Operation{{
				AssetID: ids.ID{9},
				UTXOIDs: []utxo.UTXOID{{TxID: ids.ID{10}, OutputIndex: 1}},
				Op: &secp256k1fx.MintOperation{
					MintInput:      secp256k1fx.Input{SigIndices: []uint32{0}},
					MintOutput:     secp256k1fx.MintOutput{OutputOwners: owners(ewoq)},
					TransferOutput: secp256k1fx.TransferOutput{Amount: 50, OutputOwners: owners(vmrq)},
				},
			}}},
			typeID:    TypeIDOperationTx,
			wantUTXOs: 3,
		},
		{
			name: "import",
			tx: &ImportTx{
				BaseTx: base,
				Import: Import{SourceChain: ids.ID{11}, ImportedIns: []TransferableInput{{
					UTXOID: utxo.UTXOID{TxID: ids.ID{12}}, AssetID: ids.ID{2},
					In: &secp256k1fx.TransferInput{Amount: 1, Input: secp256k1fx.Input{SigIndices: []uint32{}}},
				}}},
			},
			typeID:    TypeIDImportTx,
			wantUTXOs: 1,
		},
		{
			name: "export",
			tx: &ExportTx{
				BaseTx: base,
				Export: Export{DestinationChain: ids.ID{13}, ExportedOuts: []TransferableOutput{{
					AssetID: ids.ID{2}, Out: &secp256k1fx.TransferOutput{Amount: 1, OutputOwners: owners(ewoq)},
				}}},
			},
			typeID:    TypeIDExportTx,
			wantUTXOs: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tx, parsed := vectortest.CheckNewTx(t, tt.tx, creds, tt.typeID, NewTx, ParseTx)
			require.Same(t, tt.tx.Base(), tx.Unsigned().Base())

			utxos := parsed.UTXOs()
			require.Len(t, utxos, tt.wantUTXOs)
			for i, ux := range utxos {
				require.Equal(t, uint32(i), ux.OutputIndex)
				require.Equal(t, tx.ID(), ux.TxID)
				b, err := ux.Bytes()
				require.NoError(t, err)
				again, err := ParseUTXO(b)
				require.NoError(t, err)
				require.Equal(t, &ux, again)
			}
			switch unsigned := tt.tx.(type) {
			case *CreateAssetTx:
				require.Equal(t, tx.ID(), utxos[1].AssetID)
				require.IsType(t, &secp256k1fx.MintOutput{}, utxos[2].Out)
			case *OperationTx:
				require.Equal(t, unsigned.Ops[0].AssetID, utxos[1].AssetID)
				require.Equal(t, &unsigned.Ops[0].Op.MintOutput, utxos[1].Out)
				require.Equal(t, &unsigned.Ops[0].Op.TransferOutput, utxos[2].Out)
			}
		})
	}
}

func TestTxErrors(t *testing.T) {
	t.Parallel()
	signed := unhex(t, str(t, loadVectors(t).Vectors.Named(t, "x_base_tx_transfer_avax"), "signedBytesHex"))
	const (
		txTypeOffset     = 2
		outTypeOffset    = 2 + 4 + 4 + 32 + 4 + 32
		credTypeOffset   = 307 + 4
		inTypeOffset     = 307 - 9 - 8 - 4 - 4 - 4
		unsignedTxLength = 307
	)
	patch := func(off int, v uint32) []byte {
		b := append([]byte(nil), signed...)
		binary.BigEndian.PutUint32(b[off:], v)
		return b
	}
	vectortest.CheckDecodeErrors(t, []vectortest.DecodeError{
		{Name: "empty", In: nil, WantErr: codec.ErrTruncated},
		{Name: "version only", In: signed[:2], WantErr: codec.ErrTruncated},
		{Name: "unsigned only", In: signed[:unsignedTxLength], WantErr: codec.ErrTruncated},
		{Name: "one byte short", In: signed[:len(signed)-1], WantErr: codec.ErrTruncated},
		{Name: "trailing byte", In: append(append([]byte(nil), signed...), 0), WantErr: codec.ErrTrailingBytes},
		{Name: "version 1", In: append([]byte{0, 1}, signed[2:]...), WantErr: codec.ErrUnknownVersion},
		{Name: "block type as tx", In: patch(txTypeOffset, TypeIDStandardBlock), WantErr: codec.ErrUnknownTypeID},
		{Name: "nftfx transfer output", In: patch(outTypeOffset, 11), WantErr: codec.ErrUnknownTypeID},
		{Name: "mint output as transferable", In: patch(outTypeOffset, TypeIDMintOutput), WantErr: codec.ErrUnknownTypeID},
		{Name: "nftfx credential", In: patch(credTypeOffset, 14), WantErr: codec.ErrUnknownTypeID},
		{Name: "input type", In: patch(inTypeOffset, TypeIDTransferOutput), WantErr: codec.ErrUnknownTypeID},
		{Name: "oversize", In: make([]byte, codec.MaxSize+1), WantErr: codec.ErrOversize},
	}, ParseTx)
	// The patch offsets are right: the unpatched values are the ones the patches replace.
	require.Equal(t, TypeIDTransferOutput, binary.BigEndian.Uint32(signed[outTypeOffset:]))
	require.Equal(t, TypeIDTransferInput, binary.BigEndian.Uint32(signed[inTypeOffset:]))
	require.Equal(t, TypeIDCredential, binary.BigEndian.Uint32(signed[credTypeOffset:]))
}

func TestEncodeErrors(t *testing.T) {
	t.Parallel()
	vectortest.CheckEncodeErrors(t, []vectortest.EncodeError[UnsignedTx]{
		{Name: "nil tx", Unsigned: nil, WantErr: codec.ErrNilValue},
		{Name: "nil transferable output", Unsigned: &BaseTx{Outs: []TransferableOutput{{}}}, WantErr: codec.ErrNilValue},
		{Name: "nil transferable input", Unsigned: &BaseTx{Ins: []TransferableInput{{}}}, WantErr: codec.ErrNilValue},
		{Name: "nil initial output", Unsigned: &CreateAssetTx{States: []InitialState{{Outs: []Output{nil}}}}, WantErr: codec.ErrNilValue},
		{Name: "nil typed initial output", Unsigned: &CreateAssetTx{States: []InitialState{{Outs: []Output{(*secp256k1fx.MintOutput)(nil)}}}}, WantErr: codec.ErrNilValue},
		{Name: "unregistered output", Unsigned: &CreateAssetTx{States: []InitialState{{Outs: []Output{&secp256k1fx.Input{}}}}}, WantErr: codec.ErrUnregisteredType},
		{Name: "nil operation", Unsigned: &OperationTx{Ops: []Operation{{}}}, WantErr: codec.ErrNilValue},
	}, NewTx, UnsignedBytes)
	_, err := (&UTXO{}).Bytes()
	require.ErrorIs(t, err, codec.ErrNilValue)
}

// FuzzParseTx parses arbitrary bytes as a tx: it never panics, and a tx it accepts encodes back to
// the same bytes with the same ID.
func FuzzParseTx(f *testing.F) {
	v := loadVectors(f)
	for _, b := range append(vectortest.HexSeeds(f, v.xTxVectors(), "signedBytesHex"), unhex(f, v.LocalNetwork.XGenesisCreateAssetTxHex)) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if tx, err := ParseTx(b); err == nil {
			vectortest.CheckRebuild(t, tx, NewTx, UnsignedBytes)
		}
	})
}

// FuzzParseUTXO parses arbitrary bytes as a UTXO: it never panics, and a UTXO it accepts encodes
// back to the same bytes.
func FuzzParseUTXO(f *testing.F) {
	seeds := vectortest.HexSeeds(f, loadVectors(f).LocalNetwork.XGenesisUTXOs, "utxoBytesHex")
	vectortest.FuzzRoundTrip(f, seeds, ParseUTXO, (*UTXO).Bytes)
}

// TestSignatureVector signs the X BaseTx vector's unsigned bytes with the ewoq key: RFC 6979
// gives the vector's signature, and it recovers to the ewoq address (§3.2, §8.5).
func TestSignatureVector(t *testing.T) {
	t.Parallel()
	vec := loadVectors(t).Vectors.Named(t, "x_base_tx_transfer_avax")
	tx, err := ParseTx(unhex(t, str(t, vec, "signedBytesHex")))
	require.NoError(t, err)
	k, err := crypto.HexToECDSA("56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027")
	require.NoError(t, err)
	h := tx.UnsignedHash()
	raw, err := crypto.Sign(h[:], k)
	require.NoError(t, err)
	sig := secp256k1fx.Signature(raw)
	require.Equal(t, tx.Creds()[0].Sigs[0], sig)
	require.Equal(t, unhex(t, str(t, vec, "signatureHex")), raw)

	addr, err := secp256k1fx.RecoverAddress(h, sig)
	require.NoError(t, err)
	require.Equal(t, ewoq, addr)
	require.Equal(t, ewoq, secp256k1fx.PublicKeyAddress(crypto.CompressPubkey(&k.PublicKey)))

	// The same signature with S replaced by n-S (and the flag flipped) is the mutated form.
	mutated := sig
	s := new(big.Int).SetBytes(sig[32:64])
	new(big.Int).Sub(crypto.S256().Params().N, s).FillBytes(mutated[32:64])
	mutated[64] ^= 1
	_, err = secp256k1fx.RecoverAddress(h, mutated)
	require.ErrorIs(t, err, secp256k1fx.ErrMutatedSig)
	flag := sig
	flag[64] = 4
	_, err = secp256k1fx.RecoverAddress(h, flag)
	require.ErrorIs(t, err, secp256k1fx.ErrMutatedSig)
	// Another message recovers to another key.
	h[0] ^= 1
	other, err := secp256k1fx.RecoverAddress(h, sig)
	if err == nil {
		require.NotEqual(t, ewoq, other)
	}
}
