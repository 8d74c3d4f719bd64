package storage

import (
	"errors"
	"fmt"
)

// The storage errors are internal: no JSON-RPC client sees them as they are.
// Services map ErrNotFound to their own texts (the index's "not found",
// reference/node-api.md §5.5), and only the operator sees the others, in
// the node's start-up error or its log.
var (
	// ErrNotFound is returned by Get when the key is absent.
	ErrNotFound = errors.New("storage: not found")
	// ErrClosed is returned by every call made after Close has begun.
	ErrClosed = errors.New("storage: database closed")
	// ErrLocked is wrapped by Open when another process (or another DB in
	// this process) holds the database directory's lock.
	ErrLocked = errors.New("storage: database locked")
	// ErrVersion is wrapped by Open when the database's version key is
	// missing, unreadable or newer than this binary understands.
	ErrVersion = errors.New("storage: unsupported database version")
	// ErrEmptyKey is returned when writing the empty key at the database
	// root (a key of length zero once the view's prefix is added): Pebble
	// handles it badly, and no component needs it.
	ErrEmptyKey = errors.New("storage: empty key")
	// ErrBatchDone is returned by a Batch's methods after it was
	// committed or closed.
	ErrBatchDone = errors.New("storage: batch already committed or closed")
)

// lockedError is the operator's message when the directory lock is taken.
// It matches both ErrLocked and the lock's own cause with errors.Is.
type lockedError struct {
	dir   string
	cause error
}

func (e *lockedError) Error() string {
	return fmt.Sprintf("database %s is locked by another process (is another cornice running on this data dir?)", e.dir)
}

func (e *lockedError) Unwrap() []error { return []error{ErrLocked, e.cause} }

// newerVersionError: the database was written by a newer cornice.
func newerVersionError(dir string, got, supported uint64) error {
	return fmt.Errorf("database %s has version %d but this cornice supports up to version %d (upgrade cornice, or use another data dir): %w",
		dir, got, supported, ErrVersion)
}

// badVersionError: the version key exists but is not a version.
func badVersionError(dir string, raw []byte) error {
	return fmt.Errorf("database %s has an unreadable version %q: %w", dir, raw, ErrVersion)
}

// missingVersionError: keys exist but no version key, so this is not a
// cornice database (or it is damaged).
func missingVersionError(dir string) error {
	return fmt.Errorf("database %s holds data but no version key (not a cornice database?): %w", dir, ErrVersion)
}
