package evm

import (
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/triedb"
)

// hashStateDB is go-ethereum's state database for the hash scheme with a
// lighter Commit. go-ethereum's MPTDatabase.Commit also encodes every
// changed account and slot in the flat format of its snapshot tree and its
// path scheme, then hands them to the trie database, whose hash scheme
// (the archive this chain runs, DESIGN.md decision 1) drops them: about a
// twentieth of a 1-transaction block's CPU. This Commit does the rest of
// what go-ethereum's does: the new contract code into the code database,
// the trie nodes into the trie database.
type hashStateDB struct {
	*state.MPTDatabase
	codes *state.CodeDB
}

var _ state.Database = hashStateDB{}

// newHashStateDB returns the state database over tdb, which must use the
// hash scheme, with contract code in disk.
func newHashStateDB(tdb *triedb.Database, disk ethdb.KeyValueStore) hashStateDB {
	codes := state.NewCodeDB(disk)
	return hashStateDB{MPTDatabase: state.NewMPTDatabase(tdb, codes), codes: codes}
}

// Commit implements state.Database.
func (db hashStateDB) Commit(update *state.StateUpdate) error {
	if update.Empty() {
		return nil
	}
	if len(update.Codes) > 0 {
		batch := db.codes.NewBatchWithSize(len(update.Codes))
		for _, code := range update.Codes {
			batch.Put(code.Hash, code.Blob)
		}
		if err := batch.Commit(); err != nil {
			return err
		}
	}
	// The hash scheme ignores the flat state set.
	return db.TrieDB().Update(update.Root, update.OriginRoot, update.BlockNumber, update.Nodes, nil)
}
