package info

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Service implements the Info API. Its exported methods are the handlers, callable directly; over
// HTTP they are reached through Handler.
type Service struct {
	// nodeID and version are the constant replies of info.getNodeID and info.getNodeVersion,
	// encoded once in New; handlers share them and nothing writes to them afterwards.
	nodeID  *GetNodeIDReply
	version *GetNodeVersionReply

	cfg    Config
	deps   Deps
	log    *slog.Logger
	server *jsonrpc.Server
}

// New returns the Info service for cfg, reading the node through deps. It fails, wrapping
// ErrInvalidConfig, if cfg or deps are incomplete; every problem is reported at once.
func New(cfg Config, deps Deps, log *slog.Logger) (*Service, error) {
	cfg = cfg.withDefaults()
	if err := errors.Join(cfg.Validate(), deps.validate()); err != nil {
		return nil, err
	}
	s := &Service{
		cfg:    cfg,
		deps:   deps,
		log:    log,
		server: jsonrpc.NewServer("info", log),
	}
	if err := s.precompute(); err != nil {
		return nil, err
	}
	s.register()
	return s, nil
}

// register lists the methods of the service by their wire names (node-api.md §3).
func (s *Service) register() {
	srv := s.server
	jsonrpc.Register(srv, "acps", s.ACPs)
	jsonrpc.Register(srv, "isBootstrapped", s.IsBootstrapped)
	jsonrpc.Register(srv, "getBlockchainID", s.GetBlockchainID)
	jsonrpc.Register(srv, "getNetworkID", s.GetNetworkID)
	jsonrpc.Register(srv, "getNetworkName", s.GetNetworkName)
	jsonrpc.Register(srv, "getNodeID", s.GetNodeID)
	jsonrpc.Register(srv, "getNodeIP", s.GetNodeIP)
	jsonrpc.Register(srv, "getNodeVersion", s.GetNodeVersion)
	jsonrpc.Register(srv, "getTxFee", s.GetTxFee)
	jsonrpc.Register(srv, "getVMs", s.GetVMs)
	jsonrpc.Register(srv, "peers", s.Peers)
	jsonrpc.Register(srv, "uptime", s.Uptime)
	jsonrpc.Register(srv, "upgrades", s.Upgrades)
}

// Handler returns the JSON-RPC handler to mount at /ext/info.
func (s *Service) Handler() http.Handler {
	return s.server
}

// IsBootstrapped reports whether a chain has finished bootstrapping (node-api.md §3.2).
func (s *Service) IsBootstrapped(_ context.Context, args *IsBootstrappedArgs) (*IsBootstrappedReply, error) {
	if args.Chain == "" {
		return nil, errNoChainProvided
	}
	done, err := s.deps.Chains.IsBootstrapped(args.Chain)
	if err != nil {
		// The registry's text is the reference's (§3.2); it goes out unchanged.
		return nil, err
	}
	return &IsBootstrappedReply{IsBootstrapped: done}, nil
}

// GetBlockchainID returns the ID of the chain with an alias (node-api.md §3.3). An empty alias is
// looked up like any other and fails with the registry's `there is no ID with alias: `.
func (s *Service) GetBlockchainID(_ context.Context, args *GetBlockchainIDArgs) (*GetBlockchainIDReply, error) {
	id, err := s.deps.Chains.Lookup(args.Alias)
	if err != nil {
		return nil, err
	}
	return &GetBlockchainIDReply{BlockchainID: id}, nil
}

// GetNetworkID returns the network ID (node-api.md §3.4).
func (s *Service) GetNetworkID(context.Context, *struct{}) (*GetNetworkIDReply, error) {
	return &GetNetworkIDReply{NetworkID: jsonrpc.Uint32(s.cfg.NetworkID)}, nil
}

// GetNetworkName returns the network's name (node-api.md §3.5).
func (s *Service) GetNetworkName(context.Context, *struct{}) (*GetNetworkNameReply, error) {
	return &GetNetworkNameReply{NetworkName: config.NetworkName(s.cfg.NetworkID)}, nil
}

// GetNodeID returns the node's ID and BLS proof of possession (node-api.md §3.6).
func (s *Service) GetNodeID(context.Context, *struct{}) (*GetNodeIDReply, error) {
	return s.nodeID, nil
}

// GetNodeIP returns the node's current public P2P address (node-api.md §3.7).
func (s *Service) GetNodeIP(context.Context, *struct{}) (*GetNodeIPReply, error) {
	return &GetNodeIPReply{IP: formatAddrPort(s.deps.NodeIP())}, nil
}

// GetNodeVersion returns the versions of the node, its database and its VMs (node-api.md §3.8).
func (s *Service) GetNodeVersion(context.Context, *struct{}) (*GetNodeVersionReply, error) {
	return s.version, nil
}

// precompute builds and encodes the replies that never change, so that the most frequent calls
// cost no encoding.
func (s *Service) precompute() error {
	vmVersions := make(map[string]string, len(s.cfg.VMs))
	for _, vm := range s.cfg.VMs {
		name := vm.ID.String()
		if len(vm.Aliases) > 0 {
			name = vm.Aliases[0]
		}
		vmVersions[name] = vm.Version
	}
	s.version = &GetNodeVersionReply{
		Version:            s.cfg.Version,
		DatabaseVersion:    s.cfg.DatabaseVersion,
		RPCProtocolVersion: RPCProtocolVersion,
		GitCommit:          s.cfg.GitCommit,
		VMVersions:         vmVersions,
	}
	s.nodeID = &GetNodeIDReply{NodeID: s.cfg.NodeID, NodePOP: s.cfg.NodePOP}
	var err error
	if s.version.encoded, err = s.version.MarshalJSON(); err != nil {
		return fmt.Errorf("encode info.getNodeVersion reply: %w", err)
	}
	if s.nodeID.encoded, err = s.nodeID.MarshalJSON(); err != nil {
		return fmt.Errorf("encode info.getNodeID reply: %w", err)
	}
	return nil
}

// GetTxFee returns the network's transaction fees. It is deprecated, as in the reference since
// v1.12.2, and logs a warning on every call (node-api.md §3.9).
func (s *Service) GetTxFee(context.Context, *struct{}) (*GetTxFeeReply, error) {
	s.log.Warn("deprecated API called", "method", "info.getTxFee")
	f := s.cfg.TxFees
	return &GetTxFeeReply{
		TxFee:                         jsonrpc.Uint64(f.TxFee),
		CreateAssetTxFee:              jsonrpc.Uint64(f.CreateAssetTxFee),
		CreateSubnetTxFee:             jsonrpc.Uint64(f.CreateSubnetTxFee),
		TransformSubnetTxFee:          jsonrpc.Uint64(f.TransformSubnetTxFee),
		CreateBlockchainTxFee:         jsonrpc.Uint64(f.CreateBlockchainTxFee),
		AddPrimaryNetworkValidatorFee: jsonrpc.Uint64(f.AddPrimaryNetworkValidatorFee),
		AddPrimaryNetworkDelegatorFee: jsonrpc.Uint64(f.AddPrimaryNetworkDelegatorFee),
		AddSubnetValidatorFee:         jsonrpc.Uint64(f.AddSubnetValidatorFee),
		AddSubnetDelegatorFee:         jsonrpc.Uint64(f.AddSubnetDelegatorFee),
	}, nil
}

// GetVMs returns the VMs the node can run with their aliases, and the feature extensions
// (node-api.md §3.10).
func (s *Service) GetVMs(context.Context, *struct{}) (*GetVMsReply, error) {
	vms := make(map[ids.ID][]string, len(s.cfg.VMs))
	for _, vm := range s.cfg.VMs {
		// The alias equal to the VM's own ID text is left out, as the reference's
		// GetRelevantAliases does.
		self := vm.ID.String()
		aliases := make([]string, 0, len(vm.Aliases))
		for _, alias := range vm.Aliases {
			if alias != self {
				aliases = append(aliases, alias)
			}
		}
		vms[vm.ID] = aliases
	}
	fxs := make(map[ids.ID]string, len(s.cfg.Fxs))
	for _, fx := range s.cfg.Fxs {
		fxs[fx.ID] = fx.Name
	}
	return &GetVMsReply{VMs: vms, Fxs: fxs}, nil
}

// Upgrades returns the network's upgrade schedule (node-api.md §3.13).
func (s *Service) Upgrades(context.Context, *struct{}) (*config.Upgrades, error) {
	u := s.cfg.Upgrades
	return &u, nil
}

// formatAddrPort prints an address as "1.2.3.4:9651" or "[::1]:9651", and the zero address as ""
// (node-api.md §1.8).
func formatAddrPort(ap netip.AddrPort) string {
	if !ap.IsValid() {
		return ""
	}
	return ap.String()
}
