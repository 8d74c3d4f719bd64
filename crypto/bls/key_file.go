package bls

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// File permissions of a generated signer key (node-api.md §4.3).
const (
	keyDirPerm  fs.FileMode = 0o750
	keyFilePerm fs.FileMode = 0o400
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
	if err := writeKeyFile(path, sk.Bytes()); err != nil {
		return nil, writeKeyError(path, err)
	}
	return sk, nil
}

// writeKeyFile writes b to path through a temporary file in the same directory and a rename, so a
// crash leaves either no key file (a new key is generated on the next start) or the whole key,
// never a truncated one.
func writeKeyFile(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, keyDirPerm); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(keyFilePerm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
