package node

import (
	"context"
	"fmt"
	"strconv"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/cornice-node/cornice/api"
	"github.com/cornice-node/cornice/api/admin"
	"github.com/cornice-node/cornice/api/health"
	"github.com/cornice-node/cornice/api/info"
	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/validators"
)

// The registry is what the Info and Admin services read chains through.
var (
	_ info.Chains     = (*chains.Registry)(nil)
	_ info.Aliases    = (*chains.Registry)(nil)
	_ admin.Chains    = (*chains.Registry)(nil)
	_ admin.Routes    = chainRoutes{}
	_ info.Validators = (*validators.Set)(nil)
)

// builtinVMs are the VMs cornice registers, with their primary alias first (node-api.md §3.10).
var builtinVMs = []struct {
	name    string
	aliases []string
}{
	{"platformvm", []string{"platform"}},
	{"avm", []string{"avm"}},
	{"evm", []string{"evm"}},
	{"subnetevm", []string{"subnetevm"}},
}

// buildAPI creates the HTTP server, binds its listener and mounts every enabled service.
func (n *Node) buildAPI() error {
	srv, err := api.New(api.Config{
		Host:              n.cfg.HTTPHost,
		Port:              n.cfg.HTTPPort,
		AllowedHosts:      n.cfg.HTTPAllowedHosts,
		AllowedOrigins:    n.cfg.HTTPAllowedOrigins,
		ReadTimeout:       n.cfg.HTTPReadTimeout,
		ReadHeaderTimeout: n.cfg.HTTPReadHeaderTimeout,
		WriteTimeout:      n.cfg.HTTPWriteTimeout,
		IdleTimeout:       n.cfg.HTTPIdleTimeout,
		ShutdownTimeout:   n.cfg.HTTPShutdownTimeout,
		// The EVM chains take the same batch cap from their evm.Config (cmd/cornice).
		BatchResponseMaxSize: config.LimitValue(n.cfg.HTTPBatchResponseMaxSize),
		HeavyCalls:           config.LimitValue(n.cfg.HTTPHeavyCalls),
	}, n.nodeID, n.log.With("component", "api"), n.metrics)
	if err != nil {
		return fmt.Errorf("create HTTP server: %w", err)
	}
	n.http = srv

	if n.cfg.APIInfoEnabled {
		if err := n.mountInfo(); err != nil {
			return err
		}
	}
	if n.cfg.APIHealthEnabled {
		if err := n.mountHealth(); err != nil {
			return err
		}
	}
	if n.cfg.APIMetricsEnabled {
		h := promhttp.HandlerFor(n.metrics, promhttp.HandlerOpts{ErrorLog: nil})
		if err := srv.AddRoute("metrics", h); err != nil {
			return fmt.Errorf("mount metrics API: %w", err)
		}
	}
	if n.cfg.APIAdminEnabled {
		svc := admin.New(n.chains, chainRoutes{srv: srv}, n.log.With("service", "admin"))
		if err := srv.AddRoute("admin", svc.Handler()); err != nil {
			return fmt.Errorf("mount admin API: %w", err)
		}
	}

	if err := n.mountSignatureAggregator(); err != nil {
		return err
	}

	addr, err := srv.Listen()
	if err != nil {
		return fmt.Errorf("listen for HTTP: %w", err)
	}
	n.httpAddr = addr
	return nil
}

func (n *Node) mountInfo() error {
	vms := make([]info.VM, 0, len(builtinVMs))
	for _, vm := range builtinVMs {
		vms = append(vms, info.VM{ID: ids.FromName(vm.name), Aliases: vm.aliases, Version: config.Current()})
	}
	svc, err := info.New(info.Config{
		NodeID:            n.nodeID,
		NodePOP:           *n.pop,
		NetworkID:         n.cfg.NetworkID,
		DatabaseVersion:   "v" + strconv.FormatUint(storage.Version, 10),
		Upgrades:          n.cfg.Upgrades,
		TxFees:            config.TxFeesFor(n.cfg.NetworkID, n.cfg.TxFee, n.cfg.CreateAssetTxFee),
		UptimeRequirement: config.UptimeRequirementFor(n.cfg.NetworkID, n.cfg.UptimeRequirement),
		VMs:               vms,
	}, info.Deps{
		Chains:     n.chains,
		Aliases:    n.chains,
		Peers:      infoPeers{n: n.network, router: n.router},
		Validators: n.validators,
		NodeIP:     n.network.IP,
	}, n.log.With("service", "info"))
	if err != nil {
		return fmt.Errorf("create info API: %w", err)
	}
	// Every info method answers from memory or from state reads that never wait: the route needs
	// no deadline context of its own.
	if err := n.http.AddRoute("info", api.Instant(svc.Handler())); err != nil {
		return fmt.Errorf("mount info API: %w", err)
	}
	return nil
}

func (n *Node) mountHealth() error {
	checker, err := health.New(health.Config{}, n.clock, n.log.With("service", "health"))
	if err != nil {
		return fmt.Errorf("create health API: %w", err)
	}
	n.health = checker
	dbCheck := func(ctx context.Context) (any, error) {
		if err := n.db.Ping(ctx); err != nil {
			return nil, err
		}
		return map[string]string{"dir": n.db.Dir()}, nil
	}
	for _, kind := range []health.Kind{health.Health, health.Readiness} {
		if err := checker.Register(kind, "database", nil, dbCheck); err != nil {
			return fmt.Errorf("register database health check: %w", err)
		}
	}
	// The reference's network check (§1.12); a lone development node passes it.
	if err := checker.Register(health.Health, "network", nil, n.network.HealthCheck); err != nil {
		return fmt.Errorf("register network health check: %w", err)
	}
	for path, h := range checker.Routes() {
		if err := n.http.AddRoute(path, h); err != nil {
			return fmt.Errorf("mount health API: %w", err)
		}
	}
	return nil
}

// chainRoutes serves the chains' routes (chains.Routes) and lets admin.aliasChain make
// /ext/bc/<alias> serve a chain's routes. n, when set, adds the node's own routes of each chain.
type chainRoutes struct {
	srv *api.Server
	n   *Node
}

func (r chainRoutes) AliasChainRoutes(id ids.ID, alias string) error {
	return r.srv.AddAliases("bc/"+id.String(), "bc/"+alias)
}
