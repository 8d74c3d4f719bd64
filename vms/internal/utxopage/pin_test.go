package utxopage

import (
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains/atomic"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/storage/storagetest"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/internal/chainstate"
)

// pinMoves is how many times TestServeReadsOneState moves its one UTXO from an address to the
// other. Without the pin, the readers running alongside were torn within the first hundred.
const pinMoves = 1000

// storedChain is fakeChain with its own UTXOs in a database, read as the P- and X-Chains read
// theirs (a chainstate.Reader).
type storedChain struct {
	fakeChain
	own Index
}

func (c storedChain) UTXOs(source string) (Index, error) {
	if source == "" {
		return c.own, nil
	}
	return Atomic(c.lookup, c.shared, source)
}

// A page reads the owners' index and the UTXOs it names from one state, for a chain's own UTXOs
// and for the atomic ones another chain exported: while one UTXO moves from A1 to A2 and back
// (a tx spending it and paying its owner's other address), a page of both addresses always lists
// exactly one, never the spent one beside the one its tx made, nor neither. Commits are unsynced
// (published at once) so that many land while the readers run; the number of moves bounds the
// test, not a clock.
func TestServeReadsOneState(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	self := ids.ID{'z'}
	mem := atomic.New(db.Prefixed(storage.PrefixAtomic))
	own := chainstate.NewReader(db.Prefixed(storage.PrefixExchange), nil, chainstate.Format[struct{}, struct{}, struct{}]{})
	c := storedChain{fakeChain: fakeChain{shared: mem.For(self), lookup: newRegistry(t)}, own: Own(own)}

	addrs := [2]ids.ShortID{{1}, {2}}
	utxo := func(i int) (ids.ID, ids.ShortID) { return ids.ID{byte(i), byte(i >> 8), 1}, addrs[i%2] }
	move := func(i int) error { // UTXO i-1 is spent, UTXO i made, in one batch
		b := db.NewBatch()
		defer b.Close()
		id, owner := utxo(i)
		put := []atomic.Element{{Key: id, Value: []byte{1}, Traits: []ids.ShortID{owner}}}
		var remove []ids.ID
		if i > 0 {
			prev, prevOwner := utxo(i - 1)
			if err := chainstate.DeleteUTXO(own.DB().Wrap(b), prev, []ids.ShortID{prevOwner}); err != nil {
				return err
			}
			remove = []ids.ID{prev}
		}
		if err := chainstate.PutUTXO(own.DB().Wrap(b), id, []byte{1}, []ids.ShortID{owner}); err != nil {
			return err
		}
		// The source chain exports the new one and this chain imports the old one.
		if err := mem.For(source).Apply(b, map[ids.ID]*atomic.Requests{self: {Put: put}}); err != nil {
			return err
		}
		if err := mem.For(self).Apply(b, map[ids.ID]*atomic.Requests{source: {Remove: remove}}); err != nil {
			return err
		}
		return b.CommitUnsynced()
	}
	require.NoError(t, move(0))

	page := func(sourceChain string) func() error {
		args := &chainapi.GetUTXOsArgs{Addresses: []string{"A1", "A2"}, SourceChain: sourceChain, Encoding: ids.HexNC}
		return func() error {
			reply, err := Serve(t.Context(), c, args)
			switch {
			case err != nil:
				return fmt.Errorf("source %q: %w", sourceChain, err)
			case len(reply.UTXOs) != 1:
				return fmt.Errorf("source %q: %d UTXOs in a page of both owners", sourceChain, len(reply.UTXOs))
			}
			return nil
		}
	}
	storagetest.ReadsWhole(t, pinMoves, func(i int) { require.NoError(t, move(i)) }, page(""), page("S"))
}
