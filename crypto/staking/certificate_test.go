package staking

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stakersDir holds the local network's staking keys and certificates.
const stakersDir = "../../testdata/local-stakers"

// localNodeIDs are the NodeIDs of staker1..5 (node-api.md §4.1).
var localNodeIDs = []string{
	"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg",
	"NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ",
	"NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN",
	"NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu",
	"NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5",
}

// stakerPaths returns the key and certificate paths of local staker i (1-based).
func stakerPaths(i int) (keyPath, certPath string) {
	name := "staker" + strconv.Itoa(i)
	return filepath.Join(stakersDir, name+".key"), filepath.Join(stakersDir, name+".crt")
}

// readCertDER returns the DER bytes of the PEM certificate at path.
func readCertDER(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	require.NoError(tb, err)
	block, _ := pem.Decode(b)
	require.NotNil(tb, block)
	require.Equal(tb, certPEMType, block.Type)
	return block.Bytes
}

func TestNodeIDFromCertLocalStakers(t *testing.T) {
	t.Parallel()
	for i, want := range localNodeIDs {
		t.Run(want, func(t *testing.T) {
			t.Parallel()
			_, certPath := stakerPaths(i + 1)
			require.Equal(t, want, NodeIDFromCert(readCertDER(t, certPath)).String())
		})
	}
}

func TestNewCertificate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, time.March, 4, 5, 6, 7, 0, time.UTC)
	keyPEM, certPEM, err := NewCertificate(now)
	require.NoError(t, err)

	keyBlock, rest := pem.Decode(keyPEM)
	require.NotNil(t, keyBlock)
	require.Empty(t, rest)
	require.Equal(t, "PRIVATE KEY", keyBlock.Type)
	parsedKey, err := x509.ParsePKCS8PrivateKey(keyBlock.Bytes)
	require.NoError(t, err)
	key, ok := parsedKey.(*ecdsa.PrivateKey)
	require.True(t, ok)
	require.Equal(t, elliptic.P256(), key.Curve)

	certBlock, rest := pem.Decode(certPEM)
	require.NotNil(t, certBlock)
	require.Empty(t, rest)
	require.Equal(t, "CERTIFICATE", certBlock.Type)
	cert, err := ParseCertificate(certBlock.Bytes)
	require.NoError(t, err)

	require.Zero(t, cert.SerialNumber.Sign())
	emptyName, err := asn1.Marshal(asn1.RawValue{Tag: asn1.TagSequence, IsCompound: true})
	require.NoError(t, err)
	require.Equal(t, emptyName, cert.RawSubject)
	require.Equal(t, emptyName, cert.RawIssuer)
	require.Equal(t, time.Date(1999, time.December, 31, 0, 0, 0, 0, time.UTC), cert.NotBefore)
	require.Equal(t, time.Date(2126, time.March, 4, 5, 6, 7, 0, time.UTC), cert.NotAfter)
	require.Equal(t, x509.KeyUsageDigitalSignature, cert.KeyUsage)
	require.Empty(t, cert.ExtKeyUsage)
	require.True(t, cert.BasicConstraintsValid)
	require.False(t, cert.IsCA)
	require.Equal(t, x509.ECDSAWithSHA256, cert.SignatureAlgorithm)
	require.Equal(t, x509.ECDSA, cert.PublicKeyAlgorithm)
	require.True(t, key.PublicKey.Equal(cert.PublicKey))
	// Self-signed: CheckSignatureFrom would refuse a non-CA parent, so check the signature directly.
	require.NoError(t, cert.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature))

	// Each call makes a new key.
	keyPEM2, _, err := NewCertificate(now)
	require.NoError(t, err)
	require.False(t, bytes.Equal(keyPEM, keyPEM2))
}

func TestNodeIDFromCertIsHashOfWholeDER(t *testing.T) {
	t.Parallel()
	_, certPath := stakerPaths(1)
	der := readCertDER(t, certPath)
	// Any change to the DER, even outside the key, changes the NodeID.
	changed := bytes.Clone(der)
	changed[len(changed)-1] ^= 1
	require.NotEqual(t, NodeIDFromCert(der), NodeIDFromCert(changed))
	require.Equal(t, NodeIDFromCert(der), NodeIDFromCert(bytes.Clone(der)))
}
