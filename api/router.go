package api

import (
	"fmt"
	"maps"
	"net/http"
	"path"
	"strings"
	"sync"
	"sync/atomic"
)

// prefix is the base path of every route (node-api.md §2.3).
const prefix = "/ext/"

// Labels used for requests that matched no route, to keep metric cardinality bounded.
const (
	labelNotFound = "notFound"
	labelRedirect = "redirect"
)

// route is one entry of the table.
type route struct {
	handler http.Handler
	// label is the route's full path, used in metrics and logs.
	label string
	// series are the route's request metrics, shared by the snapshots that hold the route.
	series *routeSeries
}

// table is an immutable snapshot of the routes. It is never changed after it is published.
type table struct {
	// routes maps a full path ("/ext/info") to its route.
	routes map[string]route
	// aliases maps a base path relative to /ext ("bc/<id>") to the bases that mirror it, so that
	// routes added under the base later are also served under each alias.
	aliases map[string][]string
}

// router serves the route table. Lookups load the current snapshot without locking; writers
// serialise on mu and publish a modified copy.
type router struct {
	current atomic.Pointer[table]

	mu sync.Mutex // serialises writers; readers never take it

	// notFound and redirect are the series of the requests that matched no route.
	notFound, redirect routeSeries
}

func newRouter() *router {
	r := &router{}
	r.current.Store(&table{routes: map[string]route{}, aliases: map[string][]string{}})
	return r
}

// validRoute reports whether p is a route path relative to /ext: not empty, no leading or
// trailing slash, and clean.
func validRoute(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && path.Clean(prefix+p) == prefix+p
}

// under reports whether p is base itself or below it, and returns the part of p after base.
func under(p, base string) (rest string, ok bool) {
	if p == base {
		return "", true
	}
	if strings.HasPrefix(p, base+"/") {
		return p[len(base):], true
	}
	return "", false
}

// add serves h at p (relative to /ext) and at every alias whose base covers p.
func (rt *router) add(p string, h http.Handler) error {
	if !validRoute(p) {
		return invalidRouteError(p)
	}
	if h == nil {
		return fmt.Errorf("%w: nil handler for %q", ErrInvalidRoute, p)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	old := rt.current.Load()

	paths := []string{p}
	for base, aliases := range old.aliases {
		if rest, ok := under(p, base); ok {
			for _, a := range aliases {
				paths = append(paths, a+rest)
			}
		}
	}
	return rt.publishLocked(old, paths, func(string) http.Handler { return h }, nil)
}

// alias serves every route at or under base also under each alias, now and for routes added
// later under base.
func (rt *router) alias(base string, aliases []string) error {
	if !validRoute(base) {
		return invalidRouteError(base)
	}
	if len(aliases) == 0 {
		return nil
	}
	for _, a := range aliases {
		if !validRoute(a) {
			return invalidRouteError(a)
		}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	old := rt.current.Load()

	// Every existing route under base, with its handler, mapped onto each alias.
	targets := map[string]http.Handler{}
	var paths []string
	for full, r := range old.routes {
		rest, ok := under(strings.TrimPrefix(full, prefix), base)
		if !ok {
			continue
		}
		for _, a := range aliases {
			targets[a+rest] = r.handler
			paths = append(paths, a+rest)
		}
	}
	if len(paths) == 0 {
		return unknownRouteError(base)
	}
	return rt.publishLocked(old, paths, func(p string) http.Handler { return targets[p] },
		map[string][]string{base: aliases})
}

// publishLocked checks that none of paths is taken, then publishes a copy of old with the new
// routes and aliases. It changes nothing if any path collides. rt.mu must be held.
func (rt *router) publishLocked(
	old *table,
	paths []string,
	handler func(p string) http.Handler,
	newAliases map[string][]string,
) error {
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		if _, taken := old.routes[prefix+p]; taken || seen[p] {
			return duplicateRouteError(prefix + p)
		}
		seen[p] = true
	}
	next := &table{routes: maps.Clone(old.routes), aliases: maps.Clone(old.aliases)}
	for _, p := range paths {
		next.routes[prefix+p] = route{handler: handler(p), label: prefix + p, series: new(routeSeries)}
	}
	for base, as := range newAliases {
		// Append to a fresh slice: the old one is shared with the previous snapshot.
		next.aliases[base] = append(append([]string(nil), old.aliases[base]...), as...)
	}
	rt.current.Store(next)
	return nil
}

// lookup returns the handler for r, and the label and series to record it under. It never
// returns nil.
func (rt *router) lookup(r *http.Request) (http.Handler, string, *routeSeries) {
	p := r.URL.Path
	if c := cleanPath(p); c != p {
		return redirectHandler(c), labelRedirect, &rt.redirect
	}
	if rte, ok := rt.current.Load().routes[p]; ok {
		return rte.handler, rte.label, rte.series
	}
	return http.NotFoundHandler(), labelNotFound, &rt.notFound
}

// cleanPath returns the canonical form of p: rooted, without "//", "." or ".." elements, keeping
// a trailing slash.
func cleanPath(p string) string {
	if isClean(p) {
		// The common case, without path.Clean's rebuilding of the path.
		return p
	}
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// isClean reports whether cleanPath would return p unchanged: p is rooted and has no empty, "."
// or ".." element, the one after a trailing slash aside.
func isClean(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for i := 1; i < len(p); i++ {
		if p[i-1] != '/' {
			continue
		}
		// p[i] begins an element: it must not be empty, ".", or "..".
		if p[i] == '/' {
			return false
		}
		if p[i] == '.' {
			rest := p[i+1:]
			if rest == "" || rest[0] == '/' || (rest[0] == '.' && (len(rest) == 1 || rest[1] == '/')) {
				return false
			}
		}
	}
	return true
}

// redirectHandler answers 301 to the same URL with its path replaced by clean, keeping the query,
// with an empty body (node-api.md §1.5, §7 item 22).
func redirectHandler(clean string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := *r.URL
		u.Path = clean
		u.RawPath = ""
		w.Header().Set("Location", u.String())
		w.WriteHeader(http.StatusMovedPermanently)
	})
}
