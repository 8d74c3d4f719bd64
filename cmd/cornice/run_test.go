package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/config/configtest"
)

// runCLI runs the command line with a start function that records the config instead of
// running a node. started is false when the CLI stopped before starting a node.
func runCLI(t *testing.T, args ...string) (cfg config.Config, started bool, code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	start := func(_ context.Context, c config.Config, log *slog.Logger, _ runOptions) error {
		require.NotNil(t, log)
		cfg, started = c, true
		return nil
	}
	code = execute(t.Context(), args, &out, &errOut, start)
	return cfg, started, code, out.String(), errOut.String()
}

func TestRunFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile, certFile, signerFile := configtest.StakingFiles(t, dir)
	upgradeFile := filepath.Join(dir, "upgrades.json")
	require.NoError(t, os.WriteFile(upgradeFile, []byte(`{"heliconTime":"2030-01-01T00:00:00Z"}`), 0o600))
	missing := filepath.Join(dir, "missing")

	tests := []struct {
		name    string
		args    []string
		want    func(c *config.Config) // applied to the defaults (with --data-dir dir)
		wantErr string                 // the whole of stderr
	}{
		{name: "no flags", want: func(*config.Config) {}},
		{name: "network name", args: []string{"--network-id", "fuji"}, want: func(c *config.Config) {
			c.NetworkID, c.Upgrades = 5, config.UpgradesFor(5)
		}},
		{name: "network name any case", args: []string{"--network-id=MAINNET"}, want: func(c *config.Config) {
			c.NetworkID, c.Upgrades = 1, config.UpgradesFor(1)
		}},
		{name: "testnet is fuji", args: []string{"--network-id=testnet"}, want: func(c *config.Config) {
			c.NetworkID, c.Upgrades = 5, config.UpgradesFor(5)
		}},
		{name: "network number", args: []string{"--network-id=1"}, want: func(c *config.Config) {
			c.NetworkID, c.Upgrades = 1, config.UpgradesFor(1)
		}},
		{name: "network-n", args: []string{"--network-id=network-1337"}, want: func(c *config.Config) { c.NetworkID = 1337 }},
		{name: "ports", args: []string{"--http-port=0", "--staking-port", "65535"}, want: func(c *config.Config) {
			c.HTTPPort, c.StakingPort = 0, 65535
		}},
		{name: "http", args: []string{
			"--http-host=", "--public-ip=::1", "--http-allowed-hosts=a,b", "--http-allowed-hosts=c",
			"--http-allowed-origins=https://x", "--http-read-timeout=1s", "--http-read-header-timeout=2s",
			"--http-write-timeout=3s", "--http-idle-timeout=4s", "--http-shutdown-timeout=5s",
		}, want: func(c *config.Config) {
			c.HTTPHost, c.PublicIP = "", "::1"
			c.HTTPAllowedHosts, c.HTTPAllowedOrigins = []string{"a", "b", "c"}, []string{"https://x"}
			c.HTTPReadTimeout, c.HTTPReadHeaderTimeout, c.HTTPWriteTimeout = time.Second, 2*time.Second, 3*time.Second
			c.HTTPIdleTimeout, c.HTTPShutdownTimeout = 4*time.Second, 5*time.Second
		}},
		{name: "switches", args: []string{
			"--api-admin-enabled", "--api-info-enabled=false", "--api-health-enabled=0",
			"--api-metrics-enabled=false", "--index-enabled=false", "--index-allow-incomplete",
		}, want: func(c *config.Config) {
			c.APIAdminEnabled, c.APIInfoEnabled, c.APIHealthEnabled, c.APIMetricsEnabled = true, false, false, false
			c.IndexEnabled, c.IndexAllowIncomplete = false, true
		}},
		{name: "key files", args: []string{
			"--staking-tls-key-file", keyFile, "--staking-tls-cert-file", certFile, "--staking-signer-key-file", signerFile,
		}, want: func(c *config.Config) {
			c.StakingTLSKeyFile, c.StakingTLSCertFile, c.StakingSignerKeyFile = keyFile, certFile, signerFile
		}},
		{name: "dev methods", args: []string{"--network-id=99", "--dev-methods"}, want: func(c *config.Config) {
			c.NetworkID, c.DevMethods = 99, config.SwitchOn
		}},
		{name: "dev methods off", args: []string{"--dev-methods=false"}, want: func(c *config.Config) { c.DevMethods = config.SwitchOff }},
		{name: "upgrade file on a custom network", args: []string{"--network-id=99", "--upgrade-file", upgradeFile}, want: func(c *config.Config) {
			c.NetworkID, c.UpgradeFile = 99, upgradeFile
			c.Upgrades.HeliconTime = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		}},
		{name: "fees, uptime, ACPs, log level", args: []string{
			"--tx-fee=1", "--create-asset-tx-fee=2", "--uptime-requirement=0.9",
			"--acp-support=1,2", "--acp-object=3", "--log-level=DEBUG",
		}, want: func(c *config.Config) {
			c.TxFee, c.CreateAssetTxFee, c.UptimeRequirement = 1, 2, 0.9
			c.ACPSupport, c.ACPObject, c.LogLevel = []uint32{1, 2}, []uint32{3}, slog.LevelDebug
		}},

		{name: "unknown network", args: []string{"--network-id=moon"},
			wantErr: "cornice: --network-id: failed to parse network name: \"moon\"\n"},
		{name: "port out of range", args: []string{"--http-port=70000"},
			wantErr: "cornice: --http-port: invalid port \"70000\": must be a number from 0 to 65535\n"},
		{name: "port not a number", args: []string{"--staking-port", "x"},
			wantErr: "cornice: --staking-port: invalid port \"x\": must be a number from 0 to 65535\n"},
		{name: "bad log level", args: []string{"--log-level=verbose"},
			wantErr: "cornice: --log-level: invalid log level \"verbose\": must be debug, info, warn or error\n"},
		{name: "bad duration", args: []string{"--http-idle-timeout=2"},
			wantErr: "cornice: --http-idle-timeout: invalid duration \"2\"\n"},
		{name: "bad switch", args: []string{"--index-enabled=maybe"},
			wantErr: "cornice: --index-enabled: invalid boolean \"maybe\"\n"},
		{name: "unknown flag", args: []string{"--http-prot=1"},
			wantErr: "cornice: unknown flag: --http-prot\n"},
		{name: "positional argument", args: []string{"extra"},
			wantErr: "cornice: unknown command \"extra\" for \"cornice run\"\n"},
		{name: "missing signer key", args: []string{"--staking-signer-key-file", missing},
			wantErr: "cornice: could not read signing key from " + missing + ": file does not exist\n"},
		{name: "missing staking key", args: []string{"--staking-tls-key-file", missing, "--staking-tls-cert-file", certFile},
			wantErr: "cornice: couldn't find staking key at " + missing + "\n"},
		{name: "upgrade file on local", args: []string{"--upgrade-file", upgradeFile},
			wantErr: "cornice: cannot configure upgrades for networkID: local\n"},
		{name: "upgrade file on mainnet", args: []string{"--network-id=mainnet", "--upgrade-file", upgradeFile},
			wantErr: "cornice: cannot configure upgrades for networkID: mainnet\n"},
		{name: "dev methods on fuji", args: []string{"--network-id=fuji", "--dev-methods"},
			wantErr: "cornice: dev-methods cannot be turned on for network fuji\n"},
		{name: "dev methods on mainnet", args: []string{"--network-id=mainnet", "--dev-methods=true"},
			wantErr: "cornice: dev-methods cannot be turned on for network mainnet\n"},
		{name: "missing upgrade file", args: []string{"--network-id=99", "--upgrade-file", missing},
			wantErr: "cornice: read upgrade file: open " + missing + ": no such file or directory\n"},
		{name: "bad public IP", args: []string{"--public-ip=nowhere"},
			wantErr: "cornice: invalid public-ip \"nowhere\": not an IP address\n"},
		{name: "every validation problem, one line each", args: []string{"--public-ip=x", "--uptime-requirement=2", "--staking-port=9650"},
			wantErr: "cornice: http-port and staking-port are both 9650\n" +
				"cornice: invalid public-ip \"x\": not an IP address\n" +
				"cornice: uptime-requirement must be from 0 to 1, not 2\n"},
		{name: "missing config file", args: []string{"--config-file", missing},
			wantErr: "cornice: read config file: open " + missing + ": no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"run", "--data-dir", dir}, tt.args...)
			cfg, started, code, stdout, stderr := runCLI(t, args...)
			require.Empty(t, stdout)
			if tt.wantErr != "" {
				require.Equal(t, tt.wantErr, stderr)
				require.Equal(t, 1, code)
				require.False(t, started)
				return
			}
			require.Empty(t, stderr)
			require.Equal(t, 0, code)
			require.True(t, started)
			want := config.Default()
			want.DataDir = dir
			tt.want(&want)
			require.Equal(t, want, cfg)
		})
	}
}

func TestConfigFilePrecedence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(file, []byte(`{
		"data-dir": "`+dir+`",
		"network-id": "network-77",
		"http-port": 9000,
		"staking-port": 9001,
		"index-enabled": false,
		"http-allowed-hosts": ["from-file"],
		"log-level": "debug"
	}`), 0o600))

	tests := []struct {
		name string
		args []string
		want func(c *config.Config)
	}{
		{
			name: "file over defaults",
			want: func(*config.Config) {},
		},
		{
			name: "flags over file",
			args: []string{"--http-port=9100", "--http-allowed-hosts=flag", "--log-level=error"},
			want: func(c *config.Config) {
				c.HTTPPort, c.HTTPAllowedHosts, c.LogLevel = 9100, []string{"flag"}, slog.LevelError
			},
		},
		{
			// A flag given explicitly wins even when it repeats the default.
			name: "explicit default over file",
			args: []string{"--index-enabled=true", "--network-id=local"},
			want: func(c *config.Config) { c.IndexEnabled, c.NetworkID = true, config.LocalID },
		},
		{
			name: "flag order does not matter",
			args: []string{"--staking-port=1", "--config-file", file},
			want: func(c *config.Config) { c.StakingPort = 1 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"run", "--config-file", file}, tt.args...)
			cfg, started, code, _, stderr := runCLI(t, args...)
			require.Empty(t, stderr)
			require.Equal(t, 0, code)
			require.True(t, started)

			want := config.Default()
			want.DataDir, want.NetworkID = dir, 77
			want.HTTPPort, want.StakingPort = 9000, 9001
			want.IndexEnabled, want.HTTPAllowedHosts, want.LogLevel = false, []string{"from-file"}, slog.LevelDebug
			tt.want(&want)
			want.Upgrades = config.UpgradesFor(want.NetworkID)
			require.Equal(t, want, cfg)
		})
	}
}

func TestConfigFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"http-port": 70000, "htp-host": "x"}`), 0o600))
	_, started, code, _, stderr := runCLI(t, "run", "--config-file", file, "--http-port=1")
	require.False(t, started)
	require.Equal(t, 1, code)
	require.Equal(t, "cornice: config file "+file+": unknown key \"htp-host\"\n"+
		"cornice: key \"http-port\": invalid port \"70000\": must be a number from 0 to 65535\n", stderr)
}

// TestBadFlagsWriteNothing runs the real node start-up path with bad values and checks that the
// data directory is never created.
func TestBadFlagsWriteNothing(t *testing.T) {
	t.Parallel()
	tests := [][]string{
		{"--network-id=moon"},
		{"--http-port=70000"},
		{"--log-level=loud"},
		{"--staking-signer-key-file=/nonexistent/signer.key"},
		{"--upgrade-file=/nonexistent/upgrades.json"},
	}
	for _, args := range tests {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			dataDir := filepath.Join(t.TempDir(), "data")
			var out, errOut bytes.Buffer
			code := execute(t.Context(), append([]string{"run", "--data-dir", dataDir}, args...), &out, &errOut, startNode)
			require.Equal(t, 1, code)
			require.Regexp(t, `^cornice: [^\n]+\n$`, errOut.String())
			require.NoDirExists(t, dataDir)
		})
	}
}

func TestStartError(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	start := func(context.Context, config.Config, *slog.Logger, runOptions) error {
		return errors.Join(errors.New("first"), errors.New("second"))
	}
	code := execute(t.Context(), []string{"run", "--data-dir", t.TempDir()}, &out, &errOut, start)
	require.Equal(t, 1, code)
	require.Equal(t, "cornice: first\ncornice: second\n", errOut.String())
}

func TestRunHelpShowsDefaults(t *testing.T) {
	t.Parallel()
	_, started, code, stdout, stderr := runCLI(t, "run", "--help")
	require.False(t, started)
	require.Equal(t, 0, code)
	require.Empty(t, stderr)
	for _, want := range []string{
		"--network-id network", "(default local)",
		"--http-port port", "(default 9650)",
		"--http-host string", `(default "127.0.0.1")`,
		"--http-allowed-hosts strings", "(default localhost)",
		"--http-idle-timeout duration", "(default 2m0s)",
		"--index-enabled", "(default true)",
		"--log-level level", "(default info)",
		"--uptime-requirement float", "(default 0.8)",
		"--config-file path",
	} {
		require.Contains(t, stdout, want)
	}
	for _, s := range config.Settings() {
		require.Contains(t, stdout, "--"+s.Name+" ")
	}
}

// TestRunRealNode starts a real node with a context that is already cancelled, as after SIGINT:
// it builds, shuts down cleanly and exits 0, leaving its generated identity in the data dir.
func TestRunRealNode(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out, errOut bytes.Buffer
	code := execute(ctx, []string{
		"run", "--data-dir", dataDir, "--http-port=0", "--staking-port=0", "--log-level=error",
	}, &out, &errOut, startNode)
	require.Equal(t, 0, code, errOut.String())
	require.Empty(t, errOut.String())
	key, cert, _ := config.Config{DataDir: dataDir}.StakingKeyPaths()
	signer, _ := config.Config{DataDir: dataDir}.SignerKeyPath()
	for _, p := range []string{key, cert, signer} {
		require.FileExists(t, p)
	}
}
