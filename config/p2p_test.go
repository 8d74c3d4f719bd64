package config

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
)

func TestP2PValidate(t *testing.T) {
	t.Parallel()
	id := ids.NodeID{1}
	tests := []struct {
		name    string
		modify  func(*P2P)
		wantErr string
	}{
		{name: "both lists", modify: func(p *P2P) { p.BootstrapIPs, p.BootstrapIDs = []string{"127.0.0.1:9651"}, []ids.NodeID{id} }},
		{name: "ips only", modify: func(p *P2P) { p.BootstrapIPs = []string{"127.0.0.1:9651"} },
			wantErr: `set "bootstrap-ips" but didn't set "bootstrap-ids"`},
		{name: "ids only", modify: func(p *P2P) { p.BootstrapIDs = []ids.NodeID{id} },
			wantErr: `set "bootstrap-ids" but didn't set "bootstrap-ips"`},
		{name: "lengths", modify: func(p *P2P) {
			p.BootstrapIPs, p.BootstrapIDs = []string{"127.0.0.1:9651", "127.0.0.1:9653"}, []ids.NodeID{id}
		}, wantErr: "expected the number of bootstrapIPs (2) to match the number of bootstrapIDs (1)"},
		{name: "bad ip", modify: func(p *P2P) { p.BootstrapIPs, p.BootstrapIDs = []string{"localhost:9651"}, []ids.NodeID{id} },
			wantErr: `couldn't parse bootstrap ip localhost:9651: ParseAddr("localhost"): unable to parse IP`},
		{name: "port 0", modify: func(p *P2P) { p.BootstrapIPs, p.BootstrapIDs = []string{"1.2.3.4:0"}, []ids.NodeID{id} },
			wantErr: "couldn't parse bootstrap ip 1.2.3.4:0: port 0"},
		{name: "clock", modify: func(p *P2P) { p.MaxClockDifference = 0 },
			wantErr: "network-max-clock-difference must be above 0, not 0s"},
		{name: "ping", modify: func(p *P2P) { p.PingFrequency = 30 * time.Second },
			wantErr: "network-ping-frequency must be above 0 and below 30s, not 30s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Default()
			c.DataDir = t.TempDir()
			tt.modify(&c.P2P)
			err := c.Validate()
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.wantErr)
		})
	}
}

func TestBootstrappers(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, flag := range []struct{ name, text string }{
		{"bootstrap-ips", "127.0.0.1:9651,[::1]:9653"},
		{"bootstrap-ids", "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"},
	} {
		s, ok := lookupSetting(flag.name)
		require.True(t, ok)
		require.NoError(t, s.Bind(&c).Set(flag.text))
	}
	gotIDs, addrs := c.P2P.Bootstrappers()
	require.Equal(t, []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:9651"), netip.MustParseAddrPort("[::1]:9653")}, addrs)
	require.Equal(t, "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", gotIDs[0].String())

	s, _ := lookupSetting("bootstrap-ids")
	err := s.Bind(&c).Set("NodeID-nope")
	require.ErrorContains(t, err, "couldn't parse bootstrap peer id NodeID-nope")
}
