package info_test

import (
	"bytes"
	"log/slog"
	"math"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
)

func TestBuiltinFxs(t *testing.T) {
	t.Parallel()
	// The fx IDs of node-api.md §3.10.
	want := []struct{ id, name string }{
		{"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ", "secp256k1fx"},
		{"qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT", "nftfx"},
		{"rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy", "propertyfx"},
	}
	fxs := info.BuiltinFxs()
	require.Len(t, fxs, len(want))
	for i, w := range want {
		require.Equal(t, w.id, fxs[i].ID.String())
		require.Equal(t, w.name, fxs[i].Name)
	}
}

func TestBuiltinVMIDs(t *testing.T) {
	t.Parallel()
	// The VM IDs of node-api.md §3.10 and Subnet-EVM's.
	for name, want := range map[string]string{
		"platformvm": "rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT",
		"avm":        "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq",
		"evm":        "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6",
		"subnetevm":  "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy",
	} {
		require.Equal(t, want, ids.FromName(name).String(), name)
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	t.Parallel()
	vmID := ids.FromName("avm")
	tests := []struct {
		name    string
		mutate  func(*info.Config, *info.Deps)
		wantMsg []string // substrings, all of which must appear
	}{
		{
			name:   "empty",
			mutate: func(c *info.Config, d *info.Deps) { *c = info.Config{}; *d = info.Deps{} },
			wantMsg: []string{
				"NodeID is required", "NodePOP is required", "NetworkID is required",
				"DatabaseVersion is required", "Deps.Chains is required", "Deps.Aliases is required",
				"Deps.Peers is required", "Deps.Validators is required", "Deps.NodeIP is required",
			},
		},
		{
			name:    "uptime requirement above 1",
			mutate:  func(c *info.Config, _ *info.Deps) { c.UptimeRequirement = 1.5 },
			wantMsg: []string{"UptimeRequirement must be from 0 to 1, not 1.5"},
		},
		{
			name:    "uptime requirement NaN",
			mutate:  func(c *info.Config, _ *info.Deps) { c.UptimeRequirement = math.NaN() },
			wantMsg: []string{"UptimeRequirement must be from 0 to 1"},
		},
		{
			name: "duplicate VM and alias",
			mutate: func(c *info.Config, _ *info.Deps) {
				c.VMs = []info.VM{{ID: vmID, Aliases: []string{"avm"}}, {ID: vmID, Aliases: []string{"avm"}}}
			},
			wantMsg: []string{"VM " + vmID.String() + " is listed twice", `alias "avm" names both VM`},
		},
		{
			name: "duplicate fx",
			mutate: func(c *info.Config, _ *info.Deps) {
				c.Fxs = append(info.BuiltinFxs(), info.BuiltinFxs()[0])
			},
			wantMsg: []string{"is listed twice"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			tt.mutate(&f.cfg, &f.deps)
			s, err := info.New(f.cfg, f.deps, slog.New(slog.DiscardHandler))
			require.ErrorIs(t, err, info.ErrInvalidConfig)
			require.Nil(t, s)
			for _, msg := range tt.wantMsg {
				require.ErrorContains(t, err, msg)
			}
		})
	}
}

func TestNewDefaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.cfg.Version = ""
	f.cfg.GitCommit = ""
	f.cfg.Fxs = nil
	s := f.service(t)

	v, err := s.GetNodeVersion(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Equal(t, config.Current(), v.Version)
	require.Equal(t, config.GitCommit(), v.GitCommit)

	vms, err := s.GetVMs(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Len(t, vms.Fxs, 3)
}

func TestNewCopiesConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.cfg.VMs = []info.VM{{ID: ids.FromName("avm"), Aliases: []string{"avm"}, Version: "1"}}
	s := f.service(t)
	f.cfg.VMs[0].Aliases[0] = "changed"
	f.cfg.VMs[0].Version = "2"

	v, err := s.GetNodeVersion(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"avm": "1"}, v.VMVersions)
}

func TestGetVMsAliases(t *testing.T) {
	t.Parallel()
	pluginID := ids.FromName("plugin")
	f := newFixture(t)
	f.cfg.VMs = []info.VM{
		// The alias equal to the ID's text is dropped (node-api.md §3.10).
		{ID: ids.FromName("avm"), Aliases: []string{"avm", ids.FromName("avm").String(), "xvm"}, Version: "a"},
		{ID: pluginID, Version: "p"},
	}
	f.cfg.Fxs = []info.Fx{}
	s := f.service(t)

	vms, err := s.GetVMs(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Equal(t,
		`{"vms":{"jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq":["avm","xvm"],"`+pluginID.String()+`":[]},"fxs":{}}`,
		marshal(t, vms))

	// A VM without aliases reports its version under its ID.
	v, err := s.GetNodeVersion(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"avm": "a", pluginID.String(): "p"}, v.VMVersions)
}

func TestGetNodeVersionNoVMs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.cfg.VMs = nil
	v, err := f.service(t).GetNodeVersion(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Equal(t,
		`{"version":"cornice/0.1.0","databaseVersion":"v1.4.5","rpcProtocolVersion":"45","gitCommit":"0123456789abcdef0123456789abcdef01234567","vmVersions":{}}`,
		marshal(t, v))
}

func TestGetNodeIP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ap   netip.AddrPort
		want string
	}{
		{"ipv4", netip.MustParseAddrPort("1.2.3.4:9651"), `{"ip":"1.2.3.4:9651"}`},
		{"ipv6 bracketed", netip.MustParseAddrPort("[::1]:9651"), `{"ip":"[::1]:9651"}`},
		{"unknown", netip.AddrPort{}, `{"ip":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.deps.NodeIP = func() netip.AddrPort { return tt.ap }
			reply, err := f.service(t).GetNodeIP(t.Context(), &struct{}{})
			require.NoError(t, err)
			require.Equal(t, tt.want, marshal(t, reply))
		})
	}
}

func TestGetTxFee(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var logs bytes.Buffer
	s, err := info.New(f.cfg, f.deps, slog.New(slog.NewTextHandler(&logs, nil)))
	require.NoError(t, err)

	reply, err := s.GetTxFee(t.Context(), &struct{}{})
	require.NoError(t, err)
	// The local network's result, verified on the reference node (node-api.md §3.9).
	require.Equal(t,
		`{"txFee":"1000000","createAssetTxFee":"1000000","createSubnetTxFee":"100000000","transformSubnetTxFee":"100000000","createBlockchainTxFee":"100000000","addPrimaryNetworkValidatorFee":"0","addPrimaryNetworkDelegatorFee":"0","addSubnetValidatorFee":"1000000","addSubnetDelegatorFee":"1000000"}`,
		marshal(t, reply))
	require.Contains(t, logs.String(), "level=WARN")
	require.Contains(t, logs.String(), "deprecated")
}

func TestGetNodeID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	reply, err := f.service(t).GetNodeID(t.Context(), &struct{}{})
	require.NoError(t, err)
	require.Equal(t, `{"nodeID":"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg","nodePOP":`+staker1POP+`}`, marshal(t, reply))

	// The PoP of the fixture is valid.
	pop := f.cfg.NodePOP
	require.NoError(t, pop.Verify())
}

func TestGetNetworkName(t *testing.T) {
	t.Parallel()
	for id, want := range map[uint32]string{1: "mainnet", 5: "fuji", 12345: "local", 99: "network-99"} {
		f := newFixture(t)
		f.cfg.NetworkID = id
		reply, err := f.service(t).GetNetworkName(t.Context(), &struct{}{})
		require.NoError(t, err)
		require.Equal(t, want, reply.NetworkName)
	}
}
