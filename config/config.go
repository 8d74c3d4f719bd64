package config

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Config holds every setting of a node. It holds values only: nothing in it is opened or
// started, and it can be printed, compared and validated. Default gives the settings of
// `cornice run` with no flags; where a field's zero value differs from its default, its comment
// says what zero means. The flag of each field has the same name as its config-file key.
type Config struct {
	// DataDir is where the node keeps its database and staking keys (--data-dir). Default
	// ~/.cornice. Must not be empty.
	DataDir string

	// NetworkID is the network the node joins (--network-id). Default 12345 (local). Zero is
	// invalid.
	NetworkID uint32

	// HTTPHost is the address the API server binds (--http-host). Default "127.0.0.1"; "" binds
	// every interface; a hostname is resolved (node-api.md §2.1).
	HTTPHost string
	// HTTPPort is the API server's port (--http-port). Default 9650; 0 lets the OS choose.
	HTTPPort uint16
	// StakingPort is the peer-to-peer port (--staking-port). Default 9651; 0 lets the OS choose.
	// It must differ from HTTPPort unless both are 0.
	StakingPort uint16
	// PublicIP is the IP the node advertises to peers (--public-ip). Default "" (unset: the node
	// uses the address it binds). When set it must be an IPv4 or IPv6 address.
	PublicIP string

	// HTTPAllowedHosts lists the Host header names the API accepts (--http-allowed-hosts); "*"
	// accepts every host. Default ["localhost"]. Nil or empty accepts IP addresses only.
	HTTPAllowedHosts []string
	// HTTPAllowedOrigins lists the CORS origins the API allows (--http-allowed-origins). Default
	// ["*"]. Nil or empty allows no cross-origin request.
	HTTPAllowedOrigins []string

	// HTTPReadTimeout bounds reading a whole request (--http-read-timeout). Default 30s; 0 means
	// no timeout. The four HTTP timeouts and HTTPShutdownTimeout must not be negative.
	HTTPReadTimeout time.Duration
	// HTTPReadHeaderTimeout bounds reading request headers (--http-read-header-timeout). Default
	// 30s; 0 means HTTPReadTimeout applies (net/http's rule).
	HTTPReadHeaderTimeout time.Duration
	// HTTPWriteTimeout bounds writing a response (--http-write-timeout). Default 30s; 0 means no
	// timeout.
	HTTPWriteTimeout time.Duration
	// HTTPIdleTimeout bounds how long a keep-alive connection waits for the next request
	// (--http-idle-timeout). Default 120s; 0 means HTTPReadTimeout applies (net/http's rule).
	HTTPIdleTimeout time.Duration
	// HTTPShutdownTimeout bounds the graceful shutdown of the API server
	// (--http-shutdown-timeout). Default 10s; 0 closes connections at once.
	HTTPShutdownTimeout time.Duration
	// HTTPBatchResponseMaxSize caps, in bytes, the responses of one JSON-RPC batch on every
	// endpoint, node-native and EVM alike (--http-batch-response-max-size); the calls of a batch
	// past the cap are answered "response too large" (-32003), as go-ethereum does. Default
	// 25000000 (DefaultHTTPBatchResponseMaxSize, go-ethereum's). Zero, the zero value, means no
	// cap.
	HTTPBatchResponseMaxSize uint64
	// HTTPHeavyCalls bounds how many heavy requests (ranges of containers, pages of UTXOs, wide
	// log queries, batches holding one) the node serves at once (--http-heavy-calls); the others
	// wait for a slot, light calls never do. Default 2 (DefaultHTTPHeavyCalls). Zero, the zero
	// value, means no bound.
	HTTPHeavyCalls uint64

	// APIAdminEnabled serves /ext/admin (--api-admin-enabled). Default false.
	APIAdminEnabled bool
	// APIInfoEnabled serves /ext/info (--api-info-enabled). Default true; zero value false.
	APIInfoEnabled bool
	// APIHealthEnabled serves /ext/health (--api-health-enabled). Default true; zero value false.
	APIHealthEnabled bool
	// APIMetricsEnabled serves /ext/metrics (--api-metrics-enabled). Default true; zero value
	// false.
	APIMetricsEnabled bool

	// IndexEnabled indexes accepted containers and serves /ext/index (--index-enabled). Default
	// true: cornice deviates from the reference node, whose default is false (node-api.md §2.1).
	// Zero value false.
	IndexEnabled bool
	// IndexAllowIncomplete lets the node start when the index would be, or already is, missing
	// containers (--index-allow-incomplete; rules in node-api.md §5.7). Default false.
	IndexAllowIncomplete bool

	// StakingTLSKeyFile is the PEM file of the staking TLS key (--staking-tls-key-file). Default
	// "": <DataDir>/staking/staker.key, generated with its certificate when absent. A file given
	// explicitly must exist. See StakingKeyPaths.
	StakingTLSKeyFile string
	// StakingTLSCertFile is the PEM file of the staking TLS certificate
	// (--staking-tls-cert-file). Default "": <DataDir>/staking/staker.crt. See StakingKeyPaths.
	StakingTLSCertFile string
	// StakingSignerKeyFile is the file of the 32-byte BLS signer key (--staking-signer-key-file).
	// Default "": <DataDir>/staking/signer.key, generated when absent. A file given explicitly
	// must exist. See SignerKeyPath.
	StakingSignerKeyFile string

	// UpgradeFile is the file Upgrades was read from (--upgrade-file). Default "": Upgrades is
	// the built-in schedule of NetworkID. Only networks other than mainnet, fuji and local may
	// set it. ResolveUpgrades reads it.
	UpgradeFile string
	// Upgrades is the upgrade schedule in force: UpgradesFor(NetworkID), or the contents of
	// UpgradeFile. Default UpgradesFor(LocalID). For mainnet, fuji and local it must equal the
	// built-in schedule. The zero value is invalid.
	Upgrades Upgrades

	// TxFee is the base transaction fee in nAVAX (--tx-fee). Default 1000000. Mainnet and fuji
	// ignore it and use their genesis fee (node-api.md §3.9, TxFeesFor).
	TxFee uint64
	// CreateAssetTxFee is the fee of an X-Chain asset creation in nAVAX
	// (--create-asset-tx-fee). Default 1000000. Mainnet and fuji ignore it (TxFeesFor).
	CreateAssetTxFee uint64

	// UptimeRequirement is the fraction of time, from 0 to 1, a validator must be up to be
	// rewarded (--uptime-requirement). Default 0.8. Mainnet and fuji ignore it and use 0.8
	// (node-api.md §3.12, UptimeRequirementFor).
	UptimeRequirement float64

	// ACPSupport lists the ACPs this node states support for in its handshake (--acp-support).
	// Default none. An ACP may not be both supported and objected to.
	ACPSupport []uint32
	// ACPObject lists the ACPs this node objects to (--acp-object). Default none.
	ACPObject []uint32

	// ProposerWindows wraps the chains this node shares with other validators in proposer
	// windows, Snowman++ (--proposer-windows; docs/decisions.md, "Proposer windows"). Default
	// false: a transaction waits for its node's slot until transactions are gossiped to the slot's
	// proposer. It has no effect on a node that runs alone.
	ProposerWindows bool

	// EVMBlockTime is the least time between two blocks of the C-Chain (--evm-block-time).
	// Default and zero value 0: a block is built the moment a transaction is executable. With a
	// value, blocks are built at most once per interval and each takes every transaction pending
	// by then (interval building); a block is still never empty. Must not be negative. It applies
	// to the C-Chain only: an L1's EVM chain will take its block time from its own chain config.
	EVMBlockTime time.Duration
	// EVMLogsBlockRangeCap is how many blocks one eth_getLogs or eth_getFilterLogs query of the
	// C-Chain may span (--evm-logs-block-range-cap); a longer range is refused with "exceed
	// maximum block range: <cap>". Default 2048 (DefaultEVMLogsBlockRangeCap, the same as
	// vms/evm's). Zero, the zero value, means no cap.
	EVMLogsBlockRangeCap uint64

	// TrackSubnets lists the subnets whose chains this node runs besides the Primary Network's
	// (--track-subnets, CB58 subnet IDs separated by commas or spaces). Default none. A node
	// always runs the chains of the subnets it validates, tracked or not. The Primary Network
	// (the empty ID) may not be listed.
	TrackSubnets []ids.ID
	// ChainConfigDir holds one directory per chain, named by its blockchain ID or an alias, with
	// the chain's config.json and upgrade.json (--chain-config-dir; l1-evm.md §4.5). Default "":
	// <DataDir>/configs/chains (see ChainConfigPath). A missing directory means no chain has a
	// config; a path that exists must be a directory.
	ChainConfigDir string

	// DevMethods turns the EVM chains' developer methods (anvil_*, hardhat_*, evm_*: mining on
	// demand, state edits, snapshots, time travel; issue #16) on or off (--dev-methods).
	// Default and zero value SwitchAuto: on for a node that runs the local network alone (no
	// bootstrap nodes), off elsewhere. They may not be turned on for mainnet or fuji. See
	// DevMethodsEnabled.
	DevMethods Switch

	// Relay turns the built-in Interchain Messaging relay on or off (--relay; package relay).
	// Default and zero value SwitchAuto: on for a node that runs the local network alone, off
	// elsewhere. See RelayEnabled.
	Relay Switch

	// P2P holds the peer-to-peer settings (config/p2p.go).
	P2P P2P

	// Snow holds the Snowman consensus parameters (config/snow.go). Default DefaultSnow(); the
	// zero value is invalid.
	Snow Snow

	// LogLevel is the lowest level logged (--log-level: debug, info, warn or error). Default
	// and zero value: info.
	LogLevel slog.Level
	// LogFormat is how log records are written (--log-format). Default and zero value:
	// LogFormatAuto.
	LogFormat LogFormat
}

// LogFormat is the form of the node's log lines on stderr.
type LogFormat uint8

// The log formats of --log-format.
const (
	// LogFormatAuto is LogFormatText when stderr is a terminal, LogFormatJSON otherwise: a person
	// reads the first, a program (a log collector, a test) parses the second.
	LogFormatAuto LogFormat = iota
	// LogFormatText is short aligned lines for a person, coloured on a terminal.
	LogFormatText
	// LogFormatJSON is one JSON object per line, as log/slog's JSON handler writes it.
	LogFormatJSON
)

// logFormatNames are the names of --log-format, indexed by LogFormat.
var logFormatNames = [...]string{LogFormatAuto: "auto", LogFormatText: "text", LogFormatJSON: "json"}

// String returns the format's name as --log-format takes it.
func (f LogFormat) String() string {
	if int(f) < len(logFormatNames) {
		return logFormatNames[f]
	}
	return "LogFormat(" + strconv.Itoa(int(f)) + ")"
}

// Defaults of the HTTP server (node-api.md §2.1) and other settings.
const (
	defaultHTTPHost    = "127.0.0.1"
	defaultHTTPPort    = 9650
	defaultStakingPort = 9651
	defaultDataDirName = ".cornice"
)

// Defaults of the API limits (issue #11 §6): the batch response cap is the JSON-RPC engine's
// (go-ethereum's), so the flag, the engine and the EVM chains share one number.
const (
	DefaultHTTPBatchResponseMaxSize = jsonrpc.DefaultBatchResponse
	DefaultHTTPHeavyCalls           = 2
)

// LimitValue converts a limit of Config, whose 0 means no limit, to the convention of the
// lower layers' configs (api.Config, evm.Config), whose zero means their default and whose
// negative value means no limit: 0, and any value past math.MaxInt32 (no limit in practice),
// give -1.
func LimitValue(n uint64) int {
	if n == 0 || n > math.MaxInt32 {
		return -1
	}
	return int(n)
}

// DefaultEVMLogsBlockRangeCap is the default of Config.EVMLogsBlockRangeCap (issue #4 §3).
const DefaultEVMLogsBlockRangeCap = 2048

// Default returns the settings of `cornice run` with no flags. DataDir is ~/.cornice, expanded
// with the user's home directory; if that is unknown, it is .cornice in the working directory.
func Default() Config {
	dataDir := defaultDataDirName
	if home, err := os.UserHomeDir(); err == nil {
		dataDir = filepath.Join(home, defaultDataDirName)
	}
	return Config{
		DataDir:                  dataDir,
		NetworkID:                LocalID,
		HTTPHost:                 defaultHTTPHost,
		HTTPPort:                 defaultHTTPPort,
		StakingPort:              defaultStakingPort,
		HTTPAllowedHosts:         []string{"localhost"},
		HTTPAllowedOrigins:       []string{"*"},
		HTTPReadTimeout:          30 * time.Second,
		HTTPReadHeaderTimeout:    30 * time.Second,
		HTTPWriteTimeout:         30 * time.Second,
		HTTPIdleTimeout:          120 * time.Second,
		HTTPShutdownTimeout:      10 * time.Second,
		HTTPBatchResponseMaxSize: DefaultHTTPBatchResponseMaxSize,
		HTTPHeavyCalls:           DefaultHTTPHeavyCalls,
		APIInfoEnabled:           true,
		APIHealthEnabled:         true,
		APIMetricsEnabled:        true,
		IndexEnabled:             true,
		Upgrades:                 UpgradesFor(LocalID),
		TxFee:                    defaultTxFee,
		CreateAssetTxFee:         defaultTxFee,
		UptimeRequirement:        defaultUptimeRequirement,
		EVMLogsBlockRangeCap:     DefaultEVMLogsBlockRangeCap,
		P2P:                      DefaultP2P(),
		Snow:                     DefaultSnow(),
		LogLevel:                 slog.LevelInfo,
	}
}

// ResolveUpgrades sets Upgrades for the current NetworkID and UpgradeFile: the file's schedule
// when UpgradeFile is set on a network that may use one, else the built-in schedule. It reads
// the file; Validate reports an UpgradeFile on mainnet, fuji or local.
func (c *Config) ResolveUpgrades() error {
	if c.UpgradeFile == "" || hasFixedUpgrades(c.NetworkID) {
		c.Upgrades = UpgradesFor(c.NetworkID)
		return nil
	}
	u, err := LoadUpgradeFile(c.UpgradeFile)
	if err != nil {
		return err
	}
	c.Upgrades = u
	return nil
}

// Validate reports every problem of c at once, joined with errors.Join, one line each. It
// checks values and that key files given explicitly can be opened for reading; it writes
// nothing.
func (c *Config) Validate() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	if c.DataDir == "" {
		add(errors.New("data-dir must not be empty"))
	}
	if c.NetworkID == 0 {
		add(errors.New("network-id must not be 0"))
	}
	if c.HTTPPort != 0 && c.HTTPPort == c.StakingPort {
		add(fmt.Errorf("http-port and staking-port are both %d", c.HTTPPort))
	}
	errs = append(errs, c.P2P.validate()...)
	add(c.Snow.validate())
	if c.PublicIP != "" {
		if _, err := netip.ParseAddr(c.PublicIP); err != nil {
			add(fmt.Errorf("invalid public-ip %q: not an IP address", c.PublicIP))
		}
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"http-read-timeout", c.HTTPReadTimeout},
		{"http-read-header-timeout", c.HTTPReadHeaderTimeout},
		{"http-write-timeout", c.HTTPWriteTimeout},
		{"http-idle-timeout", c.HTTPIdleTimeout},
		{"http-shutdown-timeout", c.HTTPShutdownTimeout},
		{"evm-block-time", c.EVMBlockTime},
	} {
		if d.v < 0 {
			add(fmt.Errorf("%s must not be negative, not %s", d.name, d.v))
		}
	}
	if math.IsNaN(c.UptimeRequirement) || c.UptimeRequirement < 0 || c.UptimeRequirement > 1 {
		add(fmt.Errorf("uptime-requirement must be from 0 to 1, not %v", c.UptimeRequirement))
	}
	objected := make(map[uint32]bool, len(c.ACPObject))
	for _, acp := range c.ACPObject {
		objected[acp] = true
	}
	for _, acp := range c.ACPSupport {
		if objected[acp] {
			add(fmt.Errorf("ACP %d is in both acp-support and acp-object", acp))
			delete(objected, acp) // report each ACP once
		}
	}

	seen := make(map[ids.ID]bool, len(c.TrackSubnets))
	for _, id := range c.TrackSubnets {
		switch {
		case id == ids.Empty:
			add(fmt.Errorf("track-subnets: %s is the Primary Network, which every node runs", id))
		case seen[id]:
			add(fmt.Errorf("track-subnets: subnet %s is listed twice", id))
		}
		seen[id] = true
	}
	if info, err := os.Stat(c.ChainConfigPath()); err == nil && !info.IsDir() {
		add(chainConfigDirError(c.ChainConfigPath(), errors.New("not a directory")))
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		add(chainConfigDirError(c.ChainConfigPath(), err))
	}

	if c.DevMethods == SwitchOn && (c.NetworkID == MainnetID || c.NetworkID == FujiID) {
		add(devMethodsRefusedError(c.NetworkID))
	}

	if hasFixedUpgrades(c.NetworkID) && (c.UpgradeFile != "" || !c.Upgrades.equal(UpgradesFor(c.NetworkID))) {
		add(upgradesNotConfigurableError(c.NetworkID))
	} else {
		add(c.Upgrades.Validate())
	}

	if key, cert, generate := c.StakingKeyPaths(); !generate {
		add(checkReadable(key, "staking key", stakingKeyMissingError))
		add(checkReadable(cert, "staking certificate", stakingCertMissingError))
	}
	if path, generate := c.SignerKeyPath(); !generate {
		add(checkReadable(path, "signing key", func(path string) error {
			return signerKeyUnreadableError(path, fs.ErrNotExist)
		}))
	}
	return errors.Join(errs...)
}

// checkReadable opens path for reading and closes it. A missing file gives missing(path);
// any other failure names what the file is.
func checkReadable(path, what string, missing func(string) error) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return missing(path)
	}
	if err != nil {
		return unreadableFileError(what, err)
	}
	info, err := f.Stat()
	if err == nil && info.IsDir() {
		err = fmt.Errorf("%s is a directory", path)
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return unreadableFileError(what, err)
	}
	return nil
}

// StakingKeyPaths returns the files of the staking TLS key and certificate: the configured ones,
// or <DataDir>/staking/staker.key and staker.crt. generate is true when neither path was given;
// the node then generates the pair if the key file does not exist. When generate is false both
// files must exist (node-api.md §4.2).
func (c Config) StakingKeyPaths() (key, cert string, generate bool) {
	key, cert = c.StakingTLSKeyFile, c.StakingTLSCertFile
	generate = key == "" && cert == ""
	if key == "" {
		key = filepath.Join(c.DataDir, "staking", "staker.key")
	}
	if cert == "" {
		cert = filepath.Join(c.DataDir, "staking", "staker.crt")
	}
	return key, cert, generate
}

// ChainConfigPath returns the chain-config directory: ChainConfigDir, or
// <DataDir>/configs/chains when it is empty.
func (c Config) ChainConfigPath() string {
	if c.ChainConfigDir != "" {
		return c.ChainConfigDir
	}
	return filepath.Join(c.DataDir, "configs", "chains")
}

// SignerKeyPath returns the file of the BLS signer key: the configured one, or
// <DataDir>/staking/signer.key. generate is true when no path was given; the node then generates
// the key if the file does not exist (node-api.md §4.3).
func (c Config) SignerKeyPath() (path string, generate bool) {
	if c.StakingSignerKeyFile != "" {
		return c.StakingSignerKeyFile, false
	}
	return filepath.Join(c.DataDir, "staking", "signer.key"), true
}
