package config

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

func TestSettingsNames(t *testing.T) {
	t.Parallel()
	var names []string
	for _, s := range Settings() {
		names = append(names, s.Name)
		require.NotEmpty(t, s.Usage, s.Name)
	}
	require.Equal(t, []string{
		"data-dir", "network-id", "http-host", "http-port", "staking-port", "public-ip",
		"staking-host", "bootstrap-ips", "bootstrap-ids", "network-max-clock-difference",
		"network-ping-frequency", "network-allow-private-ips", "network-require-validator-to-connect",
		"http-allowed-hosts", "http-allowed-origins", "http-read-timeout", "http-read-header-timeout",
		"http-write-timeout", "http-idle-timeout", "http-shutdown-timeout",
		"http-batch-response-max-size", "http-heavy-calls", "api-admin-enabled",
		"api-info-enabled", "api-health-enabled", "api-metrics-enabled", "index-enabled",
		"index-allow-incomplete", "staking-tls-key-file", "staking-tls-cert-file",
		"staking-signer-key-file", "upgrade-file", "tx-fee", "create-asset-tx-fee",
		"uptime-requirement", "acp-support", "acp-object", "proposer-windows", "evm-block-time", "evm-logs-block-range-cap",
		"track-subnets", "chain-config-dir", "dev-methods", "relay",
		"snow-sample-size", "snow-quorum-size", "snow-preference-quorum-size", "snow-confidence-quorum-size",
		"snow-commit-threshold", "snow-concurrent-repolls", "snow-optimal-processing", "snow-max-processing",
		"snow-max-time-processing", "log-level", "log-format",
	}, names)
}

// settingCfg is a Config with a value other than the default in every setting.
func settingCfg() Config {
	return Config{
		DataDir:                  "/data",
		NetworkID:                99,
		HTTPHost:                 "0.0.0.0",
		HTTPPort:                 1,
		StakingPort:              2,
		PublicIP:                 "1.2.3.4",
		HTTPAllowedHosts:         []string{"a", "b"},
		HTTPAllowedOrigins:       []string{"https://x"},
		HTTPReadTimeout:          time.Second,
		HTTPReadHeaderTimeout:    2 * time.Second,
		HTTPWriteTimeout:         1500 * time.Millisecond,
		HTTPIdleTimeout:          time.Hour,
		HTTPShutdownTimeout:      time.Minute,
		HTTPBatchResponseMaxSize: 1000,
		HTTPHeavyCalls:           1,
		APIAdminEnabled:          true,
		IndexAllowIncomplete:     true,
		StakingTLSKeyFile:        "/k",
		StakingTLSCertFile:       "/c",
		StakingSignerKeyFile:     "/s",
		UpgradeFile:              "/u",
		TxFee:                    3,
		CreateAssetTxFee:         4,
		UptimeRequirement:        0.25,
		ACPSupport:               []uint32{1, 2},
		ACPObject:                []uint32{4294967295},
		ProposerWindows:          true,
		EVMBlockTime:             200 * time.Millisecond,
		EVMLogsBlockRangeCap:     10,
		TrackSubnets:             []ids.ID{{1}, {2, 3}},
		ChainConfigDir:           "/chains",
		DevMethods:               SwitchOff,
		Relay:                    SwitchOn,
		LogLevel:                 slog.LevelWarn,
		LogFormat:                LogFormatJSON,
		P2P: P2P{
			StakingHost:               "0.0.0.0",
			BootstrapIPs:              []string{"10.0.0.1:9651"},
			BootstrapIDs:              []ids.NodeID{{1}},
			MaxClockDifference:        time.Second,
			PingFrequency:             time.Second,
			RequireValidatorToConnect: true,
		},
	}
}

// TestSettingsRoundTrip checks that, for every setting, Set(String()) reproduces the field, from
// both the default and a non-default config, and that Copy copies exactly that field.
func TestSettingsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, src := range []Config{Default(), settingCfg()} {
		for _, s := range Settings() {
			text := s.Bind(&src).String()
			var dst Config
			require.NoError(t, s.Bind(&dst).Set(text), s.Name)
			require.Equal(t, text, s.Bind(&dst).String(), s.Name)

			var copied Config
			s.Copy(&copied, &src)
			require.Equal(t, dst, copied, s.Name)
		}
	}
}

func TestSettingsSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		texts   []string // given to Set in turn on one Value
		want    func(c *Config) any
		wantVal any
		wantErr string
	}{
		{name: "network-id", texts: []string{"Fuji"}, want: func(c *Config) any { return c.NetworkID }, wantVal: uint32(5)},
		{name: "network-id", texts: []string{"network-77"}, want: func(c *Config) any { return c.NetworkID }, wantVal: uint32(77)},
		{name: "network-id", texts: []string{"nope"}, wantErr: `failed to parse network name: "nope"`},
		{name: "http-port", texts: []string{"0"}, want: func(c *Config) any { return c.HTTPPort }, wantVal: uint16(0)},
		{name: "http-port", texts: []string{"65535"}, want: func(c *Config) any { return c.HTTPPort }, wantVal: uint16(65535)},
		{name: "http-port", texts: []string{"70000"}, wantErr: `invalid port "70000": must be a number from 0 to 65535`},
		{name: "staking-port", texts: []string{"-1"}, wantErr: `invalid port "-1": must be a number from 0 to 65535`},
		{name: "staking-port", texts: []string{"0x10"}, wantErr: `invalid port "0x10": must be a number from 0 to 65535`},
		{name: "http-read-timeout", texts: []string{"1m30s"}, want: func(c *Config) any { return c.HTTPReadTimeout }, wantVal: 90 * time.Second},
		{name: "http-read-timeout", texts: []string{"30"}, wantErr: `invalid duration "30"`},
		{name: "evm-block-time", texts: []string{"2s"}, want: func(c *Config) any { return c.EVMBlockTime }, wantVal: 2 * time.Second},
		{name: "evm-block-time", texts: []string{"fast"}, wantErr: `invalid duration "fast"`},
		{name: "evm-logs-block-range-cap", texts: []string{"0"}, want: func(c *Config) any { return c.EVMLogsBlockRangeCap }, wantVal: uint64(0)},
		{name: "evm-logs-block-range-cap", texts: []string{"-1"}, wantErr: `invalid amount "-1"`},
		{name: "index-enabled", texts: []string{"false"}, want: func(c *Config) any { return c.IndexEnabled }, wantVal: false},
		{name: "index-enabled", texts: []string{"yes"}, wantErr: `invalid boolean "yes"`},
		{name: "tx-fee", texts: []string{"-5"}, wantErr: `invalid amount "-5"`},
		{name: "uptime-requirement", texts: []string{"high"}, wantErr: `invalid number "high"`},
		{name: "log-level", texts: []string{"DEBUG"}, want: func(c *Config) any { return c.LogLevel }, wantVal: slog.LevelDebug},
		{name: "log-level", texts: []string{"warn"}, want: func(c *Config) any { return c.LogLevel }, wantVal: slog.LevelWarn},
		{name: "log-level", texts: []string{"error"}, want: func(c *Config) any { return c.LogLevel }, wantVal: slog.LevelError},
		{name: "log-format", texts: []string{"JSON"}, want: func(c *Config) any { return c.LogFormat }, wantVal: LogFormatJSON},
		{name: "log-format", texts: []string{"text"}, want: func(c *Config) any { return c.LogFormat }, wantVal: LogFormatText},
		{name: "log-format", texts: []string{"json", "auto"}, want: func(c *Config) any { return c.LogFormat }, wantVal: LogFormatAuto},
		{name: "log-format", texts: []string{"logfmt"}, wantErr: `invalid log format "logfmt": must be auto, text or json`},
		{name: "log-level", texts: []string{"trace"}, wantErr: `invalid log level "trace": must be debug, info, warn or error`},
		{name: "http-allowed-hosts", texts: []string{"a,b", "c"}, want: func(c *Config) any { return c.HTTPAllowedHosts }, wantVal: []string{"a", "b", "c"}},
		{name: "http-allowed-hosts", texts: []string{"a, b c,,"}, want: func(c *Config) any { return c.HTTPAllowedHosts }, wantVal: []string{"a", "b", "c"}},
		{name: "http-allowed-hosts", texts: []string{""}, want: func(c *Config) any { return c.HTTPAllowedHosts }, wantVal: []string(nil)},
		{name: "acp-support", texts: []string{"1, 2", "3"}, want: func(c *Config) any { return c.ACPSupport }, wantVal: []uint32{1, 2, 3}},
		{name: "acp-object", texts: []string{"1,x"}, wantErr: `invalid ACP number "x"`},
		{name: "track-subnets", texts: []string{ids.ID{1}.String() + " " + ids.ID{2}.String(), ids.ID{3}.String()},
			want: func(c *Config) any { return c.TrackSubnets }, wantVal: []ids.ID{{1}, {2}, {3}}},
		{name: "track-subnets", texts: []string{""}, want: func(c *Config) any { return c.TrackSubnets }, wantVal: []ids.ID(nil)},
		{name: "track-subnets", texts: []string{"nope"}, wantErr: `invalid subnet ID "nope": ` + idErr("nope")},
		{name: "chain-config-dir", texts: []string{"/etc/chains"}, want: func(c *Config) any { return c.ChainConfigDir }, wantVal: "/etc/chains"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ok := lookupSetting(tt.name)
			require.True(t, ok)
			c := Default()
			v := s.Bind(&c)
			var err error
			for _, text := range tt.texts {
				if err = v.Set(text); err != nil {
					break
				}
			}
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantVal, tt.want(&c))
		})
	}
}

func TestSettingIsBool(t *testing.T) {
	t.Parallel()
	for _, s := range Settings() {
		_, isBool := s.Bind(&Config{}).(interface{ IsBoolFlag() bool })
		require.Equal(t, isBool, s.IsBool(), s.Name)
	}
	s, _ := lookupSetting("index-enabled")
	require.True(t, s.IsBool())
	s, _ = lookupSetting("http-port")
	require.False(t, s.IsBool())
}

// idErr is the text of ids.FromString's error for s.
func idErr(s string) string {
	_, err := ids.FromString(s)
	return err.Error()
}

// FuzzIDsValue checks that a --track-subnets text either fails or parses into IDs whose text form
// parses back to the same IDs.
func FuzzIDsValue(f *testing.F) {
	f.Add(ids.ID{1}.String() + "," + ids.ID{2}.String())
	f.Add("11111111111111111111111111111111LpoYY")
	f.Add(" , x")
	f.Fuzz(func(t *testing.T, text string) {
		var got []ids.ID
		if err := newIDsValue(&got).Set(text); err != nil {
			return
		}
		var again []ids.ID
		v := newIDsValue(&again)
		require.NoError(t, v.Set(newIDsValue(&got).String()))
		require.Equal(t, got, again)
	})
}

// --dev-methods is auto by default, on for the local network alone, a switch a flag may give
// without a value, and refused on for mainnet and fuji (issue #16 §2).
func TestDevMethods(t *testing.T) {
	t.Parallel()
	c := Default()
	require.Equal(t, SwitchAuto, c.DevMethods)
	require.True(t, c.DevMethodsEnabled(), "the local network alone")
	c.P2P.BootstrapIPs = []string{"127.0.0.1:9651"}
	require.False(t, c.DevMethodsEnabled(), "a node with peers")
	c = Default()
	c.NetworkID = 1337
	require.False(t, c.DevMethodsEnabled(), "another network")

	s, ok := lookupSetting("dev-methods")
	require.True(t, ok)
	require.True(t, s.IsBool(), "--dev-methods alone means true")
	v := s.Bind(&c)
	for text, want := range map[string]Switch{"true": SwitchOn, "false": SwitchOff, "AUTO": SwitchAuto, "1": SwitchOn} {
		require.NoError(t, v.Set(text))
		require.Equal(t, want, c.DevMethods, text)
	}
	require.EqualError(t, v.Set("maybe"), `invalid auto or boolean "maybe"`)
	require.NoError(t, v.Set("true"))
	require.True(t, c.DevMethodsEnabled())
	require.Equal(t, "true", v.String())

	for _, id := range []uint32{MainnetID, FujiID} {
		c := Default()
		c.NetworkID, c.Upgrades = id, UpgradesFor(id)
		require.NoError(t, c.Validate())
		c.DevMethods = SwitchOn
		err := c.Validate()
		require.ErrorIs(t, err, ErrDevMethodsRefused)
		require.EqualError(t, err, "dev-methods cannot be turned on for network "+NetworkName(id))
	}
}

// --relay is auto by default: on for the local network alone, off with peers or elsewhere.
func TestRelaySwitch(t *testing.T) {
	t.Parallel()
	c := Default()
	require.Equal(t, SwitchAuto, c.Relay)
	require.True(t, c.RelayEnabled(), "the local network alone")
	c.P2P.BootstrapIPs = []string{"127.0.0.1:9651"}
	require.False(t, c.RelayEnabled(), "a node with peers")
	s, ok := lookupSetting("relay")
	require.True(t, ok)
	require.True(t, s.IsBool(), "--relay alone means true")
	require.NoError(t, s.Bind(&c).Set("true"))
	require.True(t, c.RelayEnabled())
	c = Default()
	require.NoError(t, s.Bind(&c).Set("false"))
	require.False(t, c.RelayEnabled())
}
