package api

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
)

// hostFilter rejects requests whose Host header names a host that is not allowed, a defence
// against DNS rebinding (node-api.md §2.2 item 3).
type hostFilter struct {
	next http.Handler
	// all is set when the list holds "*": the filter is off.
	all bool
	// hosts are the allowed names, lower-cased.
	hosts map[string]struct{}
	// last is the last Host value found allowed (nil before): nearly every request of a client
	// carries the same one, which then passes without being split and parsed again.
	last atomic.Pointer[string]
}

func newHostFilter(allowed []string, next http.Handler) *hostFilter {
	f := &hostFilter{next: next, hosts: make(map[string]struct{}, len(allowed))}
	for _, h := range allowed {
		if h == "*" {
			f.all = true
		}
		f.hosts[strings.ToLower(h)] = struct{}{}
	}
	return f
}

func (f *hostFilter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if last := f.last.Load(); last == nil || *last != r.Host {
		if !f.allowed(r.Host) {
			http.Error(w, textInvalidHost, http.StatusForbidden)
			return
		}
		host := r.Host
		f.last.Store(&host)
	}
	f.next.ServeHTTP(w, r)
}

// allowed reports whether a Host header value passes: the port is stripped, an empty host or an
// IP literal always passes, and names are compared case-insensitively.
func (f *hostFilter) allowed(hostport string) bool {
	if f.all {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		// A bracketed IPv6 literal without a port.
		host = host[1 : len(host)-1]
	}
	if host == "" {
		return true
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	_, ok := f.hosts[strings.ToLower(host)]
	return ok
}
