package staking

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/cornice-node/cornice/crypto/internal/keyfile"

	"github.com/cornice-node/cornice/clock"
)

// LoadOrGenerate returns the staking key pair stored at keyPath and certPath, with Leaf set.
//
// When generate is true and the key file does not exist, a new pair is made with NewCertificate at
// clk.Now() and written first (directories 0750, files 0400). When generate is false, a missing file
// fails with "couldn't find staking key at <path>" or "couldn't find staking certificate at <path>"
// (node-api.md §4.2). The certificate must pass ParseCertificate. The key may be PKCS #1, PKCS #8 or SEC 1 PEM, as the local stakers' RSA keys
// are PKCS #1.
func LoadOrGenerate(keyPath, certPath string, generate bool, clk clock.Clock) (*tls.Certificate, error) {
	keyExists, err := exists(keyPath)
	if err != nil {
		return nil, fmt.Errorf("check staking key at %s: %w", keyPath, err)
	}
	if generate && !keyExists {
		if err := generateFiles(keyPath, certPath, clk); err != nil {
			return nil, err
		}
	} else {
		if !keyExists {
			return nil, missingKeyError(keyPath)
		}
		certExists, err := exists(certPath)
		if err != nil {
			return nil, fmt.Errorf("check staking certificate at %s: %w", certPath, err)
		}
		if !certExists {
			return nil, missingCertError(certPath)
		}
	}

	keyPEM, err := os.ReadFile(keyPath)
	if err != nil {
		return nil, fmt.Errorf("read staking key: %w", err)
	}
	certPEM, err := os.ReadFile(certPath)
	if err != nil {
		return nil, fmt.Errorf("read staking certificate: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("load staking key pair %s, %s: %w", keyPath, certPath, err)
	}
	// Peers apply ParseCertificate's rules to this certificate, so check them here too.
	leaf, err := ParseCertificate(cert.Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("parse staking certificate %s: %w", certPath, err)
	}
	cert.Leaf = leaf
	return &cert, nil
}

// generateFiles writes a new key pair. The certificate is written before the key: the key file's
// existence is what marks the pair as generated, so a crash in between leaves no key and the next
// start generates both again, rather than a key with no certificate.
func generateFiles(keyPath, certPath string, clk clock.Clock) error {
	keyPEM, certPEM, err := NewCertificate(clk.Now())
	if err != nil {
		return err
	}
	if err := keyfile.Write(certPath, certPEM); err != nil {
		return fmt.Errorf("write staking certificate to %s: %w", certPath, err)
	}
	if err := keyfile.Write(keyPath, keyPEM); err != nil {
		return fmt.Errorf("write staking key to %s: %w", keyPath, err)
	}
	return nil
}

// exists reports whether path exists.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	default:
		return false, err
	}
}
