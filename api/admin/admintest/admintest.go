// Package admintest holds hand-written fakes of the interfaces package admin consumes. Each fake
// has one function field per method; a nil field panics when called, so a test states exactly
// which calls it expects.
package admintest

import (
	"github.com/cornice-node/cornice/api/admin"
	"github.com/cornice-node/cornice/ids"
)

// Chains is a fake admin.Chains.
type Chains struct {
	LookupF  func(alias string) (ids.ID, error)
	AliasF   func(id ids.ID, alias string) error
	AliasesF func(id ids.ID) ([]string, error)
}

var _ admin.Chains = (*Chains)(nil)

// Lookup calls LookupF.
func (c *Chains) Lookup(alias string) (ids.ID, error) { return c.LookupF(alias) }

// Alias calls AliasF.
func (c *Chains) Alias(id ids.ID, alias string) error { return c.AliasF(id, alias) }

// Aliases calls AliasesF.
func (c *Chains) Aliases(id ids.ID) ([]string, error) { return c.AliasesF(id) }

// Routes is a fake admin.Routes.
type Routes struct {
	AliasChainRoutesF func(id ids.ID, alias string) error
}

var _ admin.Routes = (*Routes)(nil)

// AliasChainRoutes calls AliasChainRoutesF.
func (r *Routes) AliasChainRoutes(id ids.ID, alias string) error {
	return r.AliasChainRoutesF(id, alias)
}
