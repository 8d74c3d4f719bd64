package network

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
)

// tlsConfig is the TLS configuration of both directions (§1.1): TLS 1.3, this node's staking
// certificate, a certificate required from the other side, no CA and no host name (identity is
// the key), and only the keys the reference accepts.
func tlsConfig(cert *tls.Certificate) *tls.Config {
	return dialTLSConfig(cert, ids.EmptyNodeID)
}

// dialTLSConfig is tlsConfig for dialling the node want (any node when empty): a server with
// another certificate fails the TLS handshake before the client finishes it, so the node that
// took the connection (another one now at a dialled address) never counts it as a peer.
func dialTLSConfig(cert *tls.Certificate, want ids.NodeID) *tls.Config {
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
			if got := staking.NodeIDFromCert(rawCerts[0]); want != ids.EmptyNodeID && got != want {
				return fmt.Errorf("%w: %s, want %s", errWrongNode, got, want)
			}
			return nil
		},
	}
}
