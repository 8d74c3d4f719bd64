// Package loopback keeps the bench tools on this machine: it accepts only http:// URLs to a
// loopback host, and its dialer checks every address it is about to connect to, after name
// resolution, so a localhost that resolves elsewhere, a redirect or a proxy cannot lead off the
// machine either. Its clients never follow redirects.
package loopback

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

var (
	// ErrNotLoopback refuses a target that is not on this machine: the bench tools only ever
	// talk to 127.0.0.0/8, ::1 or localhost (a workplace rule, enforced again at dial time).
	ErrNotLoopback = errors.New("target is not a loopback address (allowed: 127.0.0.0/8, ::1, localhost)")
	// ErrScheme refuses any scheme but plain http.
	ErrScheme = errors.New("only http:// URLs are supported")
)

// CheckURL parses rawURL and accepts it only if it is http:// to 127.0.0.0/8, ::1 or
// localhost.
func CheckURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse url %q: %w", rawURL, err)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("%q: %w", rawURL, ErrScheme)
	}
	if !IsHost(u.Hostname()) {
		return nil, fmt.Errorf("%q: %w", rawURL, ErrNotLoopback)
	}
	return u, nil
}

// IsHost reports whether host (no port, no brackets) is "localhost" or a loopback IP literal.
// Other names, even ones that resolve to loopback, are refused.
func IsHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Control is a net.Dialer Control hook: it runs after name resolution, on the address about to
// be connected, and refuses anything but a loopback IP.
func Control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("dial %q: %w", address, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("dial %q: %w", address, ErrNotLoopback)
	}
	return nil
}

// Dialer returns a dialer that connects to loopback addresses only (Control).
func Dialer() *net.Dialer {
	return &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: Control}
}

// NoRedirects is an http.Client CheckRedirect that hands a redirect back to the caller rather
// than follow it.
func NoRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// NewClient returns a client that dials loopback only, keeps up to conns connections open (and
// opens no more), gives every request at most timeout (0: no limit), and neither compresses nor
// follows redirects.
func NewClient(conns int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         Dialer().DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			DisableCompression:  true,
		},
		CheckRedirect: NoRedirects,
	}
}
