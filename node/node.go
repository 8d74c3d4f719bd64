// Package node builds a cornice node from a config.Config: database, identity, chains, APIs. It owns
// the order of start-up and shutdown: components start in dependency order and stop in reverse.
//
// A Node is built by New, which binds the HTTP listener (so the caller can learn the real address
// when the port is 0) and serves nothing until Run is called. Run blocks until its context is done,
// then shuts down gracefully. A Node is used by one goroutine; its accessors are safe for concurrent
// use.
//
// Chains outside the Primary Network come from the P-Chain (issue #6 §1): at start-up, and after
// every accepted P-Chain block on one worker goroutine, the node creates each recorded chain whose
// VM it has and whose subnet it tracks (--track-subnets) or validates, with its upgrade.json and
// config.json from the chain-config directory, serves its validators API (api/l1validators over
// an uptime.Tracker), and sets each subnet's validator set to the P-Chain's.
package node

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/engine"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/gossip"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/network"
	"github.com/cornice-node/cornice/router"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/validators"
	"github.com/cornice-node/cornice/vms/proposervm"
)

// maxShutdown bounds a graceful shutdown: a node asked to stop exits within 2 seconds, whatever its
// HTTP shutdown timeout says, so in-flight requests get what is left of that budget.
const maxShutdown = 1500 * time.Millisecond

// Node is a running cornice node.
type Node struct {
	cfg   config.Config
	log   *slog.Logger
	clock clock.Clock

	db         *storage.DB
	chains     *chains.Registry
	manager    *chains.Manager
	index      *index.Indexer
	health     *health.Checker
	validators *validators.Set
	metrics    *prometheus.Registry
	http       *api.Server
	httpAddr   net.Addr
	// vms are the VMs the node can run, by VM ID.
	vms VMs
	// subnets runs the chains of other subnets and refreshes their validators; nil without a
	// P-Chain.
	subnets *subnets

	// network is the peer-to-peer layer, bound at New and run by Run; peerEvents feeds its peers
	// to the uptime trackers, primaryUptime measures the Primary Network's validators.
	network       *network.Network
	stakingAddr   net.Addr
	peerEvents    *peerEvents
	primaryUptime *primaryUptime
	// stopNetwork stops a running network and waits for it; nil until Run starts it.
	stopNetwork func() error
	// router hands the network's chain messages to the chains' engines.
	router *router.Router
	// relay delivers Teleporter messages between the EVM chains; nil with --relay off or none
	// attached (AttachRelay). relayMu guards it: chains start on the subnet worker too.
	relayMu sync.Mutex
	relay   Relay
	// txPushers are the chains' transaction gossip pushers (node/txgossip.go), which send
	// through the router; pushersMu guards them: chains start on the subnet worker too.
	pushersMu sync.Mutex
	txPushers []*gossip.Pusher
	// networked is set when the node runs among other validators (it was given bootstrap
	// peers); genesisStakers are then the Primary Network's validators, from the local genesis
	// (docs/decisions.md, "One node or many").
	networked      bool
	genesisStakers map[ids.NodeID]uint64
	// proposers are the chains that run in proposer windows (node/proposer.go).
	proposers proposers

	nodeID  ids.NodeID
	tlsCert *tls.Certificate
	signer  *bls.SecretKey
	pop     *bls.ProofOfPossession
}

// New builds a node: it opens the database (failing at once if another process holds it), loads or
// generates the staking identity, builds every enabled API and binds the HTTP listener. On error
// everything opened so far is closed again.
//
// The node runs the Primary Network chains of its network's genesis whose VM is in vms, then the
// extra chains (tests use them to run test VMs), then every chain recorded on the P-Chain whose VM
// is in vms and whose subnet the node tracks (config.Config.TrackSubnets) or validates; it keeps
// starting such chains as the P-Chain accepts them, until it stops.
func New(cfg config.Config, log *slog.Logger, vms VMs, extra ...Chain) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, log: log, clock: clock.Real{}, metrics: prometheus.NewRegistry(), vms: vms}
	n.proposers.vms = make(map[ids.ID]*proposervm.VM)
	if err := n.build(vms, extra); err != nil {
		if n.http != nil {
			// Releases the bound listener; nothing is being served yet.
			_ = n.http.Shutdown(context.Background())
		}
		n.close()
		return nil, err
	}
	return n, nil
}

func (n *Node) build(vms VMs, extra []Chain) error {
	// The database comes first: its lock is what stops a second process on the same data dir
	// before that process writes anything.
	db, err := storage.Open(filepath.Join(n.cfg.DataDir, "db"), n.log.With("component", "storage"))
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	n.db = db
	// Synced commits (every accepted block, a developer's roll-back) sync faster into a
	// recycled log; the database makes one in the background.
	db.PrimeLog()
	if err := n.checkNetwork(); err != nil {
		return err
	}

	if err := n.loadIdentity(); err != nil {
		return err
	}

	n.chains, err = chains.NewRegistry(db.Prefixed(storage.PrefixChains), n.log.With("component", "chains"))
	if err != nil {
		return fmt.Errorf("load chain registry: %w", err)
	}
	// The P-Chain's ID is the all-zero ID on every network (node-api.md §3.3), so its aliases
	// resolve from the start, as on the reference node; X and C are aliased from the genesis.
	if err := n.chains.PreAlias(ids.Empty, "P", "platform"); err != nil {
		return fmt.Errorf("alias the P-Chain: %w", err)
	}

	n.validators = validators.New()
	n.networked = len(n.cfg.P2P.BootstrapIDs) > 0
	// Alone, the Primary Network's only validator is this node, holding the local genesis's
	// whole initial stake: the P-Chain is built with it (platform.Factory below). Every set, the
	// Primary Network's included, is then read from the P-Chain at start-up and after every
	// accepted block (startSubnets); this seed stands for nodes whose P-Chain runs another VM.
	// Among other validators, the Primary Network's are the genesis's stakers (primaryNetwork).
	if err := n.validators.Add(ids.Empty, n.nodeID, config.LocalGenesisStake); err != nil {
		return fmt.Errorf("seed validator set: %w", err)
	}
	if err := n.buildNetwork(); err != nil {
		return fmt.Errorf("create peer-to-peer network: %w", err)
	}

	n.index, err = index.New(index.Config{Enabled: n.cfg.IndexEnabled, AllowIncomplete: n.cfg.IndexAllowIncomplete},
		db.Prefixed(storage.PrefixIndex), n.clock, n.log.With("component", "index"))
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}

	n.metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if err := n.buildAPI(); err != nil {
		return err
	}

	// One set of bootstrap metrics for every chain of the node: each chain is a label.
	bsMetrics, err := bootstrap.NewMetrics(n.metrics)
	if err != nil {
		return err
	}
	bootIDs, _ := n.cfg.P2P.Bootstrappers()
	n.manager, err = chains.NewManager(chains.ManagerConfig{NetworkID: n.cfg.NetworkID}, chains.ManagerDeps{
		DB:       db,
		Registry: n.chains,
		Routes:   chainRoutes{srv: n.http, n: n},
		Indexer:  n.index,
		Engines: engine.Factory{
			NodeID:     n.nodeID,
			Validators: n.validators,
			Solo:       !n.networked,
			Router:     n.router,
			Params:     n.cfg.Snow.Parameters(),
			// The P-Chain bootstraps from the bootstrap peers, the others after it.
			BootstrapIDs:       bootIDs,
			PChainBootstrapped: make(chan struct{}),
			Metrics:            bsMetrics,
		},
		Clock: n.clock,
		Log:   n.log.With("component", "chains"),

		BLSKey:         n.signer,
		WarpValidators: warpValidators{n},
		WarpAggregator: n.signatureAggregator(),
	})
	if err != nil {
		return fmt.Errorf("create chain manager: %w", err)
	}
	primary, err := n.primaryNetwork(vms)
	if err != nil {
		return err
	}
	if n.genesisStakers != nil {
		if err := setWeights(n.validators, ids.Empty, maps.Clone(n.genesisStakers)); err != nil {
			return err
		}
	}
	if err := n.createChains(context.Background(), append(primary, extra...)); err != nil {
		return err
	}
	// The chains of other subnets come from the P-Chain's state, so a restart brings back every
	// chain that ran before.
	return n.startSubnets(context.Background())
}

// loadIdentity loads the staking TLS certificate and BLS key, generating them on first start.
func (n *Node) loadIdentity() error {
	keyPath, certPath, generate := n.cfg.StakingKeyPaths()
	cert, err := staking.LoadOrGenerate(keyPath, certPath, generate, n.clock)
	if err != nil {
		return fmt.Errorf("load staking certificate: %w", err)
	}
	n.tlsCert = cert
	n.nodeID = staking.NodeIDFromCert(cert.Leaf.Raw)

	signerPath, generateSigner := n.cfg.SignerKeyPath()
	sk, err := bls.LoadOrGenerateSecretKey(signerPath, generateSigner)
	if err != nil {
		return fmt.Errorf("load BLS signer key: %w", err)
	}
	n.signer = sk
	n.pop = bls.NewProofOfPossession(sk)
	return nil
}

// NodeID returns the node's ID, derived from its staking certificate.
func (n *Node) NodeID() ids.NodeID { return n.nodeID }

// HTTPAddr returns the address the HTTP server is bound to.
func (n *Node) HTTPAddr() net.Addr { return n.httpAddr }

// ServedChain is a chain the node runs, as a user addresses it.
type ServedChain struct {
	chains.Chain
	// Alias is the chain's primary alias (P, X, C), or its blockchain ID when it has none: its
	// APIs are served under /ext/bc/<Alias>.
	Alias string
}

// Chains returns the chains the node runs, in the order it created them: the Primary Network's
// (P, X, C on the local network), then those of other subnets, including those created while it
// runs.
func (n *Node) Chains() []ServedChain {
	var out []ServedChain
	for _, c := range n.chains.Chains() {
		alias, err := n.chains.PrimaryAlias(c.ID)
		if err != nil {
			alias = c.ID.String()
		}
		out = append(out, ServedChain{Chain: c, Alias: alias})
	}
	return out
}

// Run serves the APIs until ctx is done, then shuts down: it stops accepting requests, lets
// in-flight ones finish, flushes and closes the database. It returns nil after a clean shutdown.
func (n *Node) Run(ctx context.Context) error {
	n.logStart()
	n.runNetwork()

	serveErr := make(chan error, 1)
	go func() { serveErr <- n.http.Serve() }()

	select {
	case <-ctx.Done():
		return n.shutdown(serveErr)
	case err := <-serveErr:
		return errors.Join(fmt.Errorf("http server: %w", err), n.close())
	}
}

// logStart says the node serves, and which chains run: each was logged once as it was created
// ("chain created"), and this line names them all, or "none" on a network without a built-in
// genesis.
func (n *Node) logStart() {
	var running []string
	for _, c := range n.Chains() {
		running = append(running, c.Alias)
	}
	chains := strings.Join(running, ",")
	if chains == "" {
		chains = "none"
	}
	n.log.Info("cornice node started",
		"version", config.Current(),
		"nodeID", n.nodeID.String(),
		"httpAddr", n.httpAddr.String(),
		"stakingAddr", n.stakingAddr.String(),
		"dataDir", n.cfg.DataDir,
		"networkID", n.cfg.NetworkID,
		"networkName", config.NetworkName(n.cfg.NetworkID),
		"chains", chains,
	)
}

// shutdown stops the HTTP server (waiting for the Serve goroutine) and closes the database.
func (n *Node) shutdown(serveErr <-chan error) error {
	timeout := min(n.cfg.HTTPShutdownTimeout, maxShutdown)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := n.http.Shutdown(ctx)
	if serr := <-serveErr; serr != nil {
		err = errors.Join(err, serr)
	}
	n.log.Info("cornice node stopping")
	return errors.Join(err, n.close())
}

// close releases what build opened, in reverse order: the chains (their engines finish the
// block they are committing), then the database. It is safe on a partly built node.
func (n *Node) close() error {
	// Peers stop first: they report to the uptime trackers the subnet worker closes.
	var err error
	if n.stopNetwork != nil {
		if nerr := n.stopNetwork(); nerr != nil {
			err = fmt.Errorf("stop network: %w", nerr)
		}
		n.stopNetwork = nil
	} else if n.network != nil {
		err = n.network.Close()
	}
	n.network = nil
	// The relay sends to the chains: it stops before them.
	n.closeRelay()
	// The subnet worker creates chains through the manager: it stops next.
	err = errors.Join(err, n.subnets.close())
	n.subnets = nil
	if n.manager != nil {
		if cerr := n.manager.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("close chains: %w", cerr))
		}
		n.manager = nil
	}
	// The engines are stopped, and the gossip pushers stop now: no one sends any more (a batch
	// still waiting for its interval would call the router after it closed).
	n.closeTxGossip()
	if n.router != nil {
		n.router.Close()
		n.router = nil
	}
	if n.primaryUptime != nil {
		if cerr := n.primaryUptime.tracker.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("close Primary Network uptimes: %w", cerr))
		}
		n.primaryUptime = nil
	}
	if n.db != nil {
		if cerr := n.db.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("close database: %w", cerr))
		}
		n.db = nil
	}
	return err
}
