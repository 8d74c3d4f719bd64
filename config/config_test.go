package config

import (
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config/configtest"
	"github.com/cornice-node/cornice/ids"
)

func TestDefault(t *testing.T) {
	t.Parallel()
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	want := Config{
		DataDir:                  filepath.Join(home, ".cornice"),
		NetworkID:                12345,
		HTTPHost:                 "127.0.0.1",
		HTTPPort:                 9650,
		StakingPort:              9651,
		HTTPAllowedHosts:         []string{"localhost"},
		HTTPAllowedOrigins:       []string{"*"},
		HTTPReadTimeout:          30 * time.Second,
		HTTPReadHeaderTimeout:    30 * time.Second,
		HTTPWriteTimeout:         30 * time.Second,
		HTTPIdleTimeout:          120 * time.Second,
		HTTPShutdownTimeout:      10 * time.Second,
		HTTPBatchResponseMaxSize: 25_000_000,
		HTTPHeavyCalls:           2,
		APIInfoEnabled:           true,
		APIHealthEnabled:         true,
		APIMetricsEnabled:        true,
		IndexEnabled:             true,
		ProposerWindows:          true,
		Upgrades:                 UpgradesFor(LocalID),
		TxFee:                    1000000,
		CreateAssetTxFee:         1000000,
		UptimeRequirement:        0.8,
		EVMLogsBlockRangeCap:     2048,
		P2P: P2P{
			StakingHost:        "127.0.0.1",
			MaxClockDifference: time.Minute,
			PingFrequency:      22500 * time.Millisecond,
			AllowPrivateIPs:    true,
		},
		Snow: Snow{SampleSize: 20, PreferenceQuorumSize: 15, ConfidenceQuorumSize: 15, CommitThreshold: 20,
			ConcurrentRepolls: 4, OptimalProcessing: 10, MaxProcessing: 256, MaxTimeProcessing: 30 * time.Second},
		LogLevel: slog.LevelInfo,
	}
	got := Default()
	require.Equal(t, want, got)
	require.NoError(t, got.Validate())

	// Every call returns fresh slices.
	got.HTTPAllowedHosts[0] = "changed"
	require.Equal(t, []string{"localhost"}, Default().HTTPAllowedHosts)
}

func TestValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keyFile, certFile, signerFile := configtest.StakingFiles(t, dir)
	missing := filepath.Join(dir, "missing")
	upgradeFile := filepath.Join(dir, "upgrades.json")
	require.NoError(t, os.WriteFile(upgradeFile, []byte(`{}`), 0o600))

	tests := []struct {
		name    string
		modify  func(c *Config)
		wantErr string // "" for valid
	}{
		{name: "default", modify: func(*Config) {}},
		{name: "ports 0", modify: func(c *Config) { c.HTTPPort, c.StakingPort = 0, 0 }},
		{name: "IPv4", modify: func(c *Config) { c.PublicIP = "1.2.3.4" }},
		{name: "IPv6", modify: func(c *Config) { c.PublicIP = "::1" }},
		{name: "zero timeouts", modify: func(c *Config) {
			c.HTTPReadTimeout, c.HTTPReadHeaderTimeout, c.HTTPWriteTimeout, c.HTTPIdleTimeout, c.HTTPShutdownTimeout = 0, 0, 0, 0, 0
		}},
		{name: "explicit key files", modify: func(c *Config) {
			c.StakingTLSKeyFile, c.StakingTLSCertFile, c.StakingSignerKeyFile = keyFile, certFile, signerFile
		}},
		{name: "mainnet schedule", modify: func(c *Config) { c.NetworkID, c.Upgrades = MainnetID, UpgradesFor(MainnetID) }},
		{name: "custom network with upgrade file", modify: func(c *Config) {
			c.NetworkID, c.UpgradeFile = 99, upgradeFile
			c.Upgrades.HeliconTime = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		}},
		{name: "uptime bounds", modify: func(c *Config) { c.UptimeRequirement = 1 }},
		{name: "block time", modify: func(c *Config) { c.EVMBlockTime = 2 * time.Second }},
		{name: "tracked subnets", modify: func(c *Config) { c.TrackSubnets = []ids.ID{{1}, {2}} }},
		{name: "chain config dir", modify: func(c *Config) { c.ChainConfigDir = dir }},
		{name: "missing chain config dir", modify: func(c *Config) { c.ChainConfigDir = missing }},
		{name: "distinct ACPs", modify: func(c *Config) { c.ACPSupport, c.ACPObject = []uint32{1, 2}, []uint32{3} }},

		{name: "empty data dir", modify: func(c *Config) { c.DataDir = "" }, wantErr: "data-dir must not be empty"},
		{name: "network 0", modify: func(c *Config) { c.NetworkID = 0 }, wantErr: "network-id must not be 0"},
		{name: "same ports", modify: func(c *Config) { c.StakingPort = c.HTTPPort }, wantErr: "http-port and staking-port are both 9650"},
		{name: "bad IP", modify: func(c *Config) { c.PublicIP = "example.com" }, wantErr: `invalid public-ip "example.com": not an IP address`},
		{name: "negative timeout", modify: func(c *Config) { c.HTTPIdleTimeout = -time.Second }, wantErr: "http-idle-timeout must not be negative, not -1s"},
		{name: "negative block time", modify: func(c *Config) { c.EVMBlockTime = -time.Millisecond }, wantErr: "evm-block-time must not be negative, not -1ms"},
		{name: "uptime above 1", modify: func(c *Config) { c.UptimeRequirement = 1.5 }, wantErr: "uptime-requirement must be from 0 to 1, not 1.5"},
		{name: "uptime NaN", modify: func(c *Config) { c.UptimeRequirement = math.NaN() }, wantErr: "uptime-requirement must be from 0 to 1, not NaN"},
		{name: "ACP both ways", modify: func(c *Config) { c.ACPSupport, c.ACPObject = []uint32{7, 7}, []uint32{7} }, wantErr: "ACP 7 is in both acp-support and acp-object"},
		{name: "upgrade file on local", modify: func(c *Config) { c.UpgradeFile = upgradeFile }, wantErr: "cannot configure upgrades for networkID: local"},
		{name: "stale schedule for mainnet", modify: func(c *Config) { c.NetworkID = MainnetID }, wantErr: "cannot configure upgrades for networkID: mainnet"},
		{name: "fuji schedule changed", modify: func(c *Config) {
			c.NetworkID, c.Upgrades = FujiID, UpgradesFor(FujiID)
			c.Upgrades.GraniteEpochDuration++
		}, wantErr: "cannot configure upgrades for networkID: fuji"},
		{name: "custom schedule out of order", modify: func(c *Config) {
			c.NetworkID = 99
			c.Upgrades.ApricotPhase1Time = time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
		}, wantErr: "upgrade apricotPhase2Time (2020-12-05T05:00:00Z) is before apricotPhase1Time (2021-01-01T00:00:00Z)"},
		{name: "zero schedule", modify: func(c *Config) { c.NetworkID, c.Upgrades = 99, Upgrades{} }, wantErr: "upgrade graniteEpochDuration must be positive, not 0"},
		{name: "primary network tracked", modify: func(c *Config) { c.TrackSubnets = []ids.ID{{}} },
			wantErr: "track-subnets: 11111111111111111111111111111111LpoYY is the Primary Network, which every node runs"},
		{name: "subnet tracked twice", modify: func(c *Config) { c.TrackSubnets = []ids.ID{{1}, {1}} },
			wantErr: "track-subnets: subnet " + ids.ID{1}.String() + " is listed twice"},
		{name: "chain config dir is a file", modify: func(c *Config) { c.ChainConfigDir = keyFile },
			wantErr: "invalid chain-config-dir " + keyFile + ": not a directory"},
		{name: "missing key", modify: func(c *Config) { c.StakingTLSKeyFile = missing }, wantErr: "couldn't find staking key at " + missing + "\ncouldn't find staking certificate at " + filepath.Join(noStakingDir, "staking", "staker.crt")},
		{name: "missing cert", modify: func(c *Config) { c.StakingTLSKeyFile, c.StakingTLSCertFile = keyFile, missing }, wantErr: "couldn't find staking certificate at " + missing},
		{name: "missing signer", modify: func(c *Config) { c.StakingSignerKeyFile = missing }, wantErr: "could not read signing key from " + missing + ": file does not exist"},
		{name: "key is a directory", modify: func(c *Config) { c.StakingTLSKeyFile, c.StakingTLSCertFile = dir, certFile }, wantErr: "couldn't read staking key: " + dir + " is a directory"},
		{name: "every problem at once", modify: func(c *Config) {
			c.DataDir, c.PublicIP, c.UptimeRequirement = "", "x", -1
		}, wantErr: "data-dir must not be empty\ninvalid public-ip \"x\": not an IP address\nuptime-requirement must be from 0 to 1, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Default()
			c.DataDir = noStakingDir
			tt.modify(&c)
			err := c.Validate()
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.wantErr)
		})
	}
}

// noStakingDir is the data dir TestValidate's configs start from; it holds no staking files.
const noStakingDir = "/nonexistent/cornice-data"

func TestValidateErrorsIs(t *testing.T) {
	t.Parallel()
	c := Default()
	c.NetworkID = FujiID
	require.ErrorIs(t, c.Validate(), ErrUpgradesNotConfigurable)
}

func TestValidateUnreadableKey(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root can read any file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "signer.key")
	require.NoError(t, os.WriteFile(path, []byte("x"), 0o000))
	c := Default()
	c.StakingSignerKeyFile = path
	require.ErrorIs(t, c.Validate(), os.ErrPermission)
}

func TestStakingKeyPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name              string
		key, cert         string
		wantKey, wantCert string
		wantGenerate      bool
	}{
		{name: "defaults", wantKey: "/d/staking/staker.key", wantCert: "/d/staking/staker.crt", wantGenerate: true},
		{name: "both", key: "/k", cert: "/c", wantKey: "/k", wantCert: "/c"},
		{name: "key only", key: "/k", wantKey: "/k", wantCert: "/d/staking/staker.crt"},
		{name: "cert only", cert: "/c", wantKey: "/d/staking/staker.key", wantCert: "/c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Config{DataDir: "/d", StakingTLSKeyFile: tt.key, StakingTLSCertFile: tt.cert}
			key, cert, generate := c.StakingKeyPaths()
			require.Equal(t, tt.wantKey, key)
			require.Equal(t, tt.wantCert, cert)
			require.Equal(t, tt.wantGenerate, generate)
		})
	}
}

func TestChainConfigPath(t *testing.T) {
	t.Parallel()
	c := Default()
	c.DataDir = "/d"
	require.Equal(t, filepath.Join("/d", "configs", "chains"), c.ChainConfigPath())
	c.ChainConfigDir = "/etc/chains"
	require.Equal(t, "/etc/chains", c.ChainConfigPath())
}

func TestSignerKeyPath(t *testing.T) {
	t.Parallel()
	path, generate := Config{DataDir: "/d"}.SignerKeyPath()
	require.Equal(t, "/d/staking/signer.key", path)
	require.True(t, generate)

	path, generate = Config{DataDir: "/d", StakingSignerKeyFile: "/s"}.SignerKeyPath()
	require.Equal(t, "/s", path)
	require.False(t, generate)
}

func TestResolveUpgrades(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "upgrades.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"heliconTime":"2030-01-01T00:00:00Z"}`), 0o600))

	c := Default()
	c.NetworkID = MainnetID
	require.NoError(t, c.ResolveUpgrades())
	require.Equal(t, UpgradesFor(MainnetID), c.Upgrades)
	require.NoError(t, c.Validate())

	c.NetworkID, c.UpgradeFile = 99, file
	require.NoError(t, c.ResolveUpgrades())
	require.Equal(t, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), c.Upgrades.HeliconTime)
	require.NoError(t, c.Validate())

	// A fixed network keeps its schedule, and Validate reports the file.
	c.NetworkID = LocalID
	require.NoError(t, c.ResolveUpgrades())
	require.Equal(t, UpgradesFor(LocalID), c.Upgrades)
	require.EqualError(t, c.Validate(), "cannot configure upgrades for networkID: local")

	c.NetworkID, c.UpgradeFile = 99, filepath.Join(dir, "missing.json")
	require.ErrorIs(t, c.ResolveUpgrades(), os.ErrNotExist)
}

func TestLimitValue(t *testing.T) {
	t.Parallel()
	require.Equal(t, -1, LimitValue(0))
	require.Equal(t, 1, LimitValue(1))
	require.Equal(t, 25_000_000, LimitValue(DefaultHTTPBatchResponseMaxSize))
	require.Equal(t, math.MaxInt32, LimitValue(math.MaxInt32))
	require.Equal(t, -1, LimitValue(math.MaxInt32+1))
}
