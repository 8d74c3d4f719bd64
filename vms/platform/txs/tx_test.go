package txs

import (
	"crypto/sha256"
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// kindByTypeID maps each P type ID in the vectors to the Go type ParseTx must produce.
var kindByTypeID = map[uint32]reflect.Type{
	TypeIDBaseTx:                       reflect.TypeFor[*BaseTx](),
	TypeIDCreateSubnetTx:               reflect.TypeFor[*CreateSubnetTx](),
	TypeIDCreateChainTx:                reflect.TypeFor[*CreateChainTx](),
	TypeIDAddSubnetValidatorTx:         reflect.TypeFor[*AddSubnetValidatorTx](),
	TypeIDAddPermissionlessValidatorTx: reflect.TypeFor[*AddPermissionlessValidatorTx](),
	TypeIDConvertSubnetToL1Tx:          reflect.TypeFor[*ConvertSubnetToL1Tx](),
	TypeIDRegisterL1ValidatorTx:        reflect.TypeFor[*RegisterL1ValidatorTx](),
	TypeIDSetL1ValidatorWeightTx:       reflect.TypeFor[*SetL1ValidatorWeightTx](),
	TypeIDIncreaseL1ValidatorBalanceTx: reflect.TypeFor[*IncreaseL1ValidatorBalanceTx](),
	TypeIDDisableL1ValidatorTx:         reflect.TypeFor[*DisableL1ValidatorTx](),
	TypeIDImportTx:                     reflect.TypeFor[*ImportTx](),
	TypeIDExportTx:                     reflect.TypeFor[*ExportTx](),
	TypeIDAddPermissionlessDelegatorTx: reflect.TypeFor[*AddPermissionlessDelegatorTx](),
	TypeIDAddValidatorTx:               reflect.TypeFor[*AddValidatorTx](),
	TypeIDAddDelegatorTx:               reflect.TypeFor[*AddDelegatorTx](),
	TypeIDRemoveSubnetValidatorTx:      reflect.TypeFor[*RemoveSubnetValidatorTx](),
	TypeIDTransferSubnetOwnershipTx:    reflect.TypeFor[*TransferSubnetOwnershipTx](),
	TypeIDRewardValidatorTx:            reflect.TypeFor[*RewardValidatorTx](),
}

// reflectType returns the dynamic type of u.
func reflectType(u UnsignedTx) reflect.Type { return reflect.TypeOf(u) }

// TestTxVectors parses every P-Chain tx vector, checks its bytes, spans, IDs and produced UTXOs, and
// encodes the parsed value again from scratch.
func TestTxVectors(t *testing.T) {
	t.Parallel()
	vectortest.Each(t, loadVectors(t).pTxVectors(), 9, func(t *testing.T, vec map[string]any) {
		tx := vectortest.CheckTxVector(t, vec, ParseTx)
		typeID := uint32(num(t, vec, "unsignedTxTypeID"))
		require.Equal(t, kindByTypeID[typeID], reflect.TypeOf(tx.Unsigned()))
		id, ok := unsignedTxs.ID(tx.Unsigned())
		require.True(t, ok)
		require.Equal(t, typeID, id)

		vectortest.CheckRebuild(t, tx, NewTx, UnsignedBytes)
		produced, _ := vec["producedUTXOs"].([]any)
		vectortest.CheckProducedUTXOs(t, tx.ID(), produced, tx.UTXOs())

		// Inputs: the UTXO IDs they spend.
		inputs, _ := vec["inputs"].(map[string]any)["inputs"].([]any)
		ins := tx.Unsigned().Base().Ins
		require.Len(t, ins, len(inputs))
		for i, raw := range inputs {
			utxo := raw.(map[string]any)["utxo"].(map[string]any)
			require.Equal(t, cb58(t, str(t, utxo, "utxoID")), ins[i].InputID())
		}
	})
}

func TestSpecialIDs(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	parse := func(name string) *Tx {
		tx, err := ParseTx(unhex(t, str(t, v.Vectors.Named(t, name), "signedBytesHex")))
		require.NoError(t, err)
		return tx
	}

	// subnetID and blockchainID are the IDs of their creating txs (§2.3).
	subnet := parse("p_create_subnet_tx")
	require.Equal(t, cb58(t, str(t, v.Vectors.Named(t, "p_create_subnet_tx"), "subnetID(=txID)")), subnet.ID())
	chain := parse("p_create_chain_tx")
	require.Equal(t, cb58(t, str(t, v.Vectors.Named(t, "p_create_chain_tx"), "blockchainID(=txID)")), chain.ID())
	cc := chain.Unsigned().(*CreateChainTx)
	require.Equal(t, subnet.ID(), cc.SubnetID)
	require.Equal(t, ids.FromName("subnetevm"), cc.VMID)
	require.Equal(t, []uint32{0}, cc.SubnetAuth.SigIndices)

	// validationID of ConvertSubnetToL1Tx validator 0 (§2.3).
	vid := v.Vectors.Named(t, "validation_id_for_convert_subnet_to_l1_validator_0")
	convertVec := v.Vectors.Named(t, "p_convert_subnet_to_l1_tx")
	convert := parse("p_convert_subnet_to_l1_tx").Unsigned().(*ConvertSubnetToL1Tx)
	require.Equal(t, subnet.ID(), convert.SubnetID)
	require.Equal(t, chain.ID(), convert.ChainID)
	require.Equal(t, unhex(t, str(t, vid, "preimageHex")), binary.BigEndian.AppendUint32(convert.SubnetID[:], 0))
	require.Equal(t, cb58(t, str(t, vid, "validationID")), convert.ValidationID(0))
	validation0 := convert.ValidationID(0)
	require.Equal(t, unhex(t, str(t, convertVec, "validationIDHex")), validation0[:])

	// The stored owner bytes: version, threshold, addresses (§4.3).
	require.Len(t, convert.Validators, 1)
	val := convert.Validators[0]
	require.Equal(t, unhex(t, str(t, convertVec, "remainingBalanceOwnerStoredBytesHex")), val.RemainingBalanceOwner.Bytes())

	// The conversion ID hashes the SubnetToL1ConversionData built from the tx's fields (§2.3).
	p := codec.NewPacker(nil)
	p.Version()
	p.ID(convert.SubnetID)
	p.ID(convert.ChainID)
	p.VarBytes(convert.Address)
	p.Count(len(convert.Validators))
	for _, val := range convert.Validators {
		p.VarBytes(val.NodeID)
		p.Fixed(val.Signer.PublicKey[:])
		p.Uint64(val.Weight)
	}
	data, err := p.Bytes()
	require.NoError(t, err)
	require.Equal(t, unhex(t, str(t, convertVec, "subnetToL1ConversionDataBytesHex")), data)
	conversionID := sha256.Sum256(data)
	require.Equal(t, unhex(t, str(t, convertVec, "conversionIDHex")), conversionID[:])

	// The increase and disable txs name that validation ID.
	increase := parse("p_increase_l1_validator_balance_tx").Unsigned().(*IncreaseL1ValidatorBalanceTx)
	require.Equal(t, convert.ValidationID(0), increase.ValidationID)
	require.Equal(t, uint64(1_000_000_000), increase.Balance)
	disable := parse("p_disable_l1_validator_tx")
	require.Equal(t, convert.ValidationID(0), disable.Unsigned().(*DisableL1ValidatorTx).ValidationID)
	// The auth credential comes last and equals the input's: one key signs one digest (§3.2).
	require.Len(t, disable.Creds(), 2)
	require.Equal(t, disable.Creds()[0], disable.Creds()[1])

	// RegisterL1ValidatorTx: the validation ID is sha256 of the RegisterL1Validator payload inside
	// the warp message: message → AddressedCall → payload (§2.3, §4.5).
	regVec := v.Vectors.Named(t, "p_register_l1_validator_tx")
	reg := parse("p_register_l1_validator_tx").Unsigned().(*RegisterL1ValidatorTx)
	u := codec.NewUnpacker(reg.Message, codec.MaxSize)
	u.Version()
	require.Equal(t, uint32(12345), u.Uint32())
	require.Equal(t, chain.ID(), u.ID())
	call := codec.NewUnpacker(u.VarBytes(), codec.MaxSize)
	call.Version()
	require.Equal(t, uint32(1), call.TypeID())
	call.VarBytes()
	payload := call.VarBytes()
	require.NoError(t, call.Done())
	validationID := sha256.Sum256(payload)
	require.Equal(t, unhex(t, str(t, regVec, "validationIDHex")), validationID[:])
	require.Equal(t, cb58(t, str(t, regVec, "validationID(sha256 of RegisterL1Validator payload bytes)")), ids.ID(validationID))
}

// TestNewTxKinds builds one tx of each kind without a vector and round-trips it.
func TestNewTxKinds(t *testing.T) {
	t.Parallel()
	owners := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{{1}}}
	base := BaseTx{
		NetworkID: 12345,
		Outs: []TransferableOutput{
			{AssetID: ids.ID{1}, Out: &secp256k1fx.TransferOutput{Amount: 5, OutputOwners: owners}},
			{AssetID: ids.ID{1}, Out: &LockOut{Locktime: 99, Out: &secp256k1fx.TransferOutput{Amount: 6, OutputOwners: owners}}},
		},
		Ins: []TransferableInput{
			{UTXOID: utxo.UTXOID{TxID: ids.ID{2}, OutputIndex: 3}, AssetID: ids.ID{1}, In: &LockIn{Locktime: 99, In: &secp256k1fx.TransferInput{Amount: 7, Input: secp256k1fx.Input{SigIndices: []uint32{0}}}}},
		},
		Memo: []byte{},
	}
	creds := []secp256k1fx.Credential{{Sigs: []secp256k1fx.Signature{{1}}}, {Sigs: []secp256k1fx.Signature{}}}
	tests := []struct {
		name     string
		unsigned UnsignedTx
		typeID   uint32
	}{
		{"add subnet validator", &AddSubnetValidatorTx{
			BaseTx:     base,
			Validator:  Validator{NodeID: ids.NodeID{9}, Start: 1, End: 2, Weight: 3},
			SubnetID:   ids.ID{4},
			SubnetAuth: secp256k1fx.Input{SigIndices: []uint32{0, 1}},
		}, TypeIDAddSubnetValidatorTx},
		{"permissionless validator without signer", &AddPermissionlessValidatorTx{
			BaseTx:                base,
			Signer:                &EmptySigner{},
			Stake:                 []TransferableOutput{},
			ValidatorRewardsOwner: secp256k1fx.OutputOwners{Addrs: []ids.ShortID{}},
			DelegatorRewardsOwner: owners,
			DelegationShares:      20_000,
		}, TypeIDAddPermissionlessValidatorTx},
		{"set weight", &SetL1ValidatorWeightTx{BaseTx: base, Message: []byte{1, 2, 3}}, TypeIDSetL1ValidatorWeightTx},
		{"base with locks", &base, TypeIDBaseTx},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vectortest.CheckNewTx(t, tt.unsigned, creds, tt.typeID, NewTx, ParseTx)
		})
	}
}

func TestNewTxErrors(t *testing.T) {
	t.Parallel()
	vectortest.CheckEncodeErrors(t, []vectortest.EncodeError[UnsignedTx]{
		{Name: "nil unsigned", Unsigned: nil, WantErr: codec.ErrNilValue},
		{Name: "nil output", Unsigned: &BaseTx{Outs: []TransferableOutput{{}}}, WantErr: codec.ErrNilValue},
		{Name: "typed nil output", Unsigned: &BaseTx{Outs: []TransferableOutput{{Out: (*secp256k1fx.TransferOutput)(nil)}}}, WantErr: codec.ErrNilValue},
		{Name: "unregistered output", Unsigned: &BaseTx{Outs: []TransferableOutput{{Out: &secp256k1fx.MintOutput{}}}}, WantErr: codec.ErrUnregisteredType},
		{Name: "nil input", Unsigned: &BaseTx{Ins: []TransferableInput{{}}}, WantErr: codec.ErrNilValue},
		{Name: "unregistered input", Unsigned: &BaseTx{Ins: []TransferableInput{{In: &secp256k1fx.Input{}}}}, WantErr: codec.ErrUnregisteredType},
		{Name: "empty lock out", Unsigned: &BaseTx{Outs: []TransferableOutput{{Out: &LockOut{}}}}, WantErr: codec.ErrNilValue},
		{Name: "empty lock in", Unsigned: &BaseTx{Ins: []TransferableInput{{In: &LockIn{}}}}, WantErr: codec.ErrNilValue},
		{Name: "nil signer", Unsigned: &AddPermissionlessValidatorTx{}, WantErr: codec.ErrNilValue},
		{Name: "long chain name", Unsigned: &CreateChainTx{ChainName: string(make([]byte, codec.MaxStringLen+1))}, WantErr: codec.ErrOversize},
	}, NewTx, UnsignedBytes)
}

// TestParseTxErrors corrupts a vector tx: every prefix is truncated, extra bytes are trailing, and
// bad type IDs, versions and sizes are refused.
func TestParseTxErrors(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	valid := unhex(t, str(t, v.Vectors.Named(t, "p_disable_l1_validator_tx"), "signedBytesHex"))

	for n := range len(valid) {
		_, err := ParseTx(valid[:n])
		require.ErrorIs(t, err, codec.ErrTruncated, "prefix of %d bytes", n)
	}

	with := func(off int, b ...byte) []byte {
		out := append([]byte(nil), valid...)
		copy(out[off:], b)
		return out
	}
	// Offsets in the DisableL1ValidatorTx vector (§8.6): the output's type ID follows version, tx
	// type ID, network ID, blockchain ID, output count and asset ID.
	const outTypeOff = 2 + 4 + 4 + 32 + 4 + 32
	vectortest.CheckDecodeErrors(t, []vectortest.DecodeError{
		{Name: "trailing byte", In: append(append([]byte(nil), valid...), 0), WantErr: codec.ErrTrailingBytes},
		{Name: "version 1", In: with(0, 0, 1), WantErr: codec.ErrUnknownVersion},
		{Name: "unknown tx type", In: with(2, 0, 0, 0, 99), WantErr: codec.ErrUnknownTypeID},
		{Name: "apricot block as tx", In: with(2, 0, 0, 0, 3), WantErr: codec.ErrUnknownTypeID},
		{Name: "AddValidatorTx (not supported)", In: with(2, 0, 0, 0, 12), WantErr: codec.ErrUnknownTypeID},
		{Name: "output type 5", In: with(outTypeOff, 0, 0, 0, 5), WantErr: codec.ErrUnknownTypeID},
		{Name: "credential type 7", In: with(len(valid)-2*(4+4+65), 0, 0, 0, 7), WantErr: codec.ErrUnknownTypeID},
		{Name: "output count huge", In: with(2+4+4+32, 0xff, 0xff, 0xff, 0xff), WantErr: codec.ErrOversize},
		{Name: "output count too big for input", In: with(2+4+4+32, 0, 0, 1, 0), WantErr: codec.ErrTruncated},
		{Name: "oversize", In: make([]byte, codec.MaxSize+1), WantErr: codec.ErrOversize},
		{Name: "empty", In: nil, WantErr: codec.ErrTruncated},
	}, ParseTx)
}

func TestParseTxCopiesInput(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	in := unhex(t, str(t, v.Vectors.Named(t, "p_create_chain_tx"), "signedBytesHex"))
	tx, err := ParseTx(in)
	require.NoError(t, err)
	genesis := append([]byte(nil), tx.Unsigned().(*CreateChainTx).GenesisData...)
	clear(in)
	require.Equal(t, genesis, tx.Unsigned().(*CreateChainTx).GenesisData)
	require.Equal(t, ids.ID(sha256.Sum256(tx.Bytes())), tx.ID())
}

// FuzzParseTx parses arbitrary bytes as a signed tx: it never panics, and a tx it accepts encodes
// back to the same bytes, with the ID of those bytes.
func FuzzParseTx(f *testing.F) {
	v := loadVectors(f)
	for _, vec := range v.pTxVectors() {
		f.Add(unhex(f, str(f, vec, "signedBytesHex")))
	}
	for _, m := range append(v.LocalNetwork.PGenesisValidators, v.LocalNetwork.PGenesisChains...) {
		for _, key := range []string{"signedTxHex", "createChainTxHex"} {
			if s, ok := m[key].(string); ok {
				f.Add(unhex(f, s))
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if tx, err := ParseTx(b); err == nil {
			vectortest.CheckRebuild(t, tx, NewTx, UnsignedBytes)
		}
	})
}
