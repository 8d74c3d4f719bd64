package staking

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/stretchr/testify/require"
)

// certWithKey returns a certificate for pub, signed by a throwaway P-256 key. x509 does not check
// the subject key, so keys that ParseCertificate must reject can be embedded.
func certWithKey(tb testing.TB, pub any) []byte {
	tb.Helper()
	signer, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(tb, err)
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		NotBefore:    certNotBefore,
		NotAfter:     certNotBefore.AddDate(1, 0, 0),
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, pub, signer)
	require.NoError(tb, err)
	return der
}

// fakeRSA returns an RSA public key with a modulus of exactly bits bits, of the given parity, and
// exponent e. The modulus need not be a product of two primes: only its shape is checked.
func fakeRSA(bits int, odd bool, e int) *rsa.PublicKey {
	n := new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
	n.Add(n, big.NewInt(12345678))
	if odd {
		n.SetBit(n, 0, 1)
	}
	return &rsa.PublicKey{N: n, E: e}
}

func generatedCertDER(tb testing.TB) []byte {
	tb.Helper()
	_, certPEM, err := NewCertificate(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(tb, err)
	block, _ := pem.Decode(certPEM)
	return block.Bytes
}

func TestParseCertificate(t *testing.T) {
	t.Parallel()
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	require.NoError(t, err)
	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	_, staker1 := stakerPaths(1)

	tests := []struct {
		name    string
		der     []byte
		wantErr error
	}{
		{name: "local staker (RSA 4096)", der: readCertDER(t, staker1)},
		{name: "generated (P-256)", der: generatedCertDER(t)},
		{name: "RSA 2048", der: certWithKey(t, fakeRSA(2048, true, 65537))},
		{name: "RSA 4096", der: certWithKey(t, fakeRSA(4096, true, 65537))},
		{name: "RSA 1024", der: certWithKey(t, fakeRSA(1024, true, 65537)), wantErr: ErrUnsupportedRSAModulusBitLen},
		{name: "RSA 3072", der: certWithKey(t, fakeRSA(3072, true, 65537)), wantErr: ErrUnsupportedRSAModulusBitLen},
		{name: "RSA even modulus", der: certWithKey(t, fakeRSA(2048, false, 65537)), wantErr: ErrRSAModulusIsEven},
		{name: "RSA exponent 3", der: certWithKey(t, fakeRSA(2048, true, 3)), wantErr: ErrUnsupportedRSAPublicExponent},
		{name: "ECDSA P-384", der: certWithKey(t, p384.Public()), wantErr: ErrUnsupportedCurve},
		{name: "Ed25519", der: certWithKey(t, edPub), wantErr: ErrUnknownPublicKeyAlgorithm},
		{name: "too large", der: make([]byte, MaxCertificateLen+1), wantErr: ErrCertificateTooLarge},
		{name: "garbage", der: []byte{0x30, 0x03, 1, 2, 3}, wantErr: ErrMalformedCertificate},
		{name: "empty", der: nil, wantErr: ErrMalformedCertificate},
		{name: "trailing byte", der: append(generatedCertDER(t), 0), wantErr: ErrMalformedCertificate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cert, err := ParseCertificate(tt.der)
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == nil {
				require.Equal(t, tt.der, cert.Raw)
			} else {
				require.Nil(t, cert)
			}
		})
	}
}

// signer returns the private key of a loaded pair.
func signer(tb testing.TB, cert *tls.Certificate) crypto.Signer {
	tb.Helper()
	s, ok := cert.PrivateKey.(crypto.Signer)
	require.True(tb, ok)
	return s
}

func TestSignAndCheckSignature(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	dir := t.TempDir()
	generated, err := LoadOrGenerate(filepath.Join(dir, "staker.key"), filepath.Join(dir, "staker.crt"), true, clk)
	require.NoError(t, err)
	keyPath, certPath := stakerPaths(2)
	local, err := LoadOrGenerate(keyPath, certPath, false, clk)
	require.NoError(t, err)

	tests := []struct {
		name string
		cert *tls.Certificate
	}{
		{name: "ecdsa", cert: generated},
		{name: "rsa", cert: local},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			msg := []byte("ip and timestamp")
			sig, err := Sign(signer(t, tt.cert), msg)
			require.NoError(t, err)
			require.NoError(t, CheckSignature(tt.cert.Leaf, msg, sig))
			require.ErrorIs(t, CheckSignature(tt.cert.Leaf, []byte("other"), sig), ErrInvalidSignature)
			sig[len(sig)/2] ^= 1
			require.ErrorIs(t, CheckSignature(tt.cert.Leaf, msg, sig), ErrInvalidSignature)
		})
	}

	// A signature by one key does not verify under another.
	sig, err := Sign(signer(t, generated), []byte("m"))
	require.NoError(t, err)
	require.ErrorIs(t, CheckSignature(local.Leaf, []byte("m"), sig), ErrInvalidSignature)

	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	require.ErrorIs(t, CheckSignature(&x509.Certificate{PublicKey: edPub}, nil, nil), ErrUnknownPublicKeyAlgorithm)
}

func FuzzParseCertificate(f *testing.F) {
	for i := range localNodeIDs {
		_, certPath := stakerPaths(i + 1)
		f.Add(readCertDER(f, certPath))
	}
	f.Add(generatedCertDER(f))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, der []byte) {
		cert, err := ParseCertificate(der)
		if err != nil {
			return
		}
		// The whole input is the certificate: its NodeID is the NodeID of the input.
		require.Equal(t, der, cert.Raw)
		require.Equal(t, NodeIDFromCert(der), NodeIDFromCert(cert.Raw))
		require.LessOrEqual(t, len(der), MaxCertificateLen)
	})
}

func BenchmarkParseCertificate(b *testing.B) {
	_, staker1 := stakerPaths(1)
	certs := []struct {
		name string
		der  []byte
	}{
		{name: "rsa4096", der: readCertDER(b, staker1)},
		{name: "p256", der: generatedCertDER(b)},
	}
	for _, c := range certs {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseCertificate(c.der); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
