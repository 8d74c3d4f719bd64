package admin_test

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/admin"
	"github.com/cornice-node/cornice/api/admin/admintest"
	"github.com/cornice-node/cornice/ids"
)

var (
	chainP = ids.ID{}
	chainX = ids.ID{0xaa}

	errNoChain   = errors.New("there is no ID with alias")
	errTaken     = errors.New("alias already mapped")
	errRouteFail = errors.New("api: route already exists")
)

// registry is a small in-memory chain registry built on the admintest fakes.
type registry struct {
	mu      sync.Mutex
	aliases map[ids.ID][]string
	routed  []string // "id/alias" pairs passed to AliasChainRoutes
	// routeErr, when set, makes AliasChainRoutes fail.
	routeErr error
}

func newRegistry() *registry {
	return &registry{aliases: map[ids.ID][]string{
		chainP: {"P", "platform"},
		chainX: {"X", "avm"},
	}}
}

func (r *registry) fakes() (*admintest.Chains, *admintest.Routes) {
	lookup := func(alias string) (ids.ID, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		for id, as := range r.aliases {
			if alias == id.String() || slices.Contains(as, alias) {
				return id, nil
			}
		}
		return ids.ID{}, fmt.Errorf("%w: %s", errNoChain, alias)
	}
	chains := &admintest.Chains{
		LookupF: lookup,
		AliasF: func(id ids.ID, alias string) error {
			if _, err := lookup(alias); err == nil {
				return fmt.Errorf("%w: %s", errTaken, alias)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			r.aliases[id] = append(r.aliases[id], alias)
			return nil
		},
		AliasesF: func(id ids.ID) ([]string, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			return slices.Clone(r.aliases[id]), nil
		},
	}
	routes := &admintest.Routes{AliasChainRoutesF: func(id ids.ID, alias string) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.routeErr != nil {
			return r.routeErr
		}
		r.routed = append(r.routed, id.String()+"/"+alias)
		return nil
	}}
	return chains, routes
}

func TestAliasChain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        admin.AliasChainArgs
		routeErr    error
		wantErr     error
		wantAliases []string // of chainX afterwards
		wantRouted  []string
	}{
		{
			name:        "by alias",
			args:        admin.AliasChainArgs{Chain: "X", Alias: "myX"},
			wantAliases: []string{"X", "avm", "myX"},
			wantRouted:  []string{chainX.String() + "/myX"},
		},
		{
			name:        "by id",
			args:        admin.AliasChainArgs{Chain: chainX.String(), Alias: "other"},
			wantAliases: []string{"X", "avm", "other"},
			wantRouted:  []string{chainX.String() + "/other"},
		},
		{name: "no chain", args: admin.AliasChainArgs{Alias: "a"}, wantErr: admin.ErrChainNotGiven},
		{name: "no alias", args: admin.AliasChainArgs{Chain: "X"}, wantErr: admin.ErrAliasNotGiven},
		{name: "too long", args: admin.AliasChainArgs{Chain: "X", Alias: strings.Repeat("a", admin.MaxAliasLength+1)}, wantErr: admin.ErrAliasTooLong},
		{name: "slash", args: admin.AliasChainArgs{Chain: "X", Alias: "a/b"}, wantErr: admin.ErrAliasNotPathSegment},
		{name: "dot dot", args: admin.AliasChainArgs{Chain: "X", Alias: ".."}, wantErr: admin.ErrAliasNotPathSegment},
		{name: "unknown chain", args: admin.AliasChainArgs{Chain: "Q", Alias: "a"}, wantErr: errNoChain},
		{name: "alias taken", args: admin.AliasChainArgs{Chain: "X", Alias: "P"}, wantErr: errTaken},
		{name: "route fails", args: admin.AliasChainArgs{Chain: "X", Alias: "r"}, routeErr: errRouteFail, wantErr: errRouteFail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg := newRegistry()
			reg.routeErr = tt.routeErr
			chains, routes := reg.fakes()
			svc := admin.New(chains, routes, slog.New(slog.DiscardHandler))
			reply, err := svc.AliasChain(t.Context(), &tt.args)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				require.Nil(t, reply)
				require.Empty(t, reg.routed)
				return
			}
			require.NoError(t, err)
			require.Equal(t, &admin.EmptyReply{}, reply)
			require.Equal(t, tt.wantAliases, reg.aliases[chainX])
			require.Equal(t, tt.wantRouted, reg.routed)
		})
	}
	// The longest alias allowed is accepted.
	chains, routes := newRegistry().fakes()
	_, err := admin.New(chains, routes, slog.New(slog.DiscardHandler)).AliasChain(t.Context(), &admin.AliasChainArgs{Chain: "P", Alias: strings.Repeat("a", admin.MaxAliasLength)})
	require.NoError(t, err)
}

func TestGetChainAliases(t *testing.T) {
	t.Parallel()
	unknownID := ids.ID{0x55}
	tests := []struct {
		name    string
		chain   string
		want    []string
		wantErr error
	}{
		{name: "by id", chain: chainX.String(), want: []string{"X", "avm"}},
		{name: "by alias", chain: "platform", want: []string{"P", "platform"}},
		// An ID is used as given, as in the reference: a chain not created yet has no aliases.
		{name: "unknown id", chain: unknownID.String(), want: []string{}},
		{name: "unknown alias", chain: "nope", wantErr: errNoChain},
		{name: "empty", chain: "", wantErr: admin.ErrChainNotGiven},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			chains, routes := newRegistry().fakes()
			svc := admin.New(chains, routes, slog.New(slog.DiscardHandler))
			reply, err := svc.GetChainAliases(t.Context(), &admin.GetChainAliasesArgs{Chain: tt.chain})
			require.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr != nil {
				return
			}
			require.Equal(t, tt.want, reply.Aliases)
		})
	}
}

// TestWire replays calls against the real JSON-RPC handler and compares bytes.
func TestWire(t *testing.T) {
	t.Parallel()
	reg := newRegistry()
	chains, routes := reg.fakes()
	h := admin.New(chains, routes, slog.New(slog.DiscardHandler)).Handler()

	steps := []struct{ req, resp string }{
		{
			`{"jsonrpc":"2.0","id":1,"method":"admin.aliasChain","params":{"chain":"X","alias":"mine"}}`,
			`{"jsonrpc":"2.0","result":{},"id":1}`,
		},
		{
			`{"jsonrpc":"2.0","id":2,"method":"admin.getChainAliases","params":{"chain":"mine"}}`,
			`{"jsonrpc":"2.0","result":{"aliases":["X","avm","mine"]},"id":2}`,
		},
		{
			`{"jsonrpc":"2.0","id":3,"method":"admin.aliasChain","params":{"chain":"X"}}`,
			`{"jsonrpc":"2.0","error":{"code":-32000,"message":"argument 'alias' not given","data":null},"id":3}`,
		},
		{
			`{"jsonrpc":"2.0","id":4,"method":"admin.getChainAliases","params":{}}`,
			`{"jsonrpc":"2.0","error":{"code":-32000,"message":"argument 'chain' not given","data":null},"id":4}`,
		},
		{
			`{"jsonrpc":"2.0","id":5,"method":"admin.aliasChain","params":{"chain":"X","alias":"` + strings.Repeat("x", 513) + `"}}`,
			`{"jsonrpc":"2.0","error":{"code":-32000,"message":"alias length is too long","data":null},"id":5}`,
		},
		{
			`{"jsonrpc":"2.0","id":6,"method":"admin.getChainAliases","params":[{"chain":"` + chainP.String() + `"}]}`,
			`{"jsonrpc":"2.0","result":{"aliases":["P","platform"]},"id":6}`,
		},
	}
	for _, s := range steps {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/ext/admin", strings.NewReader(s.req))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		require.Equal(t, http.StatusOK, w.Code, s.req)
		require.Equal(t, s.resp+"\n", w.Body.String(), s.req)
	}
}

func FuzzAliasChain(f *testing.F) {
	f.Add(`{"chain":"X","alias":"a"}`)
	f.Add(`[{"chain":"P","alias":"b"}]`)
	f.Add(`{"chain":"","alias":"../x"}`)
	f.Add(`{"chain":5}`)
	f.Fuzz(func(t *testing.T, params string) {
		reg := newRegistry()
		chains, routes := reg.fakes()
		h := admin.New(chains, routes, slog.New(slog.DiscardHandler)).Handler()
		body := `{"jsonrpc":"2.0","id":1,"method":"admin.aliasChain","params":` + params + `}`
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/ext/admin", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		require.Equal(t, http.StatusOK, w.Code)
		// Whatever got through, a routed alias is always one clean path segment.
		for _, r := range reg.routed {
			_, alias, _ := strings.Cut(r, "/")
			require.NotContains(t, alias, "/")
			require.NotEmpty(t, alias)
		}
	})
}
