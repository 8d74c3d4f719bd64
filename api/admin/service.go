package admin

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// MaxAliasLength is the longest alias aliasChain accepts, in bytes (the reference's limit).
const MaxAliasLength = 512

// Chains is the chain registry as the admin service needs it. Errors it returns are sent to the
// client as they are, so they should carry user-facing texts.
type Chains interface {
	// Lookup returns the ID of the chain with the given alias or ID string.
	Lookup(alias string) (ids.ID, error)
	// Alias gives chain id another alias; it fails if the alias is taken.
	Alias(id ids.ID, alias string) error
	// Aliases returns chain id's aliases.
	Aliases(id ids.ID) ([]string, error)
}

// Routes adds HTTP routes for a new chain alias.
type Routes interface {
	// AliasChainRoutes serves every route of chain id (/ext/bc/<id>…) also under /ext/bc/<alias>.
	AliasChainRoutes(id ids.ID, alias string) error
}

// Service implements the admin methods. Its exported methods are the handlers, callable directly;
// over HTTP they are reached through Handler.
type Service struct {
	chains Chains
	routes Routes
	server *jsonrpc.Server

	mu sync.Mutex // serialises aliasChain, so an alias and its routes are added together
}

// New returns the admin service over chains and routes; log receives the JSON-RPC engine's logs.
func New(chains Chains, routes Routes, log *slog.Logger) *Service {
	s := &Service{chains: chains, routes: routes, server: jsonrpc.NewServer("admin", log)}
	s.register()
	return s
}

// register lists the methods of the service by their wire names.
func (s *Service) register() {
	jsonrpc.Register(s.server, "aliasChain", s.AliasChain)
	jsonrpc.Register(s.server, "getChainAliases", s.GetChainAliases)
}

// Handler returns the JSON-RPC handler to mount at /ext/admin.
func (s *Service) Handler() http.Handler {
	return s.server
}

// AliasChain gives a chain another alias, usable in lookups and as /ext/bc/<alias>.
func (s *Service) AliasChain(_ context.Context, args *AliasChainArgs) (*EmptyReply, error) {
	switch {
	case args.Chain == "":
		return nil, ErrChainNotGiven
	case args.Alias == "":
		return nil, ErrAliasNotGiven
	case len(args.Alias) > MaxAliasLength:
		return nil, ErrAliasTooLong
	case strings.Contains(args.Alias, "/") || args.Alias == "." || args.Alias == "..":
		return nil, ErrAliasNotPathSegment
	}
	id, err := s.chains.Lookup(args.Chain)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.chains.Alias(id, args.Alias); err != nil {
		return nil, err
	}
	if err := s.routes.AliasChainRoutes(id, args.Alias); err != nil {
		return nil, err
	}
	return &EmptyReply{}, nil
}

// GetChainAliases returns a chain's aliases. The chain is given by its ID, which works before the
// chain is created (as in the reference), or by one of its aliases.
func (s *Service) GetChainAliases(_ context.Context, args *GetChainAliasesArgs) (*GetChainAliasesReply, error) {
	if args.Chain == "" {
		return nil, ErrChainNotGiven
	}
	id, err := ids.FromString(args.Chain)
	if err != nil {
		if id, err = s.chains.Lookup(args.Chain); err != nil {
			return nil, err
		}
	}
	aliases, err := s.chains.Aliases(id)
	if err != nil {
		return nil, err
	}
	if aliases == nil {
		aliases = []string{}
	}
	return &GetChainAliasesReply{Aliases: aliases}, nil
}
