package bls

import (
	"errors"
	"io/fs"
	"os"

	"github.com/cornice-node/cornice/crypto/internal/keyfile"
)

// LoadOrGenerateSecretKey reads the raw 32-byte secret key at path. If the file does not exist and
// generate is true, it generates a key and writes it there (directories 0750, file 0400) before
// returning it. If generate is false, a missing file fails with "could not read signing key from
// <path>: …" (node-api.md §4.3).
func LoadOrGenerateSecretKey(path string, generate bool) (*SecretKey, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		sk, err := SecretKeyFromBytes(b)
		clear(b)
		if err != nil {
			return nil, parseKeyError(path, err)
		}
		return sk, nil
	case !generate || !errors.Is(err, fs.ErrNotExist):
		return nil, readKeyError(path, err)
	}

	sk, err := NewSecretKey()
	if err != nil {
		return nil, err
	}
	if err := keyfile.Write(path, sk.Bytes()); err != nil {
		return nil, writeKeyError(path, err)
	}
	return sk, nil
}
