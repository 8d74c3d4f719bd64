package localnet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/wallet"
)

// L1Config is an L1 that Start makes on the network once its Primary Network is up.
type L1Config struct {
	// Genesis is the L1's Subnet-EVM genesis (examples/l1-genesis.json), sent as is.
	Genesis []byte
	// Name is the chain's name: 1 to 128 ASCII letters, digits and spaces.
	Name string
	// Validators is how many nodes validate it, the first ones; zero means every node.
	Validators int
	// Weight is each validator's weight; zero means wallet.DefaultL1Weight.
	Weight uint64
	// Manager is the address of the L1's validator manager on its chain (wallet.L1Request);
	// none means the empty address.
	Manager []byte
}

// L1 is an L1 of the network, as network.json records it.
type L1 struct {
	Name         string `json:"name"`
	BlockchainID string `json:"blockchainID"`
	SubnetID     string `json:"subnetID"`
	// Validators names the nodes that validate it; every node of the network runs its chain.
	Validators []string `json:"validators"`
	Weight     uint64   `json:"weight"`
	// Genesis is the hex SHA-256 of the genesis, by which Start knows it made this L1 already.
	Genesis string `json:"genesisSHA256"`
}

// RPC is the L1's EVM JSON-RPC endpoint on node n.
func (l L1) RPC(n Node) string { return n.URI() + "/ext/bc/" + l.BlockchainID + "/rpc" }

// l1Wait bounds each of the L1's txs and its chain's start when ctx has no deadline.
const l1Wait = 2 * time.Minute

// createL1s makes each L1 of want that the network has not yet, through node 1 with the
// well-known local key (which the local genesis funds), with the first nodes as validators; it
// records them in the network's description. It returns whether it made any: the nodes that do
// not validate one then need a restart, to track its subnet (args).
func createL1s(ctx context.Context, dir string, st *state, want []L1Config) (bool, error) {
	key, err := wallet.ParseKey(wallet.LocalKey)
	if err != nil {
		return false, err
	}
	wait := l1Wait
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d)
	}
	made := false
	for _, l := range want {
		sum := sha256.Sum256(l.Genesis)
		hash := hex.EncodeToString(sum[:])
		if slices.ContainsFunc(st.L1s, func(have L1) bool { return have.Genesis == hash }) {
			continue
		}
		n := l.Validators
		if n == 0 {
			n = len(st.Nodes)
		}
		if n < 1 || n > len(st.Nodes) {
			return made, fmt.Errorf("L1 %q: %d validators on a network of %d nodes", l.Name, n, len(st.Nodes))
		}
		weight := l.Weight
		if weight == 0 {
			weight = wallet.DefaultL1Weight
		}
		clients := make([]*wallet.Client, n)
		names := make([]string, n)
		for i, node := range st.Nodes[:n] {
			if clients[i], err = wallet.NewClient(node.URI(), nil); err != nil {
				return made, err
			}
			names[i] = node.Name
		}
		res, err := wallet.CreateL1(ctx, clients[0], key, wallet.L1Request{
			Genesis: l.Genesis, Name: l.Name, Balance: wallet.DefaultL1Balance, Weight: weight, Validators: clients, Manager: l.Manager,
		}, wait, clock.Real{})
		if err != nil {
			return made, fmt.Errorf("create L1 %q: %w", l.Name, err)
		}
		st.L1s = append(st.L1s, L1{Name: l.Name, BlockchainID: res.BlockchainID.String(), SubnetID: res.SubnetID.String(),
			Validators: names, Weight: weight, Genesis: hash})
		if err := save(dir, st); err != nil {
			return made, err
		}
		made = true
	}
	return made, nil
}

// trackArgs is the --track-subnets flag that makes a node run every L1 of st, or nothing when
// there is none. The validators of an L1 run its chain without it; the flag makes the others
// run it too, as the reference's tooling does.
func trackArgs(st *state) []string {
	if len(st.L1s) == 0 {
		return nil
	}
	subnets := make([]string, len(st.L1s))
	for i, l := range st.L1s {
		subnets[i] = l.SubnetID
	}
	return []string{"--track-subnets=" + strings.Join(subnets, ",")}
}

// validatesAll reports whether node name validates every L1 of st, so runs them all without
// --track-subnets.
func validatesAll(st *state, name string) bool {
	for _, l := range st.L1s {
		if !slices.Contains(l.Validators, name) {
			return false
		}
	}
	return true
}

// chainReady reports whether the node c talks to runs chain (an alias or a blockchain ID)
// bootstrapped.
func chainReady(ctx context.Context, c *jsonrpc.Client, chain string) bool {
	var res struct {
		IsBootstrapped bool `json:"isBootstrapped"`
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err := c.Call(cctx, "/ext/info", "info.isBootstrapped", map[string]string{"chain": chain}, &res)
	return err == nil && res.IsBootstrapped
}
