package api

import (
	"net/http"
	"slices"
	"strings"
)

// CORS as the reference node configures rs/cors v1.7.0 (node-api.md §2.2 item 2): origins from the
// config, credentials allowed, the library's default methods and headers, no exposed headers and
// no max age.
var (
	corsMethods = []string{http.MethodGet, http.MethodPost, http.MethodHead}
	corsHeaders = []string{"Origin", "Accept", "Content-Type", "X-Requested-With"}
)

// varyOrigin is the Vary value of a non-preflight answer, shared by all of them: net/http only
// reads it, and appending to a full slice copies it.
var varyOrigin = []string{"Origin"}

// cors answers CORS preflights and adds CORS headers to actual requests.
type cors struct {
	next http.Handler
	// allOrigins is set when the origin list holds "*".
	allOrigins bool
	// origins are the exact allowed origins, lower-cased.
	origins []string
	// wildcards are the allowed origins with one "*", lower-cased.
	wildcards []wildcard
}

// wildcard is an origin pattern with a single "*" between prefix and suffix.
type wildcard struct{ prefix, suffix string }

func (w wildcard) match(s string) bool {
	return len(s) >= len(w.prefix)+len(w.suffix) &&
		strings.HasPrefix(s, w.prefix) && strings.HasSuffix(s, w.suffix)
}

func newCORS(origins []string, next http.Handler) *cors {
	c := &cors{next: next}
	for _, o := range origins {
		o = strings.ToLower(o)
		switch i := strings.IndexByte(o, '*'); {
		case o == "*":
			c.allOrigins = true
		case i >= 0:
			c.wildcards = append(c.wildcards, wildcard{prefix: o[:i], suffix: o[i+1:]})
		default:
			c.origins = append(c.origins, o)
		}
	}
	return c
}

func (c *cors) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		c.preflight(w, r)
		// A preflight never reaches the handler, whatever its outcome (rs/cors v1.7.0).
		w.WriteHeader(http.StatusOK)
		return
	}
	c.actual(w, r)
	c.next.ServeHTTP(w, r)
}

// preflight sets the headers of a preflight answer, or none beyond Vary when the request is not
// allowed.
func (c *cors) preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Add("Vary", "Origin")
	h.Add("Vary", "Access-Control-Request-Method")
	h.Add("Vary", "Access-Control-Request-Headers")

	origin := r.Header.Get("Origin")
	if origin == "" || !c.originAllowed(origin) {
		return
	}
	method := r.Header.Get("Access-Control-Request-Method")
	if !methodAllowed(method) {
		return
	}
	reqHeaders := parseHeaderList(r.Header.Get("Access-Control-Request-Headers"))
	if !headersAllowed(reqHeaders) {
		return
	}
	c.setOrigin(h, origin)
	h.Set("Access-Control-Allow-Methods", strings.ToUpper(method))
	if len(reqHeaders) > 0 {
		h.Set("Access-Control-Allow-Headers", strings.Join(reqHeaders, ", "))
	}
	h.Set("Access-Control-Allow-Credentials", "true")
}

// actual sets the CORS headers of a non-preflight request.
func (c *cors) actual(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if v, ok := h["Vary"]; ok {
		h["Vary"] = append(v, "Origin")
	} else {
		// Shared, as nodeIDHeader's value: most replies carry only this Vary.
		h["Vary"] = varyOrigin
	}
	// Header.Get("Origin") without its canonicalising of the key on every request.
	var origin string
	if v := r.Header["Origin"]; len(v) > 0 {
		origin = v[0]
	}
	if origin == "" || !c.originAllowed(origin) || !methodAllowed(r.Method) {
		return
	}
	c.setOrigin(h, origin)
	h.Set("Access-Control-Allow-Credentials", "true")
}

// setOrigin writes Access-Control-Allow-Origin: "*" when every origin is allowed, even with
// credentials, as rs/cors v1.7.0 does (node-api.md §2.2), otherwise the request's origin.
func (c *cors) setOrigin(h http.Header, origin string) {
	if c.allOrigins {
		h.Set("Access-Control-Allow-Origin", "*")
		return
	}
	h.Set("Access-Control-Allow-Origin", origin)
}

func (c *cors) originAllowed(origin string) bool {
	if c.allOrigins {
		return true
	}
	origin = strings.ToLower(origin)
	if slices.Contains(c.origins, origin) {
		return true
	}
	for _, w := range c.wildcards {
		if w.match(origin) {
			return true
		}
	}
	return false
}

// methodAllowed reports whether method is allowed; OPTIONS always is, for preflights.
func methodAllowed(method string) bool {
	method = strings.ToUpper(method)
	if method == http.MethodOptions {
		return true
	}
	return slices.Contains(corsMethods, method)
}

// headersAllowed reports whether every requested header (already canonical) is allowed.
func headersAllowed(requested []string) bool {
	for _, h := range requested {
		if !slices.Contains(corsHeaders, h) {
			return false
		}
	}
	return true
}

// parseHeaderList splits an Access-Control-Request-Headers value on commas and spaces and
// canonicalises each name ("x-requested-with" → "X-Requested-With").
func parseHeaderList(v string) []string {
	fields := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	for i, f := range fields {
		fields[i] = http.CanonicalHeaderKey(f)
	}
	return fields
}
