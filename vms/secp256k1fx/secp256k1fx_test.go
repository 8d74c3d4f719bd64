package secp256k1fx

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
)

type marshalUnmarshaler interface {
	codec.Marshaler
	Unmarshal(u *codec.Unpacker)
}

var (
	ewoq = ids.ShortID{0x3c, 0xb7, 0xd3, 0x84, 0x2e, 0x8c, 0xee, 0x6a, 0x0e, 0xbd, 0x09, 0xf1, 0xfe, 0x88, 0x4f, 0x68, 0x61, 0xe1, 0xb2, 0x9c}
	vmrq = ids.ShortID{0x46, 0xa9, 0xc0, 0x4f, 0x4b, 0xf7, 0x83, 0xaa, 0x69, 0xda, 0xab, 0xd5, 0x19, 0xdc, 0xf3, 0x69, 0x78, 0x16, 0x8b, 0x66}
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// TestWireBytes checks each type's body against bytes taken from the vectors (platform-exchange.md
// §8.5, §8.6), without the type IDs in front.
func TestWireBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value marshalUnmarshaler
		empty marshalUnmarshaler
		hex   string
	}{
		{
			name:  "transfer output 1 AVAX to vmRQ",
			value: &TransferOutput{Amount: 1_000_000_000, OutputOwners: OutputOwners{Threshold: 1, Addrs: []ids.ShortID{vmrq}}},
			empty: &TransferOutput{},
			hex:   "000000003b9aca00" + "0000000000000000" + "00000001" + "00000001" + "46a9c04f4bf783aa69daabd519dcf36978168b66",
		},
		{
			name:  "owners",
			value: &OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}},
			empty: &OutputOwners{},
			hex:   "0000000000000000" + "00000001" + "00000001" + "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c",
		},
		{
			name:  "transfer input",
			value: &TransferInput{Amount: 300_000_000_000_000_000, Input: Input{SigIndices: []uint32{0}}},
			empty: &TransferInput{},
			hex:   "0429d069189e0000" + "00000001" + "00000000",
		},
		{
			name:  "input",
			value: &Input{SigIndices: []uint32{0}},
			empty: &Input{},
			hex:   "00000001" + "00000000",
		},
		{
			name:  "credential",
			value: &Credential{Sigs: []Signature{{1, 2, 3, 64: 1}}},
			empty: &Credential{},
			hex:   "00000001" + "010203" + strings.Repeat("00", 61) + "01",
		},
		{
			name:  "mint output",
			value: &MintOutput{OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}},
			empty: &MintOutput{},
			hex:   "0000000000000000" + "00000001" + "00000001" + "3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c",
		},
		{
			name: "mint operation",
			value: &MintOperation{
				MintInput:      Input{SigIndices: []uint32{0}},
				MintOutput:     MintOutput{OutputOwners{Threshold: 0, Addrs: []ids.ShortID{}}},
				TransferOutput: TransferOutput{Amount: 5, OutputOwners: OutputOwners{Addrs: []ids.ShortID{}}},
			},
			empty: &MintOperation{},
			hex:   "0000000100000000" + "0000000000000000" + "00000000" + "00000000" + "0000000000000005" + "0000000000000000" + "00000000" + "00000000",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := mustHex(t, tt.hex)
			p := codec.NewPacker(nil)
			tt.value.Marshal(p)
			got, err := p.Bytes()
			require.NoError(t, err)
			require.Equal(t, want, got)

			u := codec.NewUnpacker(want, codec.MaxSize)
			tt.empty.Unmarshal(u)
			require.NoError(t, u.Done())
			require.Equal(t, tt.value, tt.empty)

			for n := range len(want) {
				u := codec.NewUnpacker(want[:n], codec.MaxSize)
				tt.empty.Unmarshal(u)
				require.ErrorIs(t, u.Done(), codec.ErrTruncated)
			}
		})
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		verify  func() error
		wantErr error
	}{
		{"owners ok", (&OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq, vmrq}}).Verify, nil},
		{"owners empty ok", (&OutputOwners{}).Verify, nil},
		{"owners nil", (*OutputOwners)(nil).Verify, ErrNilOutput},
		{"owners unspendable", (&OutputOwners{Threshold: 2, Addrs: []ids.ShortID{ewoq}}).Verify, ErrOutputUnspendable},
		{"owners unoptimized", (&OutputOwners{Addrs: []ids.ShortID{ewoq}}).Verify, ErrOutputUnoptimized},
		{"owners unsorted", (&OutputOwners{Threshold: 1, Addrs: []ids.ShortID{vmrq, ewoq}}).Verify, ErrAddrsNotSortedUnique},
		{"owners duplicate", (&OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq, ewoq}}).Verify, ErrAddrsNotSortedUnique},
		{"output zero", (&TransferOutput{OutputOwners: OutputOwners{}}).Verify, ErrNoValueOutput},
		{"output nil", (*TransferOutput)(nil).Verify, ErrNilOutput},
		{"output ok", (&TransferOutput{Amount: 1}).Verify, nil},
		{"input zero", (&TransferInput{}).Verify, ErrNoValueInput},
		{"input ok", (&TransferInput{Amount: 1, Input: Input{SigIndices: []uint32{0, 2}}}).Verify, nil},
		{"input unsorted", (&TransferInput{Amount: 1, Input: Input{SigIndices: []uint32{2, 0}}}).Verify, ErrInputIndicesNotSortedUnique},
		{"input duplicate", (&Input{SigIndices: []uint32{1, 1}}).Verify, ErrInputIndicesNotSortedUnique},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, tt.verify(), tt.wantErr)
		})
	}
}
