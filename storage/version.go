package storage

import (
	"errors"
	"fmt"
	"strconv"
)

// Version is the database format this binary writes. It is stored as a
// decimal integer at "version" under PrefixMeta. Bump it when the layout of
// any component changes incompatibly, and teach Open to migrate from the
// older versions it still accepts.
const Version uint64 = 1

// minVersion is the oldest format this binary can open.
const minVersion uint64 = 1

// checkVersion writes Version into a new database and checks the version
// of an existing one. A crash before the version is synced leaves an empty
// database (nothing is written before the version), which is new again on
// the next Open.
func (db *DB) checkVersion() error {
	meta := db.meta()
	raw, err := meta.Get([]byte(versionKey))
	switch {
	case errors.Is(err, ErrNotFound):
		empty, err := db.empty()
		if err != nil {
			return err
		}
		if !empty {
			return missingVersionError(db.dir)
		}
		if err := meta.Put([]byte(versionKey), encodeVersion(Version)); err != nil {
			return fmt.Errorf("write database version: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("read database version: %w", err)
	}
	v, err := decodeVersion(raw)
	if err != nil || v < minVersion {
		return badVersionError(db.dir, raw)
	}
	if v > Version {
		return newerVersionError(db.dir, v, Version)
	}
	return nil
}

// empty reports whether the database holds no key at all.
func (db *DB) empty() (bool, error) {
	it, err := db.NewIterator(nil, nil)
	if err != nil {
		return false, err
	}
	has := it.Next()
	return !has, errors.Join(it.Err(), it.Close())
}

// encodeVersion returns v in the stored form: decimal ASCII.
func encodeVersion(v uint64) []byte { return strconv.AppendUint(nil, v, 10) }

// decodeVersion parses the stored form strictly: decimal digits only, no
// sign, no leading zeros, so that encodeVersion(decodeVersion(b)) == b.
func decodeVersion(b []byte) (uint64, error) {
	if len(b) == 0 || (b[0] == '0' && len(b) > 1) {
		return 0, fmt.Errorf("malformed version %q", b)
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("malformed version %q", b)
		}
	}
	v, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("malformed version %q: %w", b, err)
	}
	return v, nil
}
