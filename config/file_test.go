package config

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

func TestLoadFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		file    string
		modify  func(c *Config) // applied to Default() to get the expected result
		wantErr string          // after "config file <path>: "
	}{
		{name: "empty object", file: `{}`, modify: func(*Config) {}},
		{
			name: "every kind of value",
			file: `{
				"network-id": "fuji",
				"http-port": 9000,
				"staking-port": "9001",
				"http-host": "",
				"public-ip": "10.0.0.1",
				"http-allowed-hosts": ["a.example", "b.example"],
				"http-allowed-origins": "x,y",
				"http-read-timeout": "1m",
				"api-admin-enabled": true,
				"index-enabled": "false",
				"tx-fee": 5,
				"uptime-requirement": 0.5,
				"acp-support": [1, "2"],
				"log-level": "debug"
			}`,
			modify: func(c *Config) {
				c.NetworkID = FujiID
				c.HTTPPort, c.StakingPort, c.HTTPHost, c.PublicIP = 9000, 9001, "", "10.0.0.1"
				c.HTTPAllowedHosts = []string{"a.example", "b.example"}
				c.HTTPAllowedOrigins = []string{"x", "y"}
				c.HTTPReadTimeout = time.Minute
				c.APIAdminEnabled, c.IndexEnabled = true, false
				c.TxFee, c.UptimeRequirement = 5, 0.5
				c.ACPSupport = []uint32{1, 2}
				c.LogLevel = slog.LevelDebug
			},
		},
		{name: "empty list", file: `{"http-allowed-hosts": []}`, modify: func(c *Config) { c.HTTPAllowedHosts = []string{} }},
		{name: "network number", file: `{"network-id": 77}`, modify: func(c *Config) { c.NetworkID = 77 }},
		{name: "tracked subnets and chain configs", file: `{"track-subnets": ["` + ids.ID{1}.String() + `"], "chain-config-dir": "/c"}`,
			modify: func(c *Config) { c.TrackSubnets, c.ChainConfigDir = []ids.ID{{1}}, "/c" }},
		{name: "bad subnet", file: `{"track-subnets": ["x"]}`, wantErr: `key "track-subnets": invalid subnet ID "x": ` + idErr("x")},
		{name: "unknown key", file: `{"http-prot": 1}`, wantErr: `unknown key "http-prot"`},
		{name: "config-file is not a key", file: `{"config-file": "x"}`, wantErr: `unknown key "config-file"`},
		{name: "bad port", file: `{"http-port": 70000}`, wantErr: `key "http-port": invalid port "70000": must be a number from 0 to 65535`},
		{name: "fractional port", file: `{"http-port": 1.5}`, wantErr: `key "http-port": invalid port "1.5": must be a number from 0 to 65535`},
		{name: "bad network", file: `{"network-id": "moon"}`, wantErr: `key "network-id": failed to parse network name: "moon"`},
		{name: "list for scalar", file: `{"http-port": [1]}`, wantErr: `key "http-port": expected a single value, not a list`},
		{name: "object", file: `{"http-host": {}}`, wantErr: `key "http-host": expected a value, not an object`},
		{name: "null", file: `{"http-host": null}`, wantErr: `key "http-host": expected a value, not null`},
		{name: "nested list", file: `{"acp-object": [[1]]}`, wantErr: `key "acp-object": expected a value, not a list`},
		{
			name:    "every problem at once, sorted by key",
			file:    `{"zzz": 1, "log-level": "loud", "aaa": 2}`,
			wantErr: "unknown key \"aaa\"\nkey \"log-level\": invalid log level \"loud\": must be debug, info, warn or error\nunknown key \"zzz\"",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "config.json")
			require.NoError(t, os.WriteFile(path, []byte(tt.file), 0o600))
			got := Default()
			err := LoadFile(path, &got)
			if tt.wantErr != "" {
				require.EqualError(t, err, "config file "+path+": "+tt.wantErr)
				require.Equal(t, Default(), got, "unchanged on error")
				return
			}
			require.NoError(t, err)
			want := Default()
			tt.modify(&want)
			require.Equal(t, want, got)
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	t.Parallel()
	cfg := Default()
	err := LoadFile(filepath.Join(t.TempDir(), "missing.json"), &cfg)
	require.ErrorIs(t, err, os.ErrNotExist)

	path := filepath.Join(t.TempDir(), "c.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"nope":1}`), 0o600))
	require.ErrorIs(t, LoadFile(path, &cfg), ErrUnknownKey)
	require.ErrorIs(t, func() error {
		require.NoError(t, os.WriteFile(path, []byte(`{"network-id":"x"}`), 0o600))
		return LoadFile(path, &cfg)
	}(), ErrParseNetworkName)
}

// FuzzParseFile checks that a config file never panics the parser, and that an accepted file
// leaves a config whose every setting prints as text it accepts again.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"http-port": 9650}`, `{"network-id": "local", "acp-support": [1, "2"]}`,
		`{"http-allowed-hosts": "a,b"}`, `{"log-level": "debug", "index-enabled": true}`,
		`{"http-read-timeout": "30s"}`, `[]`, `null`, `{"x": {}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := Default()
		if err := parseFile(data, &cfg); err != nil {
			require.Equal(t, Default(), cfg)
			return
		}
		for _, s := range Settings() {
			var back Config
			require.NoError(t, s.Bind(&back).Set(s.Bind(&cfg).String()), s.Name)
		}
	})
}
