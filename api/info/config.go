package info

import (
	"context"
	"errors"
	"math"
	"net/netip"
	"time"

	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
)

// RPCProtocolVersion is the rpcProtocolVersion info.getNodeVersion reports: the reference's
// RPCChainVM protocol version at v1.14.2 (node-api.md §3.8). cornice runs no plugin VMs, so the
// number only tells clients which reference release this API matches.
const RPCProtocolVersion = 45

// Config holds the values the Info service reports. New copies it; later changes to the caller's
// slices have no effect.
type Config struct {
	// NodeID is this node's ID (info.getNodeID). Required.
	NodeID ids.NodeID
	// NodePOP is this node's BLS public key and proof of possession (info.getNodeID). Required.
	NodePOP bls.ProofOfPossession
	// NetworkID is the network this node runs (info.getNetworkID, info.getNetworkName). Required.
	NetworkID uint32

	// Version is the node's version string (info.getNodeVersion). Zero: config.Current().
	Version string
	// GitCommit is the commit the binary was built from. Zero: config.GitCommit(), which is itself
	// "" when the build carries none, as the reference allows (node-api.md §3.8).
	GitCommit string
	// DatabaseVersion is the version of the database format in use, as storage/ names it
	// (info.getNodeVersion databaseVersion). Required.
	DatabaseVersion string

	// Upgrades is the network's upgrade schedule, returned as is by info.upgrades.
	Upgrades config.Upgrades
	// TxFees are the network's fees, returned by the deprecated info.getTxFee.
	TxFees config.TxFees
	// UptimeRequirement is the fraction of time, from 0 to 1, a validator must be seen up to be
	// rewarded (info.uptime, node-api.md §3.12). Zero means any observed uptime qualifies; node/
	// passes config.UptimeRequirementFor.
	UptimeRequirement float64
	// ACPs is the node's known ACP set, the reference's CurrentACPs: info.acps reports an
	// abstainWeight for each of them (node-api.md §3.1). Zero: none, so info.acps lists only ACPs
	// that connected validators state.
	ACPs []uint32

	// VMs are the virtual machines the node can run (info.getVMs, and vmVersions of
	// info.getNodeVersion). Zero: none.
	VMs []VM
	// Fxs are the feature extensions the node knows (info.getVMs fxs). Zero: BuiltinFxs().
	Fxs []Fx
}

// VM describes one virtual machine the node can run.
type VM struct {
	// ID is the VM's ID, for the built-in VMs ids.FromName of "platformvm", "avm", "evm" or
	// "subnetevm".
	ID ids.ID
	// Aliases are the VM's names; the first is its primary alias, the key of its version in
	// info.getNodeVersion. An alias equal to the ID's own text is not listed by info.getVMs
	// (node-api.md §3.10). Zero: the VM is known by its ID only.
	Aliases []string
	// Version is the version string the VM reports (info.getNodeVersion vmVersions).
	Version string
}

// Fx is a feature extension: an ID and its name.
type Fx struct {
	ID   ids.ID
	Name string
}

// BuiltinFxs returns the feature extensions every node has, in the fixed fxs map of info.getVMs
// (node-api.md §3.10): secp256k1fx, nftfx and propertyfx, whose IDs are their names padded to 32
// bytes.
func BuiltinFxs() []Fx {
	names := []string{"secp256k1fx", "nftfx", "propertyfx"}
	fxs := make([]Fx, len(names))
	for i, name := range names {
		fxs[i] = Fx{ID: ids.FromName(name), Name: name}
	}
	return fxs
}

// Deps are the parts of the node the Info service reads. Every field is required unless its
// comment says otherwise.
type Deps struct {
	Chains     Chains
	Aliases    Aliases
	Peers      Peers
	Validators Validators
	// SubnetValidators gives the validator sets of subnets and L1s for info.uptime with a
	// subnetID other than the Primary Network's. Optional: nil leaves every set to Validators.
	SubnetValidators SubnetValidators
	// NodeIP returns the node's current public P2P address (its IP and the bound staking port),
	// which may change while the node runs (node-api.md §3.7).
	NodeIP func() netip.AddrPort
}

// Chains resolves chain aliases (info.getBlockchainID, info.isBootstrapped). Its errors are sent to
// clients as they are, so they must carry the reference's texts.
type Chains interface {
	// Lookup returns the ID of the chain with this alias or ID text. An unknown alias fails with
	// `there is no ID with alias: <alias>` (node-api.md §3.3).
	Lookup(alias string) (ids.ID, error)
	// IsBootstrapped reports whether the chain with this alias or ID text exists and has finished
	// bootstrapping. An unknown chain fails with `there is no chain with alias/ID '<chain>'`
	// (node-api.md §3.2).
	IsBootstrapped(alias string) (bool, error)
}

// Aliases names chains for info.peers' benched list.
type Aliases interface {
	// PrimaryAlias returns the chain's first alias ("C" for the C-Chain). A chain without one fails
	// with `there is no alias for ID: <id>` (node-api.md §3.11).
	PrimaryAlias(chainID ids.ID) (string, error)
}

// Peers lists the node's peers.
type Peers interface {
	// Connected returns every peer that has finished the handshake, in the order of the peer set.
	// The node itself is never among them. The slice and what it refers to are only read.
	Connected() []Peer
}

// Validators reads validator weights; *validators.Set satisfies it.
type Validators interface {
	// GetWeight returns nodeID's weight in subnetID's validator set, 0 if it is not a validator.
	GetWeight(subnetID ids.ID, nodeID ids.NodeID) uint64
	// TotalWeight returns the sum of the weights of subnetID's validators.
	TotalWeight(subnetID ids.ID) (uint64, error)
}

// SubnetValidators reads the current validator set of a subnet or L1 from the P-Chain: the set
// validators.getCurrentValidators serves for the subnet's chains (reference/README.md,
// "Precedence": info.uptime with subnetID).
type SubnetValidators interface {
	// SubnetWeights returns the weight of each current validator of subnetID: the L1 validators
	// that are active (the reference's validator set leaves out inactive ones), or the legacy
	// subnet validators. An unknown subnet has none. An error is sent to the client as
	// `couldn't get node uptime: <err>`. The map is only read.
	SubnetWeights(ctx context.Context, subnetID ids.ID) (map[ids.NodeID]uint64, error)
}

// Peer is what the network layer knows of one connected peer (node-api.md §3.11).
type Peer struct {
	// IP is the remote address of the connection. Zero prints as "".
	IP netip.AddrPort
	// PublicIP is the signed address the peer claimed in its handshake. Zero prints as "".
	PublicIP netip.AddrPort
	NodeID   ids.NodeID
	// Version is the peer's client version from the handshake, e.g. "cornice/0.1.0".
	Version string
	// UpgradeTime is the upgrade time from the peer's handshake, in unix seconds.
	UpgradeTime uint64
	// LastSent and LastReceived are when a message last went to and came from the peer. They are
	// reported at whole seconds in UTC; zero prints as the unix epoch, as the reference's unix-second
	// counters do before the first message.
	LastSent     time.Time
	LastReceived time.Time
	// ObservedUptime is this node's Primary Network uptime, 0–100, from the peer's latest Ping; 0
	// before the first one.
	ObservedUptime uint32
	// ObservedSubnetUptimes holds this node's uptime, 0–100, on other subnets, from the peer's latest
	// Ping (info.uptime with subnetID). A missing subnet counts as 0.
	ObservedSubnetUptimes map[ids.ID]uint32
	// TrackedSubnets are the subnets the peer tracks. The network layer includes the Primary
	// Network, as the reference adds it at handshake.
	TrackedSubnets []ids.ID
	// SupportedACPs and ObjectedACPs are the peer's ACP preferences from its handshake, already
	// filtered to the node's known ACP set.
	SupportedACPs []uint32
	ObjectedACPs  []uint32
	// Benched are the chains on which the peer is benched.
	Benched []ids.ID
}

// withDefaults returns a copy of cfg with zero fields that have defaults filled in and slices
// copied.
func (cfg Config) withDefaults() Config {
	if cfg.Version == "" {
		cfg.Version = config.Current()
	}
	if cfg.GitCommit == "" {
		cfg.GitCommit = config.GitCommit()
	}
	if cfg.Fxs == nil {
		cfg.Fxs = BuiltinFxs()
	} else {
		cfg.Fxs = append([]Fx(nil), cfg.Fxs...)
	}
	cfg.ACPs = append([]uint32(nil), cfg.ACPs...)
	vms := make([]VM, len(cfg.VMs))
	for i, vm := range cfg.VMs {
		vm.Aliases = append([]string(nil), vm.Aliases...)
		vms[i] = vm
	}
	cfg.VMs = vms
	return cfg
}

// Validate reports every problem with cfg at once, each wrapping ErrInvalidConfig.
func (cfg Config) Validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, configError(format, args...)) }

	if cfg.NodeID == ids.EmptyNodeID {
		add("NodeID is required")
	}
	if cfg.NodePOP == (bls.ProofOfPossession{}) {
		add("NodePOP is required")
	}
	if cfg.NetworkID == 0 {
		add("NetworkID is required")
	}
	if cfg.DatabaseVersion == "" {
		add("DatabaseVersion is required")
	}
	if math.IsNaN(cfg.UptimeRequirement) || cfg.UptimeRequirement < 0 || cfg.UptimeRequirement > 1 {
		add("UptimeRequirement must be from 0 to 1, not %v", cfg.UptimeRequirement)
	}

	vmIDs := make(map[ids.ID]bool, len(cfg.VMs))
	// Every alias names one VM: the primary aliases key vmVersions.
	aliases := make(map[string]ids.ID)
	for _, vm := range cfg.VMs {
		if vmIDs[vm.ID] {
			add("VM %s is listed twice", vm.ID)
		}
		vmIDs[vm.ID] = true
		for _, alias := range vm.Aliases {
			if other, ok := aliases[alias]; ok {
				add("alias %q names both VM %s and VM %s", alias, other, vm.ID)
				continue
			}
			aliases[alias] = vm.ID
		}
	}
	fxIDs := make(map[ids.ID]bool, len(cfg.Fxs))
	for _, fx := range cfg.Fxs {
		if fxIDs[fx.ID] {
			add("Fx %s is listed twice", fx.ID)
		}
		fxIDs[fx.ID] = true
	}
	return errors.Join(errs...)
}

// validate reports every missing dependency at once, each wrapping ErrInvalidConfig.
func (d Deps) validate() error {
	var errs []error
	add := func(name string) { errs = append(errs, configError("Deps.%s is required", name)) }
	if d.Chains == nil {
		add("Chains")
	}
	if d.Aliases == nil {
		add("Aliases")
	}
	if d.Peers == nil {
		add("Peers")
	}
	if d.Validators == nil {
		add("Validators")
	}
	if d.NodeIP == nil {
		add("NodeIP")
	}
	return errors.Join(errs...)
}
