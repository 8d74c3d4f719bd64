// Package localnet runs a local network of cornice nodes, each a `cornice run` process of its
// own, as avalanche-cli's `network start` and the reference's tmpnet do: the first five nodes
// are the local genesis's five initial stakers (their certificates and BLS keys are embedded),
// so the Primary Network's validator set is exactly them; each node is given the others as
// bootstrap peers, which is how a node knows it runs among other validators (docs/decisions.md,
// "One node or many"). Node i (from 1) has its data in <dir>/node<i>, its HTTP API on
// HTTPPort + 2(i−1) and its staking port on StakingPort + 2(i−1).
//
// Start writes each node's identity on first use and starts every node that is not running, as
// a process that outlives the caller (its own process group, its output in <dir>/node<i>/log),
// then waits until the P-, X- and C-Chains of every node are bootstrapped. With L1s to make, it
// then creates each (a subnet, its chain, the subnet's conversion into an L1 with the first
// nodes as validators), restarts the nodes that do not validate them with --track-subnets, and
// waits until every node runs their chains too. Stop ends them with SIGTERM and waits; their data
// stays, and Start resumes them, L1s included. Status says which run.
//
// The package is a tool: it imports no node package, and talks to the nodes over HTTP.
package localnet

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Defaults of `cornice network start`: the reference's ports, one pair per node.
const (
	DefaultNodes       = 5
	DefaultHTTPPort    = 9650
	DefaultStakingPort = 9651
	// Stakers is how many initial stakers the local genesis has: nodes beyond them join as
	// non-validators.
	Stakers = 5
	// MaxNodes bounds a network's size.
	MaxNodes = 64
)

// stateFile is the network's description in its directory.
const stateFile = "network.json"

//go:embed stakers
var stakers embed.FS

// Config says what network to start.
type Config struct {
	// Binary is the cornice binary the nodes run.
	Binary string
	// Dir holds the network: its description and each node's data.
	Dir string
	// Nodes is the number of nodes, 1 to MaxNodes; zero means DefaultNodes. A network started
	// before keeps its size and ports: Start resumes it.
	Nodes int
	// HTTPPort and StakingPort are node 1's; zero means the defaults.
	HTTPPort, StakingPort int
	// Args are more `cornice run` flags for every node.
	Args []string
	// NodeArgs are more `cornice run` flags for some nodes, by name (node<i>), after Args: for
	// a role only one node has, such as the Interchain Messaging relay (--relay=true). Like
	// Args, they are the new network's: a network started before keeps its own.
	NodeArgs map[string][]string
	// L1s are L1s to make on the network, new or resumed, unless it has them already (same
	// genesis).
	L1s []L1Config
}

// Node is one node of a network.
type Node struct {
	// Name is node<i>.
	Name string `json:"name"`
	// NodeID is the node's ID; empty for a non-validator until it first ran.
	NodeID      string `json:"nodeID,omitempty"`
	HTTPPort    int    `json:"httpPort"`
	StakingPort int    `json:"stakingPort"`
}

// URI is the node's HTTP API.
func (n Node) URI() string { return "http://127.0.0.1:" + strconv.Itoa(n.HTTPPort) }

// state is what network.json holds.
type state struct {
	Nodes []Node   `json:"nodes"`
	Args  []string `json:"args,omitempty"`
	// NodeArgs are Config.NodeArgs.
	NodeArgs map[string][]string `json:"nodeArgs,omitempty"`
	L1s      []L1                `json:"l1s,omitempty"`
}

// NodeStatus is a node and whether its process runs.
type NodeStatus struct {
	Node
	PID     int
	Running bool
}

// Start starts every node of the network in cfg.Dir that is not running, creating the network
// on first use, and waits until all are ready or ctx ends. It returns the nodes.
func Start(ctx context.Context, cfg Config) ([]Node, error) {
	st, err := load(cfg.Dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		st, err = create(cfg)
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	for i, n := range st.Nodes {
		if _, running := pid(cfg.Dir, n); running {
			continue
		}
		if err := startNode(cfg.Binary, cfg.Dir, st, i); err != nil {
			return nil, err
		}
	}
	if err := waitAll(ctx, cfg.Dir, st); err != nil {
		return nil, err
	}
	made, err := createL1s(ctx, cfg.Dir, st, cfg.L1s)
	if err != nil {
		return nil, err
	}
	if !made {
		return st.Nodes, nil
	}
	// The nodes that do not validate every L1 run without --track-subnets for the new ones: a
	// restart gives it to them.
	for i, n := range st.Nodes {
		if validatesAll(st, n.Name) {
			continue
		}
		if err := stopNode(ctx, cfg.Dir, n); err != nil {
			return nil, err
		}
		if err := startNode(cfg.Binary, cfg.Dir, st, i); err != nil {
			return nil, err
		}
	}
	if err := waitAll(ctx, cfg.Dir, st); err != nil {
		return nil, err
	}
	return st.Nodes, nil
}

// waitAll waits until every node of st is ready.
func waitAll(ctx context.Context, dir string, st *state) error {
	for _, n := range st.Nodes {
		if err := waitReady(ctx, dir, n, chainsOf(st)); err != nil {
			return err
		}
	}
	return nil
}

// StartNode starts node name of the existing network in dir, if it is not running, with binary,
// and waits until it is ready or ctx ends: for tests that bring back one node of several.
func StartNode(ctx context.Context, binary, dir, name string) error {
	st, err := load(dir)
	if err != nil {
		return fmt.Errorf("no local network in %s: %w", dir, err)
	}
	for i, n := range st.Nodes {
		if n.Name != name {
			continue
		}
		if _, running := pid(dir, n); !running {
			if err := startNode(binary, dir, st, i); err != nil {
				return err
			}
		}
		return waitReady(ctx, dir, n, chainsOf(st))
	}
	return fmt.Errorf("no node %s", name)
}

// create writes a new network's description and its stakers' identities.
func create(cfg Config) (*state, error) {
	if cfg.Nodes == 0 {
		cfg.Nodes = DefaultNodes
	}
	if cfg.Nodes < 1 || cfg.Nodes > MaxNodes {
		return nil, fmt.Errorf("a local network has 1 to %d nodes, not %d", MaxNodes, cfg.Nodes)
	}
	if cfg.HTTPPort == 0 {
		cfg.HTTPPort = DefaultHTTPPort
	}
	if cfg.StakingPort == 0 {
		cfg.StakingPort = DefaultStakingPort
	}
	st := &state{Args: cfg.Args, NodeArgs: cfg.NodeArgs}
	for name := range cfg.NodeArgs {
		k, err := strconv.Atoi(strings.TrimPrefix(name, "node"))
		if err != nil || name != fmt.Sprintf("node%d", k) || k < 1 || k > cfg.Nodes {
			return nil, fmt.Errorf("flags for %q: the network has node1 to node%d", name, cfg.Nodes)
		}
	}
	for i := range cfg.Nodes {
		n := Node{Name: fmt.Sprintf("node%d", i+1), HTTPPort: cfg.HTTPPort + 2*i, StakingPort: cfg.StakingPort + 2*i}
		if n.HTTPPort > 65535 || n.StakingPort > 65535 {
			return nil, fmt.Errorf("%s's ports %d and %d: a port is at most 65535", n.Name, n.HTTPPort, n.StakingPort)
		}
		dir := filepath.Join(cfg.Dir, n.Name, "staking")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		if i < Stakers {
			id, err := writeStaker(dir, i+1)
			if err != nil {
				return nil, err
			}
			n.NodeID = id.String()
		}
		st.Nodes = append(st.Nodes, n)
	}
	if err := save(cfg.Dir, st); err != nil {
		return nil, err
	}
	return st, nil
}

// save writes the network's description.
func save(dir string, st *state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, stateFile), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write the network's description: %w", err)
	}
	return nil
}

// writeStaker writes local staker k's (1–5) certificate, key and BLS key into dir, where
// `cornice run` reads a node's identity by default, and returns its NodeID.
func writeStaker(dir string, k int) (ids.NodeID, error) {
	files := map[string]string{
		fmt.Sprintf("staker%d.crt", k): "staker.crt",
		fmt.Sprintf("staker%d.key", k): "staker.key",
		fmt.Sprintf("signer%d.key", k): "signer.key",
	}
	var nodeID ids.NodeID
	for from, to := range files {
		b, err := stakers.ReadFile("stakers/" + from)
		if err != nil {
			return nodeID, err
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o600); err != nil {
			return nodeID, fmt.Errorf("write staker %d's identity: %w", k, err)
		}
	}
	cert, err := staking.LoadOrGenerate(filepath.Join(dir, "staker.key"), filepath.Join(dir, "staker.crt"), false, nil)
	if err != nil {
		return nodeID, fmt.Errorf("read staker %d's certificate: %w", k, err)
	}
	return staking.NodeIDFromCert(cert.Leaf.Raw), nil
}

func load(dir string) (*state, error) {
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, err
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, stateFile), err)
	}
	return &st, nil
}

// args are node i's `cornice run` flags: its data dir and ports, every staker but itself as a
// bootstrap peer, the subnets of the network's L1s to track, then the network's flags and the
// node's own.
func args(dir string, st *state, i int) []string {
	n := st.Nodes[i]
	var ips, nodeIDs []string
	for j, o := range st.Nodes {
		if j == i || j >= Stakers {
			continue
		}
		ips = append(ips, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(o.StakingPort)).String())
		nodeIDs = append(nodeIDs, o.NodeID)
	}
	a := []string{"run",
		"--network-id=local",
		"--data-dir=" + filepath.Join(dir, n.Name),
		"--http-port=" + strconv.Itoa(n.HTTPPort),
		"--staking-port=" + strconv.Itoa(n.StakingPort),
	}
	if len(ips) > 0 {
		a = append(a, "--bootstrap-ips="+strings.Join(ips, ","), "--bootstrap-ids="+strings.Join(nodeIDs, ","))
	}
	a = append(a, trackArgs(st)...)
	a = append(a, st.Args...)
	return append(a, st.NodeArgs[n.Name]...)
}

// startNode starts node i as a process of its own group, so that it outlives the caller and a
// Ctrl-C in the caller's terminal does not reach it; its pid goes to <node dir>/pid.
func startNode(binary, dir string, st *state, i int) error {
	n := st.Nodes[i]
	nodeDir := filepath.Join(dir, n.Name)
	logFile, err := os.OpenFile(filepath.Join(nodeDir, "log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open %s's log: %w", n.Name, err)
	}
	defer logFile.Close()
	cmd := exec.Command(binary, args(dir, st, i)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", n.Name, err)
	}
	if err := os.WriteFile(filepath.Join(nodeDir, "pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600); err != nil {
		_ = cmd.Process.Kill()
		return fmt.Errorf("record %s's pid: %w", n.Name, err)
	}
	// Reap the process when it exits, whoever stops it, while this process lives.
	go func() { _ = cmd.Wait() }()
	return nil
}

// pid returns node n's recorded pid and whether that process runs.
func pid(dir string, n Node) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, n.Name, "pid"))
	if err != nil {
		return 0, false
	}
	p, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || p <= 0 {
		return 0, false
	}
	return p, alive(p)
}

// alive reports whether process p runs (a zombie does not).
func alive(p int) bool {
	if syscall.Kill(p, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
	if err != nil {
		return true // no procfs: trust the signal
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// readyChains are the chains besides the L1s' a node must have bootstrapped to be ready.
var readyChains = []string{"P", "X", "C"}

// chainsOf are the chains every node of st must have bootstrapped to be ready: P, X, C and the
// L1s'.
func chainsOf(st *state) []string {
	chains := slices.Clone(readyChains)
	for _, l := range st.L1s {
		chains = append(chains, l.BlockchainID)
	}
	return chains
}

// waitReady waits until node n's chains are bootstrapped; it fails early if the process exits.
func waitReady(ctx context.Context, dir string, n Node, chains []string) error {
	c := jsonrpc.NewClient(n.URI(), nil)
	for {
		if _, running := pid(dir, n); !running {
			return fmt.Errorf("%s exited; the end of its log (%s):\n%s", n.Name, filepath.Join(dir, n.Name, "log"), tail(filepath.Join(dir, n.Name, "log")))
		}
		ready := true
		for _, chain := range chains {
			if !chainReady(ctx, c, chain) {
				ready = false
				break
			}
		}
		if ready {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s is not ready: %w", n.Name, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// tail returns the last lines of a log file.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// Status returns each node of the network in dir and whether it runs.
func Status(dir string) ([]NodeStatus, error) {
	st, err := load(dir)
	if err != nil {
		return nil, fmt.Errorf("no local network in %s: %w", dir, err)
	}
	out := make([]NodeStatus, len(st.Nodes))
	for i, n := range st.Nodes {
		p, running := pid(dir, n)
		out[i] = NodeStatus{Node: n, PID: p, Running: running}
	}
	return out, nil
}

// Created returns the Config the network in dir was created with: its Nodes, node 1's ports, its
// Args and NodeArgs (Binary, Dir and L1s are not kept). Start resumes a network as it was
// created, whatever its Config says of these; a caller compares them to tell its user. The error
// wraps os.ErrNotExist when dir holds no network.
func Created(dir string) (Config, error) {
	st, err := load(dir)
	if err != nil {
		return Config{}, fmt.Errorf("no local network in %s: %w", dir, err)
	}
	cfg := Config{Nodes: len(st.Nodes), Args: st.Args, NodeArgs: st.NodeArgs}
	if len(st.Nodes) > 0 {
		cfg.HTTPPort, cfg.StakingPort = st.Nodes[0].HTTPPort, st.Nodes[0].StakingPort
	}
	return cfg, nil
}

// Stop sends SIGTERM to every running node of the network in dir and waits until all have
// exited, or ctx ends (then the rest get SIGKILL). Their data stays.
func Stop(ctx context.Context, dir string) error {
	nodes, err := Status(dir)
	if err != nil {
		return err
	}
	var running []int
	for _, n := range nodes {
		if n.Running {
			if err := syscall.Kill(n.PID, syscall.SIGTERM); err == nil {
				running = append(running, n.PID)
			}
		}
	}
	for _, p := range running {
		if err := waitExit(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// waitExit waits until process p has exited, or ctx ends (then it gets SIGKILL).
func waitExit(ctx context.Context, p int) error {
	for alive(p) {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(p, syscall.SIGKILL)
			return fmt.Errorf("node process %d did not stop: killed: %w", p, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

// stopNode sends SIGTERM to node n of the network in dir, if it runs, and waits until it has
// exited, or ctx ends.
func stopNode(ctx context.Context, dir string, n Node) error {
	p, running := pid(dir, n)
	if !running {
		return nil
	}
	if err := syscall.Kill(p, syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop %s: %w", n.Name, err)
	}
	return waitExit(ctx, p)
}

// StopNode stops node name of the network in dir as Stop does, for tests that restart one node.
func StopNode(ctx context.Context, dir, name string) error {
	st, err := load(dir)
	if err != nil {
		return fmt.Errorf("no local network in %s: %w", dir, err)
	}
	for _, n := range st.Nodes {
		if n.Name == name {
			return stopNode(ctx, dir, n)
		}
	}
	return fmt.Errorf("no node %s", name)
}

// L1s returns the L1s of the network in dir.
func L1s(dir string) ([]L1, error) {
	st, err := load(dir)
	if err != nil {
		return nil, fmt.Errorf("no local network in %s: %w", dir, err)
	}
	return st.L1s, nil
}

// Kill sends SIGKILL to node name of the network in dir, for tests of faults: its data stays,
// and Start brings it back.
func Kill(dir, name string) error {
	nodes, err := Status(dir)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if n.Name != name {
			continue
		}
		if !n.Running {
			return fmt.Errorf("%s is not running", name)
		}
		if err := syscall.Kill(n.PID, syscall.SIGKILL); err != nil {
			return fmt.Errorf("kill %s: %w", name, err)
		}
		for alive(n.PID) {
			time.Sleep(10 * time.Millisecond)
		}
		return nil
	}
	return fmt.Errorf("no node %s", name)
}
