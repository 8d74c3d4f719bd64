package loopback

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		url     string
		wantErr error
	}{
		{name: "default", url: "http://127.0.0.1:9650/ext/info"},
		{name: "whole 127/8", url: "http://127.255.3.4:1/"},
		{name: "localhost", url: "http://localhost:9650/ext/info"},
		{name: "localhost any case", url: "http://LocalHost:9650/"},
		{name: "ipv6 loopback", url: "http://[::1]:9650/ext/info"},
		{name: "ipv6 loopback long form", url: "http://[0:0:0:0:0:0:0:1]:9650/"},
		{name: "mapped ipv4 loopback", url: "http://[::ffff:127.0.0.1]:9650/"},
		{name: "no port", url: "http://127.0.0.1/ext/info"},
		{name: "private address", url: "http://10.0.0.1:9650/", wantErr: ErrNotLoopback},
		{name: "public address", url: "http://8.8.8.8/", wantErr: ErrNotLoopback},
		{name: "unspecified v4", url: "http://0.0.0.0:9650/", wantErr: ErrNotLoopback},
		{name: "unspecified v6", url: "http://[::]:9650/", wantErr: ErrNotLoopback},
		{name: "other name", url: "http://example.com/", wantErr: ErrNotLoopback},
		{name: "localhost suffix", url: "http://localhost.example.com/", wantErr: ErrNotLoopback},
		{name: "localhost subdomain", url: "http://a.localhost/", wantErr: ErrNotLoopback},
		{name: "localhost trailing dot", url: "http://localhost./", wantErr: ErrNotLoopback},
		{name: "short ipv4 form", url: "http://127.1/", wantErr: ErrNotLoopback},
		{name: "decimal ipv4", url: "http://2130706433/", wantErr: ErrNotLoopback},
		{name: "userinfo trick", url: "http://127.0.0.1@example.com/", wantErr: ErrNotLoopback},
		{name: "empty host", url: "http:///ext/info", wantErr: ErrNotLoopback},
		{name: "https", url: "https://127.0.0.1:9650/", wantErr: ErrScheme},
		{name: "no scheme", url: "127.0.0.1:9650", wantErr: nil /* parse error, checked below */},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u, err := CheckURL(tt.url)
			if tt.name == "no scheme" {
				require.Error(t, err)
				return
			}
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, "http", u.Scheme)
		})
	}
}

func TestControl(t *testing.T) {
	t.Parallel()
	tests := []struct {
		address string
		ok      bool
	}{
		{"127.0.0.1:9650", true},
		{"127.9.9.9:1", true},
		{"[::1]:9650", true},
		{"10.0.0.1:9650", false},
		{"[2001:db8::1]:80", false},
		{"localhost:9650", false}, // the hook sees resolved addresses only
		{"garbage", false},
	}
	for _, tt := range tests {
		t.Run(tt.address, func(t *testing.T) {
			t.Parallel()
			err := Control("tcp", tt.address, nil)
			if tt.ok {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
			}
		})
	}
	require.ErrorIs(t, Control("tcp", "192.0.2.1:80", nil), ErrNotLoopback)
}

// TestNewClient: the client neither follows a redirect nor dials off loopback.
func TestNewClient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://192.0.2.1/", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	c := NewClient(1, 0)
	resp, err := c.Get(srv.URL)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusFound, resp.StatusCode, "not followed")

	_, err = c.Get("http://192.0.2.1/")
	require.ErrorIs(t, err, ErrNotLoopback)
}

func FuzzCheckURL(f *testing.F) {
	f.Add("http://127.0.0.1:9650/ext/info")
	f.Add("http://[::1]:1/")
	f.Add("http://localhost/")
	f.Add("http://example.com/")
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := CheckURL(raw)
		if err != nil {
			return
		}
		require.True(t, IsHost(u.Hostname()), "accepted %q with host %q", raw, u.Hostname())
	})
}
