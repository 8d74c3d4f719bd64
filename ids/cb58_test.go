package ids

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// bigBase58 is a slow, obviously correct base-58 encoder used to check the fast one.
func bigBase58(b []byte) string {
	var out []byte
	n := new(big.Int).SetBytes(b)
	base, mod := big.NewInt(58), new(big.Int)
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

func TestCB58Vectors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{name: "32 zero bytes", in: make([]byte, 32), want: "11111111111111111111111111111111LpoYY"},
		{name: "20 zero bytes", in: make([]byte, 20), want: "111111111111111111116DBWJs"},
		{name: "empty", in: []byte{}, want: bigBase58(sumOf(nil))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := CB58Encode(tt.in)
			require.Equal(t, tt.want, got)
			back, err := CB58Decode(got)
			require.NoError(t, err)
			require.Equal(t, tt.in, back)
		})
	}
}

// sumOf returns b followed by its CB58 checksum, computed independently of the package.
func sumOf(b []byte) []byte {
	h := sha256.Sum256(b)
	return append(append([]byte{}, b...), h[len(h)-4:]...)
}

func TestBase58MatchesBigInt(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		// Give some inputs leading zeros.
		for i := 0; i < n && i < n%5; i++ {
			b[i] = 0
		}
		want := bigBase58(b)
		got := string(appendBase58(nil, b))
		require.Equal(t, want, got, "len %d", n)
		back, err := appendDecodeBase58(nil, got)
		if n == 0 {
			require.ErrorIs(t, err, ErrBase58Decoding)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, b, back, "len %d", n)

		require.Equal(t, bigBase58(sumOf(b)), CB58Encode(b))
	}
}

// TestBase58SmallEdges checks appendBase58Small, the path of every identifier, on the numbers at
// the edges of its 64-bit words and ten-digit chunks, for each length it takes and the first it
// leaves to the general path: all bits set (the most chunks), a lone top byte followed by zeros
// (a remainder of zero in every chunk below the top), and one (a single digit).
func TestBase58SmallEdges(t *testing.T) {
	t.Parallel()
	for n := 1; n <= smallLen+1; n++ {
		ones, top, one := bytes.Repeat([]byte{0xff}, n), make([]byte, n), make([]byte, n)
		top[0], one[n-1] = 1, 1
		for _, b := range [][]byte{ones, top, one} {
			require.Equal(t, bigBase58(b), string(appendBase58(nil, b)), "%x", b)
		}
	}
	for _, v := range []uint64{smallBase - 1, smallBase, smallBase + 1} {
		b := binary.BigEndian.AppendUint64(nil, v)
		require.Equal(t, bigBase58(b), string(appendBase58(nil, b)), "%x", b)
	}
}

func TestCB58DecodeErrors(t *testing.T) {
	t.Parallel()
	valid := CB58Encode([]byte{1, 2, 3})
	corrupt := []byte(valid)
	corrupt[len(corrupt)-1] = next58(corrupt[len(corrupt)-1])
	tests := []struct {
		name    string
		in      string
		wantErr error
		wantMsg string
	}{
		{name: "empty", in: "", wantErr: ErrBase58Decoding, wantMsg: "base58 decoding error: zero length string"},
		{name: "zero digit", in: "0abc", wantErr: ErrBase58Decoding, wantMsg: "base58 decoding error: invalid base58 digit ('0')"},
		{name: "letter l", in: "1l", wantErr: ErrBase58Decoding, wantMsg: "base58 decoding error: invalid base58 digit ('l')"},
		{name: "high bit", in: "1é", wantErr: ErrBase58Decoding, wantMsg: "base58 decoding error: high-bit set on invalid digit"},
		{name: "too short", in: "111", wantErr: ErrMissingChecksum, wantMsg: "input string is smaller than the checksum size"},
		{name: "bad checksum", in: string(corrupt), wantErr: ErrBadChecksum, wantMsg: "invalid input checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := CB58Decode(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			require.EqualError(t, err, tt.wantMsg)
		})
	}
}

// next58 returns the base-58 digit after c, wrapping around.
func next58(c byte) byte {
	i := bytes.IndexByte([]byte(base58Alphabet), c)
	return base58Alphabet[(i+1)%len(base58Alphabet)]
}

func TestCB58EncodeLarge(t *testing.T) {
	t.Parallel()
	// Larger than the stack buffers, so the heap paths run.
	b := bytes.Repeat([]byte{0, 0xff, 0x10}, 100)
	s := CB58Encode(b)
	require.Equal(t, bigBase58(sumOf(b)), s)
	back, err := CB58Decode(s)
	require.NoError(t, err)
	require.Equal(t, b, back)
}

func FuzzCB58Decode(f *testing.F) {
	f.Add("11111111111111111111111111111111LpoYY")
	f.Add("111111111111111111116DBWJs")
	f.Add("rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT")
	f.Add("")
	f.Add("1")
	f.Add("0OIl")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := CB58Decode(s)
		if err != nil {
			return
		}
		require.Equal(t, s, CB58Encode(b))
	})
}

func FuzzCB58Encode(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 32))
	f.Add([]byte{0, 0, 1, 2, 3})
	f.Add(bytes.Repeat([]byte{0xff}, IDLen))
	f.Add(bytes.Repeat([]byte{0xff}, smallLen))
	f.Add(append([]byte{0}, bytes.Repeat([]byte{0xa5}, 2*smallLen)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := CB58Encode(b)
		require.Equal(t, bigBase58(sumOf(b)), s)
		back, err := CB58Decode(s)
		require.NoError(t, err)
		require.Equal(t, b, back)
	})
}

var benchSizes = []int{20, 32, 1024, 64 * 1024}

func benchInput(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 0))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func BenchmarkCB58Encode(b *testing.B) {
	for _, n := range benchSizes[:3] {
		in := benchInput(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				_ = CB58Encode(in)
			}
		})
	}
}

func BenchmarkCB58Decode(b *testing.B) {
	for _, n := range benchSizes[:3] {
		s := CB58Encode(benchInput(n))
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				if _, err := CB58Decode(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFromString(b *testing.B) {
	s := ID(benchInput(IDLen)).String()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromString(s); err != nil {
			b.Fatal(err)
		}
	}
}
