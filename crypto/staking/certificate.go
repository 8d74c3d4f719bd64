package staking

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"

	"github.com/cornice-node/cornice/ids"
	//lint:ignore SA1019 the NodeID format is defined with RIPEMD-160 (node-api.md §4.1).
	"golang.org/x/crypto/ripemd160"
)

// PEM block types of the staking files (node-api.md §4.2).
const (
	keyPEMType  = "PRIVATE KEY"
	certPEMType = "CERTIFICATE"
)

// certValidYears is how long a generated certificate is valid, counted from its creation.
const certValidYears = 100

// certNotBefore is the NotBefore of every generated certificate: the reference node writes
// 2000-01-00, which normalises to 1999-12-31 (node-api.md §4.2).
var certNotBefore = time.Date(1999, time.December, 31, 0, 0, 0, 0, time.UTC)

// NodeIDFromCert returns RIPEMD-160(SHA-256(der)), the NodeID of the node whose certificate has the
// DER bytes der: the whole certificate, exactly as sent in the TLS handshake (node-api.md §4.1).
func NodeIDFromCert(der []byte) ids.NodeID {
	sum := sha256.Sum256(der)
	h := ripemd160.New()
	h.Write(sum[:])
	var id ids.NodeID
	h.Sum(id[:0])
	return id
}

// NewCertificate generates a staking key and certificate in the reference node's form
// (node-api.md §4.2): an ECDSA P-256 key as a PEM "PRIVATE KEY" block (PKCS #8), and a self-signed
// "CERTIFICATE" with serial number 0, empty subject and issuer, valid from 1999-12-31T00:00:00Z to
// now plus 100 years, for digital signatures only, marked as not a CA, signed with ECDSA-SHA256.
func NewCertificate(now time.Time) (keyPEM, certPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate staking key: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("marshal staking key: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(0),
		NotBefore:             certNotBefore,
		NotAfter:              now.AddDate(certValidYears, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		SignatureAlgorithm:    x509.ECDSAWithSHA256,
	}
	certDER, err := x509.CreateCertificate(rand.Reader, template, template, key.Public(), key)
	if err != nil {
		return nil, nil, fmt.Errorf("create staking certificate: %w", err)
	}
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: keyPEMType, Bytes: keyDER})
	certPEM = pem.EncodeToMemory(&pem.Block{Type: certPEMType, Bytes: certDER})
	return keyPEM, certPEM, nil
}
