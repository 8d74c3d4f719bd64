package api

import (
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCleanPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", "/"},
		{"/", "/"},
		{"ext/info", "/ext/info"},
		{"/ext/info", "/ext/info"},
		{"/ext/info/", "/ext/info/"},
		{"/ext//info", "/ext/info"},
		{"/ext/./info", "/ext/info"},
		{"/ext/x/../info", "/ext/info"},
		{"/../ext", "/ext"},
		{"//", "/"},
		{"/ext//info//", "/ext/info/"},
		{"/ext/.x/..y/x.", "/ext/.x/..y/x."},
		{"/ext/x/.", "/ext/x"},
		{"/ext/x/..", "/ext"},
		{"/ext/x/./", "/ext/x/"},
		{"/ext/x/../", "/ext/"},
		{"/.", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, cleanPath(tt.in))
		})
	}
}

func TestValidRoute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p  string
		ok bool
	}{
		{"info", true},
		{"index/X/block", true},
		{"bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/rpc", true},
		{"", false},
		{"/info", false},
		{"info/", false},
		{"a//b", false},
		{"a/./b", false},
		{"..", false},
		{".", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.ok, validRoute(tt.p), tt.p)
	}
}

func TestHostAllowed(t *testing.T) {
	t.Parallel()
	f := newHostFilter([]string{"localhost", "Node.Example"}, nil)
	tests := []struct {
		host string
		ok   bool
	}{
		{"", true},
		{"localhost", true},
		{"LOCALHOST:9650", true},
		{"node.example", true},
		{"NODE.EXAMPLE:1", true},
		{"127.0.0.1", true},
		{"127.0.0.1:9650", true},
		{"[::1]", true},
		{"[::1]:9650", true},
		{"::1", true},
		{"[fe80::1%25eth0]:80", true},
		{"evil.com", false},
		{"evil.com:9650", false},
		{"localhost.", false},
		{"a.localhost", false},
		{":9650", true}, // empty host with a port
		{"[", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.ok, f.allowed(tt.host), tt.host)
	}
	require.True(t, newHostFilter([]string{"*"}, nil).allowed("evil.com"))
}

func TestParseHeaderList(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"content-type", []string{"Content-Type"}},
		{"content-type, x-requested-with", []string{"Content-Type", "X-Requested-With"}},
		{" ACCEPT ,,origin", []string{"Accept", "Origin"}},
	}
	for _, tt := range tests {
		got := parseHeaderList(tt.in)
		if len(tt.want) == 0 {
			require.Empty(t, got)
			continue
		}
		require.Equal(t, tt.want, got, tt.in)
	}
}

func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"", "/", "/ext//info", "/ext/./x/../info/", "a/b", "//", "/.."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c := cleanPath(p)
		require.True(t, strings.HasPrefix(c, "/"))
		require.Equal(t, c, cleanPath(c), "cleanPath must be idempotent")
		require.NotContains(t, c, "//")
		// isClean, cleanPath's fast path, holds exactly for the paths path.Clean keeps (a
		// trailing slash aside).
		want := "/" + strings.TrimPrefix(p, "/")
		want = path.Clean(want)
		if strings.HasSuffix(p, "/") && want != "/" {
			want += "/"
		}
		require.Equal(t, want == p, isClean(p), p)
	})
}

func FuzzHostAllowed(f *testing.F) {
	for _, s := range []string{"", "localhost", "LOCALHOST:9650", "[::1]", "[::1]:1", "evil.com", "[", "]:", "1.2.3.4:"} {
		f.Add(s)
	}
	filter := newHostFilter([]string{"localhost"}, nil)
	f.Fuzz(func(t *testing.T, host string) {
		ok := filter.allowed(host)
		// Changing the ASCII letter case of a host never changes the verdict.
		upper := strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}, host)
		require.Equal(t, ok, filter.allowed(upper), host)
	})
}

// TestHostFilterRemembersOnlyAllowed checks the filter's memory of the last allowed Host: a host
// refused right after an allowed one is still refused, and hosts passed in turn all pass.
func TestHostFilterRemembersOnlyAllowed(t *testing.T) {
	t.Parallel()
	passed := 0
	f := newHostFilter([]string{"localhost"}, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { passed++ }))
	for i, tt := range []struct {
		host string
		ok   bool
	}{
		{"localhost:9650", true},
		{"localhost:9650", true},
		{"evil.com:9650", false},
		{"evil.com:9650", false},
		{"127.0.0.1:9650", true},
		{"localhost:9650", true},
		{"evil.com", false},
		{"127.0.0.1:9650", true},
	} {
		r := httptest.NewRequest(http.MethodPost, "http://"+tt.host+"/ext/info", nil)
		w := httptest.NewRecorder()
		before := passed
		f.ServeHTTP(w, r)
		if tt.ok {
			require.Equal(t, before+1, passed, "request %d, %s", i, tt.host)
			continue
		}
		require.Equal(t, before, passed, "request %d, %s", i, tt.host)
		require.Equal(t, http.StatusForbidden, w.Code, "request %d, %s", i, tt.host)
	}
}
