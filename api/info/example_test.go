package info_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"

	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/api/info/infotest"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/validators"
)

// Example wires the Info service the way node/ does, with the validator set seeded from genesis
// and no peers yet, and calls it over HTTP.
func Example() {
	nodeID, _ := ids.NodeIDFromString("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")
	var pop bls.ProofOfPossession
	_ = pop.UnmarshalJSON([]byte(staker1POP))

	vdrs := validators.New()
	_ = vdrs.Add(ids.Empty, nodeID, 2000)
	chains := infotest.Chains{{ID: ids.Empty, Aliases: []string{"P", "platform"}, Bootstrapped: true}}

	s, err := info.New(info.Config{
		NodeID:            nodeID,
		NodePOP:           pop,
		NetworkID:         config.LocalID,
		DatabaseVersion:   "v1.4.5",
		Upgrades:          config.UpgradesFor(config.LocalID),
		TxFees:            config.TxFeesFor(config.LocalID, 1_000_000, 1_000_000),
		UptimeRequirement: config.UptimeRequirementFor(config.LocalID, 0.8),
	}, info.Deps{
		Chains:     chains,
		Aliases:    chains,
		Peers:      infotest.Peers(nil),
		Validators: vdrs,
		NodeIP:     infotest.NodeIP(netip.MustParseAddrPort("127.0.0.1:9651")),
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	for _, method := range []string{"getNetworkName", "uptime", "peers"} {
		body := `{"jsonrpc":"2.0","id":1,"method":"info.` + method + `"}`
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			fmt.Println(err)
			return
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(string(out))
	}
	// Output:
	// {"jsonrpc":"2.0","result":{"networkName":"local"},"id":1}
	// {"jsonrpc":"2.0","result":{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"},"id":1}
	// {"jsonrpc":"2.0","result":{"numPeers":"0","peers":[]},"id":1}
}
