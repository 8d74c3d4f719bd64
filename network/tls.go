package network

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/crypto/staking"
)

// tlsConfig is the TLS configuration of both directions (§1.1): TLS 1.3, this node's staking
// certificate, a certificate required from the other side, no CA and no host name (identity is
// the key), and only the keys the reference accepts.
func tlsConfig(cert *tls.Certificate) *tls.Config {
	return &tls.Config{
		Certificates:       []tls.Certificate{*cert},
		ClientAuth:         tls.RequireAnyClientCert,
		InsecureSkipVerify: true, //nolint:gosec // peers are identified by their key, not a CA (§1.1)
		MinVersion:         tls.VersionTLS13,
		VerifyPeerCertificate: func(rawCerts [][]byte, _ [][]*x509.Certificate) error {
			if len(rawCerts) == 0 {
				return errors.New("no certificate")
			}
			if _, err := staking.ParseCertificate(rawCerts[0]); err != nil {
				return fmt.Errorf("peer certificate: %w", err)
			}
			return nil
		},
	}
}
