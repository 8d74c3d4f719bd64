package signed

import (
	"crypto/sha256"
	"sync"
	"testing"

	secp "github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// signerAddress is tx's Signer for a caller that expects no address and remembers no keys:
// plain recovery through the memo.
func signerAddress[U any](tx *Tx[U], cred, sig int) (ids.ShortID, error) {
	return tx.Signer(nil, cred, sig, ids.ShortID{})
}

// testKey returns a fixed private key derived from seed.
func testKey(seed byte) *secp.PrivateKey {
	h := sha256.Sum256([]byte{seed})
	return secp.PrivKeyFromBytes(h[:])
}

func keyAddr(k *secp.PrivateKey) ids.ShortID {
	return secp256k1fx.PublicKeyAddress(k.PubKey().SerializeCompressed())
}

// signWord signs the unsigned bytes of w with k, in the r ‖ s ‖ v form of §3.2.
func signWord(t testing.TB, w word, k *secp.PrivateKey) secp256k1fx.Signature {
	t.Helper()
	b, err := UnsignedBytes(wordCodec, w)
	require.NoError(t, err)
	h := sha256.Sum256(b)
	compact := ecdsa.SignCompact(k, h[:], false) // header 27 + recovery flag, r, s
	var sig secp256k1fx.Signature
	copy(sig[:64], compact[1:])
	sig[64] = compact[0] - 27
	return sig
}

// memoLen returns the number of signatures tx's memo holds.
func memoLen[U any](tx *Tx[U]) int {
	m := tx.signers
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.bySig)
}

func newWordTx(t testing.TB, w word, sigs ...[]secp256k1fx.Signature) *Tx[word] {
	t.Helper()
	creds := make([]secp256k1fx.Credential, len(sigs))
	for i := range sigs {
		creds[i].Sigs = sigs[i]
	}
	tx, err := New(wordCodec, w, creds)
	require.NoError(t, err)
	return tx
}

// TestSignerAddress checks that Signer answers what RecoverAddress answers, good
// signatures and bad ones alike, and keeps answering it from the memo.
func TestSignerAddress(t *testing.T) {
	t.Parallel()
	alice, bob := testKey(1), testKey(2)
	good := signWord(t, 42, alice)
	highS := good
	{
		var s secp.ModNScalar
		s.SetByteSlice(good[32:64])
		s.Negate()
		b := s.Bytes()
		copy(highS[32:64], b[:])
	}
	badFlag := good
	badFlag[64] = 2
	zeroR := good
	clear(zeroR[:32])

	tests := []struct {
		name     string
		sig      secp256k1fx.Signature
		wantAddr ids.ShortID
		wantErr  error
	}{
		{name: "signer's key", sig: good, wantAddr: keyAddr(alice)},
		{name: "another key", sig: signWord(t, 42, bob), wantAddr: keyAddr(bob)},
		{name: "signature of another tx", sig: signWord(t, 43, alice)},
		{name: "high S", sig: highS, wantErr: secp256k1fx.ErrMutatedSig},
		{name: "recovery flag 2", sig: badFlag, wantErr: secp256k1fx.ErrMutatedSig},
		{name: "zero r", sig: zeroR, wantErr: secp256k1fx.ErrWrongSig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tx := newWordTx(t, 42, []secp256k1fx.Signature{tt.sig})
			wantAddr, wantErr := secp256k1fx.RecoverAddress(tx.UnsignedHash(), tt.sig)
			for range 3 {
				addr, err := signerAddress(tx, 0, 0)
				require.Equal(t, wantAddr, addr)
				require.Equal(t, wantErr, err)
				if tt.wantErr != nil {
					require.ErrorIs(t, err, tt.wantErr)
					continue
				}
				require.NoError(t, err)
				if tt.wantAddr != (ids.ShortID{}) {
					require.Equal(t, tt.wantAddr, addr)
				} else {
					require.NotEqual(t, keyAddr(alice), addr)
				}
			}
			require.Equal(t, 1, memoLen(tx))
		})
	}
}

// One key signing several credentials gives the same signature: it is recovered once.
func TestSignerAddressSharedSignature(t *testing.T) {
	t.Parallel()
	alice, bob := testKey(1), testKey(2)
	a, b := signWord(t, 7, alice), signWord(t, 7, bob)
	tx := newWordTx(t, 7, []secp256k1fx.Signature{a}, []secp256k1fx.Signature{b, a}, []secp256k1fx.Signature{a})
	want := [][]ids.ShortID{{keyAddr(alice)}, {keyAddr(bob), keyAddr(alice)}, {keyAddr(alice)}}
	for c, sigs := range want {
		for s, addr := range sigs {
			got, err := signerAddress(tx, c, s)
			require.NoError(t, err)
			require.Equal(t, addr, got)
		}
	}
	require.Equal(t, 2, memoLen(tx))
	require.Panics(t, func() { _, _ = signerAddress(tx, 3, 0) })
	require.Panics(t, func() { _, _ = signerAddress(tx, 0, 1) })
}

// The memo belongs to one Tx value: the same tx decoded again from its bytes, or another tx
// carrying the same signature bytes, starts empty and recovers over its own unsigned hash.
func TestSignerAddressPerTx(t *testing.T) {
	t.Parallel()
	alice := testKey(1)
	sig := signWord(t, 1, alice)
	tx := newWordTx(t, 1, []secp256k1fx.Signature{sig})
	addr, err := signerAddress(tx, 0, 0)
	require.NoError(t, err)
	require.Equal(t, keyAddr(alice), addr)

	parsed, err := Parse(wordCodec, codec.NewUnpacker(tx.Bytes(), codec.MaxSize))
	require.NoError(t, err)
	require.Zero(t, memoLen(parsed))
	addr, err = signerAddress(parsed, 0, 0)
	require.NoError(t, err)
	require.Equal(t, keyAddr(alice), addr)

	// Same signature, other unsigned bytes: another signer (or none), never alice's memo.
	other := newWordTx(t, 2, []secp256k1fx.Signature{sig})
	want, wantErr := secp256k1fx.RecoverAddress(other.UnsignedHash(), sig)
	addr, err = signerAddress(other, 0, 0)
	require.Equal(t, wantErr, err)
	require.Equal(t, want, addr)
	require.NotEqual(t, keyAddr(alice), addr)

	// A Tx made without the constructors has no memo and recovers every time.
	bare := &Tx[word]{unsigned: tx.unsigned, creds: tx.creds, bytes: tx.bytes, unsignedLen: tx.unsignedLen, id: tx.id}
	addr, err = signerAddress(bare, 0, 0)
	require.NoError(t, err)
	require.Equal(t, keyAddr(alice), addr)

	// Txs read from a list get their own memos too.
	p := codec.NewPacker(nil)
	WriteAll(wordCodec, p, []*wordTx{{*tx}, {*other}})
	list, err := p.Bytes()
	require.NoError(t, err)
	u := codec.NewUnpacker(list, codec.MaxSize)
	all := ReadAll[wordTx](wordCodec, u)
	require.NoError(t, u.Done())
	require.Len(t, all, 2)
	for _, got := range all {
		require.Zero(t, memoLen(&got.Tx))
	}
	require.NotSame(t, all[0].signers, all[1].signers)
}

// The memo is keyed on the whole signature: a signature changed in place (against the
// contract) is recovered again, never answered with the address of the one it replaced, and
// however many replace it the memo holds no more entries than the tx has signatures.
func TestSignerAddressBounded(t *testing.T) {
	t.Parallel()
	alice, bob := testKey(1), testKey(2)
	a, b := signWord(t, 9, alice), signWord(t, 9, bob)
	tx := newWordTx(t, 9, []secp256k1fx.Signature{a, b})
	for s, k := range []*secp.PrivateKey{alice, bob} {
		addr, err := signerAddress(tx, 0, s)
		require.NoError(t, err)
		require.Equal(t, keyAddr(k), addr)
	}
	require.Equal(t, 2, memoLen(tx))

	sigs := tx.Creds()[0].Sigs
	for i := range 50 {
		sigs[0][i%32] ^= byte(i + 1)
		want, wantErr := secp256k1fx.RecoverAddress(tx.UnsignedHash(), sigs[0])
		addr, err := signerAddress(tx, 0, 0)
		require.Equal(t, wantErr, err)
		require.Equal(t, want, addr)
		require.NotEqual(t, keyAddr(alice), addr)
		require.LessOrEqual(t, memoLen(tx), 2)
	}
	sigs[0] = a
	addr, err := signerAddress(tx, 0, 0)
	require.NoError(t, err)
	require.Equal(t, keyAddr(alice), addr)
	require.LessOrEqual(t, memoLen(tx), 2)
}

// Signer is safe for concurrent use on one Tx.
func TestSignerAddressConcurrent(t *testing.T) {
	t.Parallel()
	alice, bob := testKey(1), testKey(2)
	tx := newWordTx(t, 5, []secp256k1fx.Signature{signWord(t, 5, alice)}, []secp256k1fx.Signature{signWord(t, 5, bob)})
	want := []ids.ShortID{keyAddr(alice), keyAddr(bob)}
	type result struct {
		cred int
		addr ids.ShortID
		err  error
	}
	results := make([][4]result, 8)
	var wg sync.WaitGroup
	for g := range results {
		wg.Go(func() {
			for i := range results[g] {
				c := (g + i) % 2
				addr, err := signerAddress(tx, c, 0)
				results[g][i] = result{c, addr, err}
			}
		})
	}
	wg.Wait()
	for _, rs := range results {
		for _, r := range rs {
			require.NoError(t, r.err)
			require.Equal(t, want[r.cred], r.addr)
		}
	}
	require.Equal(t, 2, memoLen(tx))
}

// FuzzSignerAddress recovers arbitrary signatures over arbitrary txs: Signer always
// answers what RecoverAddress answers, the first time and from the memo, and the memo never
// holds more signatures than the tx.
func FuzzSignerAddress(f *testing.F) {
	alice := testKey(1)
	for _, w := range []word{0, 42} {
		sig := signWord(f, w, alice)
		f.Add(uint32(w), sig[:], sig[:])
		f.Add(uint32(w+1), sig[:], make([]byte, secp256k1fx.SignatureLen))
	}
	f.Fuzz(func(t *testing.T, w uint32, a, b []byte) {
		var sa, sb secp256k1fx.Signature
		copy(sa[:], a)
		copy(sb[:], b)
		tx := newWordTx(t, word(w), []secp256k1fx.Signature{sa, sb}, []secp256k1fx.Signature{sb})
		for range 2 {
			for _, at := range [][2]int{{0, 0}, {0, 1}, {1, 0}} {
				s := tx.Creds()[at[0]].Sigs[at[1]]
				want, wantErr := secp256k1fx.RecoverAddress(tx.UnsignedHash(), s)
				got, err := signerAddress(tx, at[0], at[1])
				require.Equal(t, want, got)
				require.Equal(t, wantErr, err)
			}
		}
		require.LessOrEqual(t, memoLen(tx), 3)
	})
}

// BenchmarkSignerAddress compares a first recovery (a fresh Tx each time) with a memoized one.
func BenchmarkSignerAddress(b *testing.B) {
	sig := signWord(b, 3, testKey(1))
	b.Run("recover", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tx := newWordTx(b, 3, []secp256k1fx.Signature{sig})
			if _, err := signerAddress(tx, 0, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("memo", func(b *testing.B) {
		tx := newWordTx(b, 3, []secp256k1fx.Signature{sig})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := signerAddress(tx, 0, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
