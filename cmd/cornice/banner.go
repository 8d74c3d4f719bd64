package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/wallet"
)

// banner is what `cornice run` prints on stdout once the node serves (and the L1s of --l1
// exist): where to point a wallet and a client, which key is funded, and where the data is, as
// anvil's first screen says (issue #16 §3). Every URL is one the node serves, and every chain ID
// is what that chain's eth_chainId answers.
type banner struct {
	version   string
	networkID uint32
	nodeID    ids.NodeID
	// base is the node's HTTP base URL, e.g. http://127.0.0.1:9650.
	base string
	// evm lists the EVM chains, the C-Chain first; others the chains without an EVM (X, P).
	evm    []bannerEVM
	others []node.ServedChain
	// info and index say whether those APIs are served.
	info, index bool
	// key is the funded key the banner shows, nil on a network that funds none.
	key        *wallet.Key
	devMethods string
	dataDir    string
}

// bannerEVM is one EVM chain of the banner.
type bannerEVM struct {
	chain node.ServedChain
	// chainID is what the chain's eth_chainId answers, or "" if it did not answer (err says why).
	chainID string
	err     error
	// status is how --l1 got the chain ("created" or "reused"), "" for the others.
	status string
}

// evmSymbol is the native coin symbol of an EVM chain for a wallet's "add network": AVAX on the
// C-Chain; an L1's genesis names none (l1Symbol).
func evmSymbol(c node.ServedChain) string {
	if c.VMID == genesis.EVMID {
		return "AVAX"
	}
	return l1Symbol
}

// isEVM reports whether the chain runs an EVM (the C-Chain's VM or Subnet-EVM), whose API is
// /rpc and /ws.
func isEVM(c node.ServedChain) bool { return c.VMID == genesis.EVMID || c.VMID == node.SubnetEVMID }

// servedNode is what newBanner reads of a node.Node.
type servedNode interface {
	NodeID() ids.NodeID
	HTTPAddr() net.Addr
	Chains() []node.ServedChain
}

// bannerWait bounds the wait for the EVM chains' chain IDs.
const bannerWait = 10 * time.Second

// newBanner gathers the banner of the node n runs with cfg: its chains (asking each EVM chain
// its chain ID over HTTP, as a wallet would), and how --l1 got each of the L1s in l1s.
func newBanner(ctx context.Context, n servedNode, cfg config.Config, l1s []wallet.L1Result) banner {
	b := banner{
		version:    config.Current(),
		networkID:  cfg.NetworkID,
		nodeID:     n.NodeID(),
		base:       "http://" + userAddr(n.HTTPAddr()),
		info:       cfg.APIInfoEnabled,
		index:      cfg.IndexEnabled,
		devMethods: devMethods(cfg),
		dataDir:    cfg.DataDir,
	}
	if cfg.NetworkID == config.LocalID {
		// LocalKey parses: it is a constant that the wallet's tests pin.
		b.key, _ = wallet.ParseKey(wallet.LocalKey)
	}
	status := map[ids.ID]string{}
	for _, r := range l1s {
		status[r.BlockchainID] = "created"
		if r.Reused {
			status[r.BlockchainID] = "reused"
		}
	}
	// A chain that does not answer in time is shown as such, and the rest of the banner is not
	// held back.
	ctx, cancel := context.WithTimeout(ctx, bannerWait)
	defer cancel()
	client := jsonrpc.NewClient(b.base, nil)
	for _, c := range n.Chains() {
		if !isEVM(c) {
			b.others = append(b.others, c)
			continue
		}
		// The registry lists P, X, C, then the L1s in the order the node made them.
		e := bannerEVM{chain: c, status: status[c.ID]}
		var id hexutil.Big
		if e.err = client.Call(ctx, "/ext/bc/"+c.Alias+"/rpc", "eth_chainId", []any{}, &id); e.err == nil {
			e.chainID = id.ToInt().String()
		}
		b.evm = append(b.evm, e)
	}
	return b
}

// userAddr is addr as a user's client reaches it: the loopback address when the node listens on
// every interface (--http-host "").
func userAddr(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// devMethods says whether the EVM chains serve the anvil/Hardhat developer methods (issue #16 §1)
// and which setting decided it.
func devMethods(cfg config.Config) string {
	on := cfg.DevMethodsEnabled()
	switch {
	case cfg.DevMethods != config.SwitchAuto && on:
		return "on (--dev-methods)"
	case cfg.DevMethods != config.SwitchAuto:
		return "off (--dev-methods=false)"
	case on:
		return "on (auto: the node runs the local network alone)"
	}
	return "off (auto: on only for the local network alone)"
}

// bannerLabel is the width of the banner's label column.
const bannerLabel = 19

// write prints the banner to w.
func (b banner) write(w io.Writer) error {
	var s strings.Builder
	line := func(indent, label, value string) {
		s.WriteString(indent)
		s.WriteString(label)
		s.WriteString(strings.Repeat(" ", max(1, bannerLabel-len(indent)-len(label))))
		s.WriteString(value)
		s.WriteByte('\n')
	}
	fmt.Fprintf(&s, "%s serves network %s (ID %d) as %s\n", b.version, config.NetworkName(b.networkID), b.networkID, b.nodeID)

	s.WriteString("\nEVM chains (a wallet's \"add network\": RPC URL, chain ID, symbol)\n")
	if len(b.evm) == 0 {
		s.WriteString("  none: cornice has a genesis for the local network only (docs/configuration.md)\n")
	}
	for _, e := range b.evm {
		what := "chain ID " + e.chainID
		if e.err != nil {
			what = "chain ID unknown (" + e.err.Error() + ")"
		}
		what += ", symbol " + evmSymbol(e.chain)
		if e.status != "" {
			what += ", " + e.status + " by --l1"
		}
		name := e.chain.Name
		if e.chain.Alias == "C" {
			name = "C-Chain"
		}
		line("  ", name, what)
		url := b.base + "/ext/bc/" + e.chain.Alias
		line("    ", "rpc", url+"/rpc")
		line("    ", "ws", "ws://"+strings.TrimPrefix(url, "http://")+"/ws")
		if e.chain.Alias != "C" {
			line("    ", "validators", url+"/validators")
			line("    ", "blockchain ID", e.chain.ID.String())
			line("    ", "subnet ID", e.chain.SubnetID.String())
		}
	}

	s.WriteString("\nOther APIs\n")
	for _, c := range b.others {
		name := c.Name
		if c.Alias == "X" || c.Alias == "P" {
			name = c.Alias + "-Chain"
		}
		line("  ", name, b.base+"/ext/bc/"+c.Alias)
	}
	if b.info {
		line("  ", "info", b.base+"/ext/info")
	} else {
		line("  ", "info", "off (--api-info-enabled)")
	}
	if b.index {
		line("  ", "index", b.base+"/ext/index/<chain>/block (<chain>: P, X, C or a blockchain ID; X also /tx)")
	} else {
		line("  ", "index", "off (--index-enabled)")
	}

	if b.key != nil {
		s.WriteString("\nFunded key (the well-known local key: public, never use it on a real network)\n")
		line("  ", "private key", b.key.Hex())
		line("  ", "", b.key.String())
		line("  ", "C address", b.key.EthAddress().Hex())
		line("  ", "X address", b.key.ChainAddress("X", b.networkID))
		line("  ", "P address", b.key.ChainAddress("P", b.networkID))
	} else {
		s.WriteString("\nFunded key: none (only the local network's genesis funds one)\n")
	}

	s.WriteByte('\n')
	line("", "Dev methods", b.devMethods)
	line("", "Data dir", b.dataDir)
	_, err := io.WriteString(w, s.String())
	return err
}
