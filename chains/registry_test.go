package chains

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/ids/idstest"
	"github.com/cornice-node/cornice/storage"
)

// Chain IDs of the local network (node-api.md §3.3).
var (
	pID = ids.Empty
	xID = idstest.XChainID
	cID = idstest.CChainID
	// A subnet chain with no built-in alias.
	lID = ids.FromName("an L1 chain")
)

// testDB opens a database in dir, closed at cleanup.
func testDB(t *testing.T, dir string) *storage.DB {
	t.Helper()
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

func testRegistry(t *testing.T, db *storage.DB) *Registry {
	t.Helper()
	r, err := NewRegistry(db.Prefixed(storage.PrefixChains), slog.New(slog.NewTextHandler(t.Output(), nil)))
	require.NoError(t, err)
	return r
}

// primaryNetwork returns a registry set up as the node does at start-up:
// P, X and C pre-aliased, only P registered.
func primaryNetwork(t *testing.T) *Registry {
	t.Helper()
	r := testRegistry(t, testDB(t, filepath.Join(t.TempDir(), "db")))
	require.NoError(t, r.PreAlias(pID, "P", "platform"))
	require.NoError(t, r.PreAlias(xID, "X", "avm"))
	require.NoError(t, r.PreAlias(cID, "C", "evm"))
	require.NoError(t, r.Register(Chain{ID: pID, Name: "P-Chain"}))
	return r
}

func TestLookup(t *testing.T) {
	t.Parallel()
	r := primaryNetwork(t)
	tests := []struct {
		alias   string
		want    ids.ID
		wantErr string
	}{
		{alias: "P", want: pID},
		{alias: "platform", want: pID},
		{alias: "11111111111111111111111111111111LpoYY", want: pID},
		{alias: "X", want: xID},
		{alias: "avm", want: xID},
		{alias: "C", want: cID},
		{alias: "evm", want: cID},
		// X is not registered, so its ID string is no alias yet (§3.2).
		{alias: xID.String(), wantErr: "there is no ID with alias: " + xID.String()},
		{alias: "p", wantErr: "there is no ID with alias: p"},
		{alias: "", wantErr: "there is no ID with alias: "},
	}
	for _, tt := range tests {
		t.Run(tt.alias, func(t *testing.T) {
			t.Parallel()
			got, err := r.Lookup(tt.alias)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrNoIDWithAlias)
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestAliasesOrder(t *testing.T) {
	t.Parallel()
	r := primaryNetwork(t)
	require.NoError(t, r.Register(Chain{ID: lID, Name: "L1"}))

	tests := []struct {
		name        string
		id          ids.ID
		want        []string
		wantPrimary string
	}{
		{"registered after pre-alias", pID, []string{"P", "platform", pID.String()}, "P"},
		{"pre-aliased only", xID, []string{"X", "avm"}, "X"},
		{"registered without alias", lID, []string{lID.String()}, lID.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := r.Aliases(tt.id)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			primary, err := r.PrimaryAlias(tt.id)
			require.NoError(t, err)
			require.Equal(t, tt.wantPrimary, primary)
		})
	}

	// Aliases returns a copy.
	got, err := r.Aliases(pID)
	require.NoError(t, err)
	got[0] = "changed"
	primary, err := r.PrimaryAlias(pID)
	require.NoError(t, err)
	require.Equal(t, "P", primary)

	unknown := ids.FromName("unknown")
	got, err = r.Aliases(unknown)
	require.NoError(t, err)
	require.NotNil(t, got)
	require.Empty(t, got)
	_, err = r.PrimaryAlias(unknown)
	require.ErrorIs(t, err, ErrNoAliasForID)
	require.EqualError(t, err, "there is no alias for ID: "+unknown.String())
}

func TestRegisterWithAliases(t *testing.T) {
	t.Parallel()
	r := testRegistry(t, testDB(t, filepath.Join(t.TempDir(), "db")))
	require.NoError(t, r.PreAlias(cID, "C"))
	// Given aliases follow the pre-aliases, then the ID string; one
	// already given to the same chain is skipped.
	require.NoError(t, r.Register(Chain{ID: cID}, "C", "evm", "evm"))
	got, err := r.Aliases(cID)
	require.NoError(t, err)
	require.Equal(t, []string{"C", "evm", cID.String()}, got)
	require.NoError(t, r.PreAlias(cID, cID.String(), "C"), "pre-aliasing what a chain has is a no-op")

	err = r.Register(Chain{ID: cID})
	require.ErrorIs(t, err, ErrRegistered)

	// A failed Register changes nothing.
	tests := []struct {
		name    string
		aliases []string
		wantErr error
		wantMsg string
	}{
		{"alias of another chain", []string{"new", "C"}, ErrAliasInUse, "alias already mapped to an ID: C"},
		{"another chain's ID string", []string{"new", xID.String()}, ErrAliasIsID, "alias cannot be an ID string: " + xID.String()},
		{"empty alias", []string{"new", ""}, ErrEmptyAlias, "alias cannot be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Register(Chain{ID: lID}, tt.aliases...)
			require.ErrorIs(t, err, tt.wantErr)
			require.EqualError(t, err, tt.wantMsg)
			_, ok := r.Chain(lID)
			require.False(t, ok)
			_, err = r.Lookup("new")
			require.ErrorIs(t, err, ErrNoIDWithAlias)
			_, err = r.Lookup(lID.String())
			require.ErrorIs(t, err, ErrNoIDWithAlias)

			err = r.PreAlias(lID, tt.aliases...)
			require.ErrorIs(t, err, tt.wantErr)
			_, err = r.Lookup("new")
			require.ErrorIs(t, err, ErrNoIDWithAlias)
		})
	}
}

func TestAlias(t *testing.T) {
	t.Parallel()
	r := primaryNetwork(t)
	require.NoError(t, r.Alias(pID, "pchain"))
	require.NoError(t, r.Alias(xID, "exchange"), "the chain need not be registered")
	got, err := r.Lookup("exchange")
	require.NoError(t, err)
	require.Equal(t, xID, got)
	aliases, err := r.Aliases(pID)
	require.NoError(t, err)
	require.Equal(t, []string{"P", "platform", pID.String(), "pchain"}, aliases)

	tests := []struct {
		name    string
		id      ids.ID
		alias   string
		wantErr error
		wantMsg string
	}{
		{"same chain's alias", pID, "P", ErrAliasInUse, "alias already mapped to an ID: P"},
		{"another chain's alias", pID, "C", ErrAliasInUse, "alias already mapped to an ID: C"},
		{"added alias", cID, "pchain", ErrAliasInUse, "alias already mapped to an ID: pchain"},
		{"registered ID string", pID, pID.String(), ErrAliasInUse, "alias already mapped to an ID: " + pID.String()},
		{"own ID string before register", xID, xID.String(), ErrAliasIsID, "alias cannot be an ID string: " + xID.String()},
		{"another ID string", pID, cID.String(), ErrAliasIsID, "alias cannot be an ID string: " + cID.String()},
		{"empty", pID, "", ErrEmptyAlias, "alias cannot be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := r.Alias(tt.id, tt.alias)
			require.ErrorIs(t, err, tt.wantErr)
			require.EqualError(t, err, tt.wantMsg)
		})
	}
}

func TestAliasPersists(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "db")
	db, err := storage.Open(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	r := testRegistry(t, db)
	require.NoError(t, r.PreAlias(pID, "P", "platform"))
	// Added out of alphabetical order: order must survive the restart.
	require.NoError(t, r.Alias(lID, "zebra"))
	require.NoError(t, r.Alias(lID, "apple"))
	require.NoError(t, r.Alias(pID, "pchain"))
	require.NoError(t, db.Close())

	db = testDB(t, dir)
	r = testRegistry(t, db)
	// Persisted aliases resolve before the node sets up anything else.
	got, err := r.Lookup("zebra")
	require.NoError(t, err)
	require.Equal(t, lID, got)
	primary, err := r.PrimaryAlias(lID)
	require.NoError(t, err)
	require.Equal(t, "zebra", primary)
	_, err = r.Lookup("P")
	require.ErrorIs(t, err, ErrNoIDWithAlias, "pre-aliases are not persisted")

	// The node's start-up aliases come first again.
	require.NoError(t, r.PreAlias(pID, "P", "platform"))
	require.NoError(t, r.Register(Chain{ID: pID}))
	require.NoError(t, r.Register(Chain{ID: lID}))
	require.NoError(t, r.Alias(lID, "mango"))
	for id, want := range map[ids.ID][]string{
		pID: {"P", "platform", pID.String(), "pchain"},
		lID: {lID.String(), "zebra", "apple", "mango"},
	} {
		aliases, err := r.Aliases(id)
		require.NoError(t, err)
		require.Equal(t, want, aliases)
	}

	// And once more: the new alias kept its place after the old ones.
	require.NoError(t, db.Close())
	r = testRegistry(t, testDB(t, dir))
	aliases, err := r.Aliases(lID)
	require.NoError(t, err)
	require.Equal(t, []string{"zebra", "apple", "mango"}, aliases)
}

func TestAliasNotPersistedNotAdded(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(filepath.Join(t.TempDir(), "db"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	r := testRegistry(t, db)
	require.NoError(t, db.Close())
	err = r.Alias(pID, "late")
	require.ErrorIs(t, err, storage.ErrClosed)
	_, err = r.Lookup("late")
	require.ErrorIs(t, err, ErrNoIDWithAlias)
}

func TestLoadRejectsCorruptRecord(t *testing.T) {
	t.Parallel()
	db := testDB(t, filepath.Join(t.TempDir(), "db"))
	require.NoError(t, db.Prefixed(storage.PrefixChains).Put(aliasKey("bad"), []byte("short")))
	_, err := NewRegistry(db.Prefixed(storage.PrefixChains), slog.New(slog.DiscardHandler))
	require.ErrorIs(t, err, errBadAliasRecord)
}

func TestStates(t *testing.T) {
	t.Parallel()
	r := primaryNetwork(t)

	// P is registered, X only pre-aliased, the rest unknown.
	state, ok := r.State(pID)
	require.True(t, ok)
	require.Equal(t, Created, state)
	_, ok = r.State(xID)
	require.False(t, ok)

	err := r.SetState(xID, Bootstrapping)
	require.ErrorIs(t, err, ErrNoChain)
	require.EqualError(t, err, "there is no chain with alias/ID '"+xID.String()+"'")

	check := func(chain string, want bool, wantErr string) {
		t.Helper()
		got, err := r.IsBootstrapped(chain)
		if wantErr != "" {
			require.ErrorIs(t, err, ErrNoChain)
			require.EqualError(t, err, wantErr)
			return
		}
		require.NoError(t, err)
		require.Equal(t, want, got, chain)
	}
	for _, s := range []State{Created, Bootstrapping} {
		require.NoError(t, r.SetState(pID, s))
		check("P", false, "")
		check(pID.String(), false, "")
	}
	require.NoError(t, r.SetState(pID, NormalOperation))
	check("P", true, "")
	check("platform", true, "")
	check(pID.String(), true, "")
	state, ok = r.State(pID)
	require.True(t, ok)
	require.Equal(t, NormalOperation, state)

	check("X", false, "") // an alias whose chain does not exist yet
	check(xID.String(), false, "there is no chain with alias/ID '"+xID.String()+"'")
	check("nope", false, "there is no chain with alias/ID 'nope'")
	check("", false, "there is no chain with alias/ID ''")
	check("<&>", false, "there is no chain with alias/ID '<&>'")

	require.NoError(t, r.Register(Chain{ID: xID}))
	check("X", false, "")
	check(xID.String(), false, "")
	require.NoError(t, r.SetState(xID, NormalOperation))
	check("avm", true, "")
}

func TestStateString(t *testing.T) {
	t.Parallel()
	for s, want := range map[State]string{
		Created:         "Created",
		Bootstrapping:   "Bootstrapping",
		NormalOperation: "NormalOperation",
		7:               "State(7)",
	} {
		require.Equal(t, want, s.String())
	}
}

func TestChainsAndOnRegister(t *testing.T) {
	t.Parallel()
	r := primaryNetwork(t)
	p := Chain{ID: pID, Name: "P-Chain"}
	x := Chain{ID: xID, SubnetID: ids.Empty, VMID: ids.FromName("avm"), Name: "X-Chain"}
	c := Chain{ID: cID, VMID: ids.FromName("evm"), Name: "C-Chain"}

	var mu sync.Mutex
	var early, late []string
	// A subscriber may call back into the registry, as the router does to
	// learn a chain's aliases.
	r.OnRegister(func(ch Chain) {
		alias, err := r.PrimaryAlias(ch.ID)
		require.NoError(t, err)
		mu.Lock()
		defer mu.Unlock()
		early = append(early, alias)
	})
	require.NoError(t, r.Register(x))
	r.OnRegister(func(ch Chain) {
		mu.Lock()
		defer mu.Unlock()
		late = append(late, ch.Name)
	})
	require.NoError(t, r.Register(c))

	require.Equal(t, []string{"P", "X", "C"}, early)
	require.Equal(t, []string{"P-Chain", "X-Chain", "C-Chain"}, late)
	require.Equal(t, []Chain{p, x, c}, r.Chains())
	got, ok := r.Chain(xID)
	require.True(t, ok)
	require.Equal(t, x, got)
	_, ok = r.Chain(lID)
	require.False(t, ok)
}

// TestConcurrent runs every method at once; run it with -race.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	r := primaryNetwork(t)
	var seen sync.Map
	r.OnRegister(func(c Chain) {
		_, dup := seen.LoadOrStore(c.ID, true)
		if dup {
			t.Errorf("chain %s delivered twice", c.ID)
		}
	})
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		id := ids.FromName(fmt.Sprint("chain ", i))
		wg.Go(func() {
			if err := r.Register(Chain{ID: id}, fmt.Sprint("c", i)); err != nil {
				t.Error(err)
			}
			if err := r.SetState(id, NormalOperation); err != nil {
				t.Error(err)
			}
			if err := r.Alias(id, fmt.Sprint("user", i)); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() {
			for range 50 {
				_, _ = r.Lookup(fmt.Sprint("c", i))
				_, _ = r.IsBootstrapped(id.String())
				_, _ = r.Aliases(id)
				_ = r.Chains()
			}
		})
	}
	wg.Wait()
	require.Len(t, r.Chains(), n+1)
	for i := range n {
		id := ids.FromName(fmt.Sprint("chain ", i))
		aliases, err := r.Aliases(id)
		require.NoError(t, err)
		require.Equal(t, []string{fmt.Sprint("c", i), id.String(), fmt.Sprint("user", i)}, aliases)
		ok, err := r.IsBootstrapped(fmt.Sprint("user", i))
		require.NoError(t, err)
		require.True(t, ok)
	}
	count := 0
	seen.Range(func(any, any) bool { count++; return true })
	require.Equal(t, n+1, count)
	require.True(t, slices.ContainsFunc(r.Chains(), func(c Chain) bool { return c.ID == pID }))
}
