package info_test

import (
	"flag"
	"log/slog"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/api/info/infotest"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/ids/idstest"
	"github.com/cornice-node/cornice/jsonrpc/jsonrpctest"
	"github.com/cornice-node/cornice/validators"
)

// *validators.Set is the Validators node/ passes.
var _ info.Validators = (*validators.Set)(nil)

var update = flag.Bool("update", false, "rewrite the <-- lines of testdata/*.txt with the responses received")

// Identities of the local stakers (node-api.md §4.1, §4.3).
const (
	staker1POP = `{"publicKey":"0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d","proofOfPossession":"0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2"}`
)

var (
	staker1 = idstest.Staker1
	staker2 = idstest.Staker2
	staker3 = idstest.Staker3
	staker4 = idstest.Staker4
	staker5 = idstest.Staker5

	// Chain IDs of the local network (node-api.md §3.3).
	xChainID = idstest.XChainID
	cChainID = idstest.CChainID

	// l1ID is a subnet other than the Primary Network.
	l1ID = ids.FromName("test-l1")
)

func staker1ProofOfPossession(t testing.TB) bls.ProofOfPossession {
	var pop bls.ProofOfPossession
	require.NoError(t, pop.UnmarshalJSON([]byte(staker1POP)))
	return pop
}

// testFixture is a node of the local network whose ID is staker1's.
type testFixture struct {
	cfg  info.Config
	deps info.Deps
	vdrs *validators.Set
}

// newFixture returns a fixture with the local network's values, three chains, the four built-in
// VMs, no peers and no validators.
func newFixture(t testing.TB) *testFixture {
	vdrs := validators.New()
	chains := infotest.Chains{
		{ID: ids.Empty, Aliases: []string{"P", "platform"}, Bootstrapped: true},
		{ID: xChainID, Aliases: []string{"X", "avm"}, Bootstrapped: true},
		{ID: cChainID, Aliases: []string{"C", "evm"}, Bootstrapped: false},
	}
	return &testFixture{
		cfg: info.Config{
			NodeID:            staker1,
			NodePOP:           staker1ProofOfPossession(t),
			NetworkID:         config.LocalID,
			Version:           "cornice/0.1.0",
			GitCommit:         "0123456789abcdef0123456789abcdef01234567",
			DatabaseVersion:   "v1.4.5",
			Upgrades:          config.UpgradesFor(config.LocalID),
			TxFees:            config.TxFeesFor(config.LocalID, 1_000_000, 1_000_000),
			UptimeRequirement: 0.8,
			VMs: []info.VM{
				{ID: ids.FromName("platformvm"), Aliases: []string{"platform"}, Version: "cornice/0.1.0"},
				{ID: ids.FromName("avm"), Aliases: []string{"avm"}, Version: "cornice/0.1.0"},
				{ID: ids.FromName("evm"), Aliases: []string{"evm"}, Version: "v0.1.0"},
				{ID: ids.FromName("subnetevm"), Aliases: []string{"subnetevm"}, Version: "v0.1.0"},
			},
		},
		deps: info.Deps{
			Chains:     chains,
			Aliases:    chains,
			Peers:      infotest.Peers(nil),
			Validators: vdrs,
			NodeIP:     infotest.NodeIP(netip.MustParseAddrPort("203.0.113.7:9651")),
		},
		vdrs: vdrs,
	}
}

// service builds the Service of the fixture.
func (f *testFixture) service(t testing.TB) *info.Service {
	t.Helper()
	s, err := info.New(f.cfg, f.deps, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	return s
}

// addValidator adds a Primary Network (or other subnet) validator to the fixture.
func (f *testFixture) addValidator(t testing.TB, subnetID ids.ID, nodeID ids.NodeID, weight uint64) {
	t.Helper()
	require.NoError(t, f.vdrs.Add(subnetID, nodeID, weight))
}

// at is a fixed time with a fraction of a second, in a zone other than UTC.
var at = time.Date(2023, time.November, 14, 23, 13, 20, 987_654_321, time.FixedZone("CET", 3600))

// wireFixture is the node the transcripts in testdata/ run against: the local network, staker1,
// validators with weights, three connected peers, one of them benched on the C-Chain.
func wireFixture(t testing.TB) *testFixture {
	f := newFixture(t)
	f.cfg.ACPs = []uint32{23, 24, 103}
	// Above 0.99, so that the uptimes 98 and 99 below miss it and the reference's example result
	// (node-api.md Appendix A) comes out.
	f.cfg.UptimeRequirement = 0.995
	f.addValidator(t, ids.Empty, staker1, 2000)
	f.addValidator(t, ids.Empty, staker2, 2000)
	f.addValidator(t, ids.Empty, staker3, 1000)
	f.addValidator(t, ids.Empty, staker4, 1000)
	f.addValidator(t, l1ID, staker1, 10)
	f.addValidator(t, l1ID, staker2, 30)
	f.deps.Peers = infotest.Peers{
		{
			IP:             netip.MustParseAddrPort("198.51.100.2:9651"),
			PublicIP:       netip.MustParseAddrPort("198.51.100.2:9651"),
			NodeID:         staker2,
			Version:        "cornice/0.1.0",
			UpgradeTime:    1700000000,
			LastSent:       at,
			LastReceived:   at.Add(-time.Second),
			ObservedUptime: 100,
			ObservedSubnetUptimes: map[ids.ID]uint32{
				l1ID: 50,
			},
			TrackedSubnets: []ids.ID{l1ID, ids.Empty},
			SupportedACPs:  []uint32{24, 103, 23},
			ObjectedACPs:   nil,
			Benched:        []ids.ID{cChainID},
		},
		{
			IP:             netip.MustParseAddrPort("[2001:db8::3]:9651"),
			NodeID:         staker3,
			Version:        "cornice/0.1.0",
			UpgradeTime:    1700000000,
			LastSent:       at,
			LastReceived:   at,
			ObservedUptime: 98,
			TrackedSubnets: []ids.ID{ids.Empty},
			ObjectedACPs:   []uint32{23},
		},
		{
			IP:             netip.MustParseAddrPort("198.51.100.4:9651"),
			NodeID:         staker4,
			Version:        "cornice/0.1.0",
			ObservedUptime: 99,
			TrackedSubnets: []ids.ID{ids.Empty},
		},
	}
	return f
}

// TestWire replays the request/response transcripts in testdata/ against the real JSON-RPC handler
// and compares response bodies byte for byte (STYLE.md rule 12). Run with -update to rewrite the
// expected responses, then review the diff.
func TestWire(t *testing.T) {
	t.Parallel()
	jsonrpctest.ReplayDir(t, func(t *testing.T, _ string) http.Handler {
		return wireFixture(t).service(t).Handler()
	}, *update)
}

// FuzzParams sends arbitrary params to the methods and checks that no call panics and each is
// answered with one JSON-RPC response (or nothing, for a notification).
func FuzzParams(f *testing.F) {
	methods := []string{"peers", "uptime", "isBootstrapped", "getBlockchainID", "acps", "getNodeID"}
	f.Add(uint8(0), `{"nodeIDs":["NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ","NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"]}`)
	f.Add(uint8(0), `[{"nodeIDs":null}]`)
	f.Add(uint8(1), `{"subnetID":"tGBrM5VqmzMF18qguHEUvvmqyTENgWyCmisrxW363mZP9VGQ3"}`)
	f.Add(uint8(1), `{"subnetID":""}`)
	f.Add(uint8(2), `{"chain":"X"}`)
	f.Add(uint8(3), `{"alias":"\u003c"}`)
	f.Add(uint8(4), `5`)
	f.Add(uint8(5), `null`)
	h := wireFixture(f).service(f).Handler()
	f.Fuzz(func(t *testing.T, m uint8, params string) {
		jsonrpctest.RequireEnvelope(t, h, "info."+methods[int(m)%len(methods)], params)
	})
}
