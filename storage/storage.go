// Package storage is the node's one Pebble database, with a key prefix per
// component and atomic batches.
//
// A node opens one [DB] at <data-dir>/db. Each component works in its own
// key space through a [View], got from [DB.Prefixed] with its [Prefix]
// (prefixes.go is the one file that allocates prefixes). Writes that must land together, such as a
// block's state and its index entry, go into one [Batch], which every
// component's view can write into ([View.Wrap]).
//
// Concurrency: DB and View are safe for concurrent use. A Batch or an
// Iterator is not; use one per goroutine. Close waits for calls in flight
// and for open iterators; every call made after Close has begun returns
// [ErrClosed].
//
// Durable before visible: no read (Get, Has, or an Iterator, which reads
// the state of the moment it was made) sees a write before the Commit, Put
// or Delete that made it has returned, that is before the write is synced
// to disk; so whatever a reader reports, a crash cannot take back. Pebble
// alone does not promise this: it makes a batch visible to readers once it
// is in the memtable, before its WAL record is synced (commitPipeline in
// Pebble v2.1.7's commit.go), and an API answering from the database could
// then report a write a crash loses. So readers do not read Pebble's live
// state: they read a Pebble snapshot that the DB takes after each synced
// commit and swaps in for the previous one (snapshot.go), with a reference
// count so that the old one is released when its last reader is done.
// Commits exclude one another, so when one has returned nothing Pebble
// holds is undurable. A read never waits for a commit: while one is
// syncing, reads see the state before it, and every read that starts after
// Commit has returned sees its writes. The price is that commits from
// several goroutines do not share one fsync (Pebble's group commit); a
// block's acceptance is one commit, and BenchmarkBatchCommit and vms/evm's
// BenchmarkBuildAccept did not move when commits began to exclude one
// another (commit 55282ef).
//
// The one exception is [Batch.CommitUnsynced], visible before it is
// durable, for writes that a restart may lose because it redoes them (a
// bootstrapping chain's blocks); [DB.Sync] makes them durable.
//
// Live reads: a view from [View.Live] reads Pebble's live state instead,
// for the one place where that is safe and saves the snapshot's reference
// count: code on the goroutine that commits every write of the key space it
// reads (a chain's acceptance pipeline reading its own VM's state). That
// goroutine cannot be reading while one of its own commits is syncing, and
// no other goroutine writes there, so every write it can see is durable.
//
// One answer, one state: each read sees the state published when it starts, so an answer
// made of several reads of keys that one commit changes together (an index, then the records it
// names) can straddle a commit and show half of it. Such an answer reads through one pinned view
// ([View.Pin]), taken once and released when the answer is done; an answer of one read needs no
// pin (docs/decisions.md, "One answer, one state").
//
// Slices: the database never keeps a key or value slice passed to it, so
// the caller may change it as soon as the call returns. Get returns a copy
// that the caller owns. An Iterator's Key and Value are valid only until
// the next call to Next or Close.
//
// Version: the key "version" under [PrefixMeta] holds the database format
// as a decimal integer (currently [Version], 1). Open writes it into a new
// database and refuses a database whose version is newer or unreadable.
package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// dirPerm is the mode of directories Open creates: the database is private
// to the node's user and group.
const dirPerm = 0o750

// DB is the node's Pebble database. Its zero value is not usable; call Open.
type DB struct {
	dir  string
	log  *slog.Logger
	pdb  *pebble.DB
	lock *pebble.Lock
	root *View

	// mu guards closed and the calls to inflight.Add: once closed is set,
	// no call may start, so Close can wait on inflight safely.
	mu     sync.Mutex
	closed bool
	// inflight counts calls in progress and open iterators.
	inflight sync.WaitGroup

	// commitMu makes commits exclude one another (durable before visible,
	// package doc): publish may then take Pebble's state as durable. It is
	// never held with mu, nor across a caller's code; no read takes it.
	commitMu sync.Mutex
	// unsynced is set by a commit made without a sync and cleared by a synced one, whose sync
	// covers every record before it in the log: whether Sync has anything to do. Guarded by
	// commitMu.
	unsynced bool
	// current is the state readers see, replaced after each durable commit.
	current atomic.Pointer[published]
	// afterCommit, when set (by tests only, before any commit), runs inside
	// commit's critical section, after Pebble has applied (and synced) the
	// batch and before readers may see it.
	afterCommit func()
}

// Open opens the database in dir, creating dir (mode 0750) and the
// database if needed. The node passes <data-dir>/db.
//
// If another process already has the database open, Open fails at once,
// without touching the database, with an error that wraps [ErrLocked]; the
// same happens for a second Open of the same dir in one process. A new
// database gets the current [Version]; an existing one must have a version
// this binary understands, or Open fails with an error wrapping
// [ErrVersion].
func Open(dir string, log *slog.Logger) (*DB, error) { return open(dir, log, vfs.Default) }

// open is Open on the file system fs; tests pass one that slows writes.
func open(dir string, log *slog.Logger, fs vfs.FS) (*DB, error) {
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return nil, fmt.Errorf("create database dir: %w", err)
	}
	// Take Pebble's LOCK file ourselves, before Pebble reads anything, so a
	// conflict is recognised and reported plainly.
	lock, err := pebble.LockDirectory(dir, vfs.Default)
	if err != nil {
		if isLockConflict(err) {
			return nil, &lockedError{dir: dir, cause: err}
		}
		return nil, fmt.Errorf("lock database %s: %w", dir, err)
	}
	plog := log.With("lib", "pebble")
	opts := &pebble.Options{
		FS:                 fs,
		Lock:               lock,
		Logger:             pebbleLogger{log: plog},
		EventListener:      eventListener(plog),
		FormatMajorVersion: pebble.FormatNewest,
	}
	// A Bloom filter in every table lets a Get or Has of a key the table lacks skip it without
	// reading its index and data blocks. The VMs look up absent keys on their hot paths: the
	// P-Chain asks whether each tx it is issued is committed already. Tables written before
	// have no filter and are read as before.
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	pdb, err := pebble.Open(dir, opts)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open database %s: %w", dir, err), lock.Close())
	}
	db := &DB{dir: dir, log: log, pdb: pdb, lock: lock}
	db.root = &View{db: db}
	db.current.Store(newPublished(pdb, log))
	if err := db.checkVersion(); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	log.Info("database opened", "dir", dir, "version", Version)
	return db, nil
}

// isLockConflict tells a held lock from other failures to take it. Another
// process's lock shows as the bare errno of fcntl(F_SETLK); failing to
// create the LOCK file is a *fs.PathError and is not a conflict. Pebble
// refuses a second lock in the same process with a plain message (vfs
// file_lock_unix.go in Pebble v2.1.7; TestOpenLockedInProcess pins it).
func isLockConflict(err error) bool {
	if _, ok := errors.AsType[*fs.PathError](err); ok {
		return false
	}
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) ||
		strings.Contains(err.Error(), "lock held by current process")
}

// Dir returns the directory the database lives in.
func (db *DB) Dir() string { return db.dir }

// begin registers a call in flight, or reports that the DB is closed.
// Every successful begin must be matched by one db.inflight.Done.
func (db *DB) begin() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return ErrClosed
	}
	db.inflight.Add(1)
	return nil
}

// commit applies pb and, with opts pebble.Sync, syncs it to disk, then
// publishes the state with its writes to readers, so that no reader sees
// them before they are durable; with pebble.NoSync it publishes them at once
// (Batch.CommitUnsynced). Commits exclude one another, unsynced ones too, so
// that a synced commit's publish still follows its own sync; reads go on
// meanwhile, on the state of the previous commit. The caller owns pb and
// closes it.
func (db *DB) commit(pb *pebble.Batch, opts *pebble.WriteOptions) error {
	db.commitMu.Lock()
	defer db.commitMu.Unlock()
	if err := pb.Commit(opts); err != nil {
		return err
	}
	db.unsynced = !opts.Sync
	if db.afterCommit != nil {
		db.afterCommit()
	}
	db.publish()
	return nil
}

// Sync waits until every commit made so far, unsynced ones included
// (Batch.CommitUnsynced), is on disk: a crash can no longer lose them. It
// returns at once when the last commit was a synced one, which synced the
// log up to it.
func (db *DB) Sync() error {
	if err := db.begin(); err != nil {
		return err
	}
	defer db.inflight.Done()
	db.commitMu.Lock()
	pending := db.unsynced
	db.unsynced = false // an unsynced commit from now on sets it again
	db.commitMu.Unlock()
	if !pending {
		return nil
	}
	// An empty log record written with a sync: the log is synced up to it.
	if err := db.pdb.LogData(nil, pebble.Sync); err != nil {
		db.commitMu.Lock()
		db.unsynced = true
		db.commitMu.Unlock()
		return fmt.Errorf("sync database: %w", err)
	}
	return nil
}

// Unsynced reports whether a commit made without a sync (Batch.CommitUnsynced)
// may not be on disk yet: no Sync or synced commit has followed it.
func (db *DB) Unsynced() bool {
	db.commitMu.Lock()
	defer db.commitMu.Unlock()
	return db.unsynced
}

// write commits, as commit does, a batch of the one write that fn records
// in it: a single-key Put or Delete.
func (db *DB) write(fn func(pb *pebble.Batch) error) error {
	pb := db.pdb.NewBatch()
	defer pb.Close()
	if err := fn(pb); err != nil {
		return err
	}
	return db.commit(pb, pebble.Sync)
}

// get reads key, from pin when it is set (View.Pin), else from the state
// published now or, when live, from Pebble's live state (package doc). It returns whether key is present and, when
// keep is set, a copy of its value that is never nil for a present key.
func (db *DB) get(key []byte, live bool, pin *published, keep bool) ([]byte, bool, error) {
	var r pebble.Reader = db.pdb
	switch {
	case pin != nil:
		r = pin.snap
	case !live:
		p := db.acquire()
		defer p.release()
		r = p.snap
	}
	val, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var out []byte
	if keep {
		out = bytes.Clone(val)
		if out == nil {
			// A stored empty value is present: never hand back nil for it.
			out = []byte{}
		}
	}
	return out, true, closer.Close()
}

// newIter makes a Pebble iterator over pin when it is set, else over the
// state published now, which it returns with a reference taken for the
// iterator's life (the caller releases it), or over the live state, with a
// nil state.
func (db *DB) newIter(opts *pebble.IterOptions, live bool, pin *published) (*pebble.Iterator, *published, error) {
	if live {
		it, err := db.pdb.NewIter(opts)
		return it, nil, err
	}
	p := pin
	if p != nil {
		p.refs.Add(1) // the pinned view holds a reference: refs is above zero
	} else {
		p = db.acquire()
	}
	it, err := p.snap.NewIter(opts)
	if err != nil {
		p.release()
		return nil, nil, err
	}
	return it, p, nil
}

// Close flushes and closes the database and releases its lock. It waits
// for calls in flight and for every open Iterator to be closed, so close
// iterators before Close. Close is idempotent: a second call returns nil.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	db.mu.Unlock()

	db.inflight.Wait()
	// No read is in flight and no iterator open: this drops the last
	// reference to the published state.
	db.current.Load().release()
	err := db.pdb.Flush()
	if errors.Is(err, pebble.ErrReadOnly) {
		err = nil
	}
	// Pebble's Close drops its reference to the lock; ours releases it.
	err = errors.Join(err, db.pdb.Close(), db.lock.Close())
	if err != nil {
		return fmt.Errorf("close database %s: %w", db.dir, err)
	}
	db.log.Info("database closed", "dir", db.dir)
	return nil
}

// Ping checks that the database answers a read, for the health check.
func (db *DB) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := db.meta().Get([]byte(versionKey))
	if err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

// meta is storage's own key space.
func (db *DB) meta() *View { return db.Prefixed(PrefixMeta) }

// Prefixed returns the key space of the component that owns p. It takes a
// Prefix, not bytes, so that every top-level key space is one allocated in
// prefixes.go; split it further with View.Prefixed.
func (db *DB) Prefixed(p Prefix) *View { return db.root.Prefixed(p.Bytes()) }

// Get returns a copy of the value stored at key, which the caller owns, or
// ErrNotFound. It does not keep key.
func (db *DB) Get(key []byte) ([]byte, error) { return db.root.Get(key) }

// Has reports whether key is present. It does not keep key.
func (db *DB) Has(key []byte) (bool, error) { return db.root.Has(key) }

// Put stores value at key and syncs it to disk before returning. It does
// not keep key or value.
func (db *DB) Put(key, value []byte) error { return db.root.Put(key, value) }

// Delete removes key, synced; deleting an absent key is not an error. It
// does not keep key.
func (db *DB) Delete(key []byte) error { return db.root.Delete(key) }

// NewBatch returns an empty batch over the whole key space.
func (db *DB) NewBatch() *Batch { return db.root.NewBatch() }

// NewIterator iterates, in key order, over the keys that start with prefix,
// beginning at prefix+start. See [View.NewIterator].
func (db *DB) NewIterator(prefix, start []byte) (*Iterator, error) {
	return db.root.NewIterator(prefix, start)
}
