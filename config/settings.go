package config

import (
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/cornice-node/cornice/ids"
)

// Value is the text form of one setting, bound to a field of a Config. Its method set is
// pflag.Value's, so cmd/cornice registers it as a flag directly.
type Value interface {
	// String returns the field as text that Set accepts.
	String() string
	// Set parses text into the field. A list setting replaces its value on the first Set of
	// a Value and appends on later ones, so a repeated flag accumulates.
	Set(text string) error
	// Type names the kind of text in help output ("port", "duration", ...).
	Type() string
}

// Setting is one configurable value: a flag of `cornice run` and, with the same name, a key of
// the config file.
type Setting struct {
	// Name is the flag name without dashes, and the config-file key.
	Name string
	// Usage is the one-line help text.
	Usage string

	bind func(c *Config) Value
	copy func(dst, src *Config)
}

// Bind returns the Value of this setting in c; setting it changes c.
func (s Setting) Bind(c *Config) Value { return s.bind(c) }

// Copy sets this setting's field of dst to its value in src. List values are shared, not cloned.
func (s Setting) Copy(dst, src *Config) { s.copy(dst, src) }

// IsBool reports whether the setting is a switch, which a flag may give without a value.
func (s Setting) IsBool() bool {
	b, ok := s.bind(&Config{}).(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// setting builds a Setting from a field accessor and the constructor of the field's Value.
func setting[T any](name, usage string, field func(*Config) *T, value func(*T) Value) Setting {
	return Setting{
		Name:  name,
		Usage: usage,
		bind:  func(c *Config) Value { return value(field(c)) },
		copy:  func(dst, src *Config) { *field(dst) = *field(src) },
	}
}

// settings lists every setting in help order: the node's own, then the peer-to-peer ones after
// public-ip, then the chains', the consensus parameters and logging. It never changes.
var settings = slices.Concat(nodeSettings, p2pSettings, chainSettings, snowSettings, logSettings)

// nodeSettings are the node's data dir, network and ports.
var nodeSettings = []Setting{
	setting("data-dir", "directory of the database and staking keys",
		func(c *Config) *string { return &c.DataDir }, newPathValue),
	setting("network-id", "network to join: mainnet, fuji (or testnet), local, testing, a number, or network-<n>",
		func(c *Config) *uint32 { return &c.NetworkID }, newNetworkValue),
	setting("http-host", `address the API server binds; "" binds every interface`,
		func(c *Config) *string { return &c.HTTPHost }, newStringValue),
	setting("http-port", "port of the API server; 0 lets the OS choose",
		func(c *Config) *uint16 { return &c.HTTPPort }, newPortValue),
	setting("staking-port", "peer-to-peer port; 0 lets the OS choose",
		func(c *Config) *uint16 { return &c.StakingPort }, newPortValue),
	setting("public-ip", "IP address advertised to peers (default: the bound address)",
		func(c *Config) *string { return &c.PublicIP }, newIPValue),
}

// chainSettings are the API, index, staking identity, fee and chain settings.
var chainSettings = []Setting{
	setting("http-allowed-hosts", `Host header names the API accepts, separated by commas or spaces; "*" accepts all`,
		func(c *Config) *[]string { return &c.HTTPAllowedHosts }, newStringsValue),
	setting("http-allowed-origins", "CORS origins the API allows, separated by commas or spaces",
		func(c *Config) *[]string { return &c.HTTPAllowedOrigins }, newStringsValue),
	setting("http-read-timeout", "maximum time to read a whole request; 0 means none",
		func(c *Config) *time.Duration { return &c.HTTPReadTimeout }, newDurationValue),
	setting("http-read-header-timeout", "maximum time to read request headers; 0 means http-read-timeout",
		func(c *Config) *time.Duration { return &c.HTTPReadHeaderTimeout }, newDurationValue),
	setting("http-write-timeout", "maximum time to write a response; 0 means none",
		func(c *Config) *time.Duration { return &c.HTTPWriteTimeout }, newDurationValue),
	setting("http-idle-timeout", "maximum time a keep-alive connection waits; 0 means http-read-timeout",
		func(c *Config) *time.Duration { return &c.HTTPIdleTimeout }, newDurationValue),
	setting("http-shutdown-timeout", "maximum time to finish requests at shutdown",
		func(c *Config) *time.Duration { return &c.HTTPShutdownTimeout }, newDurationValue),
	setting("http-batch-response-max-size", "most bytes of responses one JSON-RPC batch may hold, on every endpoint; calls past it are answered \"response too large\"; 0 means no cap",
		func(c *Config) *uint64 { return &c.HTTPBatchResponseMaxSize }, newUint64Value),
	setting("http-heavy-calls", "most heavy API requests (container ranges, UTXO pages, log queries, batches holding one) served at once; 0 means no bound",
		func(c *Config) *uint64 { return &c.HTTPHeavyCalls }, newUint64Value),
	setting("api-admin-enabled", "serve the admin API at /ext/admin",
		func(c *Config) *bool { return &c.APIAdminEnabled }, newBoolValue),
	setting("api-info-enabled", "serve the info API at /ext/info",
		func(c *Config) *bool { return &c.APIInfoEnabled }, newBoolValue),
	setting("api-health-enabled", "serve the health API at /ext/health",
		func(c *Config) *bool { return &c.APIHealthEnabled }, newBoolValue),
	setting("api-metrics-enabled", "serve Prometheus metrics at /ext/metrics",
		func(c *Config) *bool { return &c.APIMetricsEnabled }, newBoolValue),
	setting("index-enabled", "index accepted containers and serve /ext/index",
		func(c *Config) *bool { return &c.IndexEnabled }, newBoolValue),
	setting("index-allow-incomplete", "start even if the index misses containers",
		func(c *Config) *bool { return &c.IndexAllowIncomplete }, newBoolValue),
	setting("staking-tls-key-file", "PEM staking TLS key (default <data-dir>/staking/staker.key, generated when absent)",
		func(c *Config) *string { return &c.StakingTLSKeyFile }, newPathValue),
	setting("staking-tls-cert-file", "PEM staking TLS certificate (default <data-dir>/staking/staker.crt, generated when absent)",
		func(c *Config) *string { return &c.StakingTLSCertFile }, newPathValue),
	setting("staking-signer-key-file", "BLS signer key (default <data-dir>/staking/signer.key, generated when absent)",
		func(c *Config) *string { return &c.StakingSignerKeyFile }, newPathValue),
	setting("upgrade-file", "JSON upgrade schedule; only for networks other than mainnet, fuji and local",
		func(c *Config) *string { return &c.UpgradeFile }, newPathValue),
	setting("tx-fee", "transaction fee in nAVAX (ignored on mainnet and fuji)",
		func(c *Config) *uint64 { return &c.TxFee }, newUint64Value),
	setting("create-asset-tx-fee", "asset creation fee in nAVAX (ignored on mainnet and fuji)",
		func(c *Config) *uint64 { return &c.CreateAssetTxFee }, newUint64Value),
	setting("uptime-requirement", "fraction of time a validator must be up to be rewarded (ignored on mainnet and fuji)",
		func(c *Config) *float64 { return &c.UptimeRequirement }, newFloatValue),
	setting("acp-support", "ACP numbers this node supports, separated by commas or spaces",
		func(c *Config) *[]uint32 { return &c.ACPSupport }, newUint32sValue),
	setting("acp-object", "ACP numbers this node objects to, separated by commas or spaces",
		func(c *Config) *[]uint32 { return &c.ACPObject }, newUint32sValue),
	setting("proposer-windows", "among other validators, build and verify blocks in proposer windows (Snowman++)",
		func(c *Config) *bool { return &c.ProposerWindows }, newBoolValue),
	setting("evm-block-time", "least time between two blocks of an EVM chain (C-Chain and L1s); 0 builds a block as soon as a transaction arrives",
		func(c *Config) *time.Duration { return &c.EVMBlockTime }, newDurationValue),
	setting("evm-logs-block-range-cap", "most blocks one eth_getLogs or eth_getFilterLogs query of an EVM chain may span (an L1's api-max-blocks-per-request overrides it); 0 means no cap",
		func(c *Config) *uint64 { return &c.EVMLogsBlockRangeCap }, newUint64Value),
	setting("track-subnets", "subnet IDs whose chains this node runs, separated by commas or spaces (it always runs those of subnets it validates)",
		func(c *Config) *[]ids.ID { return &c.TrackSubnets }, newIDsValue),
	setting("chain-config-dir", "directory of per-chain configs: <dir>/<blockchainID or alias>/config.json and upgrade.json (default <data-dir>/configs/chains)",
		func(c *Config) *string { return &c.ChainConfigDir }, newPathValue),
	setting("dev-methods", "serve the EVM chains' developer methods (anvil_*, hardhat_*, evm_*): auto (on for a node running the local network alone), true or false; never on mainnet or fuji",
		func(c *Config) *Switch { return &c.DevMethods }, newSwitchValue),
	setting("relay", "deliver Interchain Messaging (Teleporter) messages between the node's EVM chains: auto (on for a node running the local network alone), true or false",
		func(c *Config) *Switch { return &c.Relay }, newSwitchValue),
}

// logSettings are the logging settings, last in the help.
var logSettings = []Setting{
	setting("log-level", "lowest level logged: debug, info, warn or error",
		func(c *Config) *slog.Level { return &c.LogLevel }, newLogLevelValue),
	setting("log-format", "form of the log on stderr: text (aligned, coloured on a terminal), json (one object a line), or auto (text on a terminal, json otherwise)",
		func(c *Config) *LogFormat { return &c.LogFormat }, newLogFormatValue),
}

// Settings returns every setting, in the order of the help text. The slice is the caller's.
func Settings() []Setting {
	return slices.Clone(settings)
}

// lookupSetting finds a setting by name.
func lookupSetting(name string) (Setting, bool) {
	i := slices.IndexFunc(settings, func(s Setting) bool { return s.Name == name })
	if i < 0 {
		return Setting{}, false
	}
	return settings[i], true
}

// stringValue is free text.
type stringValue struct{ p *string }

func newStringValue(p *string) Value        { return stringValue{p} }
func (v stringValue) String() string        { return *v.p }
func (v stringValue) Set(text string) error { *v.p = text; return nil }
func (v stringValue) Type() string          { return "string" }

// pathValue is a file or directory path, taken literally (no ~ expansion).
type pathValue struct{ stringValue }

func newPathValue(p *string) Value { return pathValue{stringValue{p}} }
func (v pathValue) Type() string   { return "path" }

// ipValue is an IP address; Config.Validate checks it, so a config file and a flag report the
// same error.
type ipValue struct{ stringValue }

func newIPValue(p *string) Value { return ipValue{stringValue{p}} }
func (v ipValue) Type() string   { return "ip" }

// networkValue is a network ID written as ParseNetworkID reads it and NetworkName prints it.
type networkValue struct{ p *uint32 }

func newNetworkValue(p *uint32) Value { return networkValue{p} }
func (v networkValue) String() string { return NetworkName(*v.p) }
func (v networkValue) Type() string   { return "network" }
func (v networkValue) Set(text string) error {
	id, err := ParseNetworkID(text)
	if err != nil {
		return err
	}
	*v.p = id
	return nil
}

// portValue is a TCP port, decimal 0–65535.
type portValue struct{ p *uint16 }

func newPortValue(p *uint16) Value { return portValue{p} }
func (v portValue) String() string { return strconv.FormatUint(uint64(*v.p), 10) }
func (v portValue) Type() string   { return "port" }
func (v portValue) Set(text string) error {
	n, err := strconv.ParseUint(text, 10, 16)
	if err != nil {
		return invalidPortError(text)
	}
	*v.p = uint16(n)
	return nil
}

// durationValue is a Go duration ("30s", "2m").
type durationValue struct{ p *time.Duration }

func newDurationValue(p *time.Duration) Value { return durationValue{p} }
func (v durationValue) String() string        { return v.p.String() }
func (v durationValue) Type() string          { return "duration" }
func (v durationValue) Set(text string) error {
	d, err := time.ParseDuration(text)
	if err != nil {
		return invalidValueError("duration", text)
	}
	*v.p = d
	return nil
}

// boolValue is a switch: true, false, 1, 0 (strconv.ParseBool).
type boolValue struct{ p *bool }

func newBoolValue(p *bool) Value    { return &boolValue{p} }
func (v *boolValue) String() string { return strconv.FormatBool(*v.p) }
func (v *boolValue) Type() string   { return "bool" }

// IsBoolFlag tells flag libraries that the flag may be given without a value.
func (v *boolValue) IsBoolFlag() bool { return true }

func (v *boolValue) Set(text string) error {
	b, err := strconv.ParseBool(text)
	if err != nil {
		return invalidValueError("boolean", text)
	}
	*v.p = b
	return nil
}

// uint64Value is a decimal amount.
type uint64Value struct{ p *uint64 }

func newUint64Value(p *uint64) Value { return uint64Value{p} }
func (v uint64Value) String() string { return strconv.FormatUint(*v.p, 10) }
func (v uint64Value) Type() string   { return "uint64" }
func (v uint64Value) Set(text string) error {
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return invalidValueError("amount", text)
	}
	*v.p = n
	return nil
}

// floatValue is a decimal fraction; Config.Validate checks its range.
type floatValue struct{ p *float64 }

func newFloatValue(p *float64) Value { return floatValue{p} }
func (v floatValue) String() string  { return strconv.FormatFloat(*v.p, 'g', -1, 64) }
func (v floatValue) Type() string    { return "float" }
func (v floatValue) Set(text string) error {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return invalidValueError("number", text)
	}
	*v.p = f
	return nil
}

// logLevelValue is one of debug, info, warn, error, in any case.
type logLevelValue struct{ p *slog.Level }

func newLogLevelValue(p *slog.Level) Value { return logLevelValue{p} }
func (v logLevelValue) String() string     { return strings.ToLower(v.p.String()) }
func (v logLevelValue) Type() string       { return "level" }
func (v logLevelValue) Set(text string) error {
	switch strings.ToLower(text) {
	case "debug":
		*v.p = slog.LevelDebug
	case "info":
		*v.p = slog.LevelInfo
	case "warn":
		*v.p = slog.LevelWarn
	case "error":
		*v.p = slog.LevelError
	default:
		return invalidLogLevelError(text)
	}
	return nil
}

// logFormatValue is one of auto, text, json, in any case.
type logFormatValue struct{ p *LogFormat }

func newLogFormatValue(p *LogFormat) Value { return logFormatValue{p} }
func (v logFormatValue) String() string    { return v.p.String() }
func (v logFormatValue) Type() string      { return "format" }
func (v logFormatValue) Set(text string) error {
	i := slices.Index(logFormatNames[:], strings.ToLower(text))
	if i < 0 {
		return invalidLogFormatError(text)
	}
	*v.p = LogFormat(i)
	return nil
}

// splitList splits a list at commas and white space, dropping empty items, so both
// "a,b" and the reference node's space-separated "a b" work (node-api.md §2.2). Empty text is
// the empty list.
func splitList(text string) []string {
	items := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(items) == 0 {
		return nil
	}
	return items
}

// listValue is a list (see splitList) of items that parse one by one: the first Set replaces
// the default, later ones append (a repeated flag accumulates), and Replace sets the whole list,
// as a JSON array in a config file does.
type listValue[T any] struct {
	p      *[]T
	set    bool // whether Set was called: the first Set replaces the default
	typ    string
	parse  func(string) (T, error)
	format func(T) string
}

func newStringsValue(p *[]string) Value {
	return &listValue[string]{p: p, typ: "strings",
		parse:  func(s string) (string, error) { return s, nil },
		format: func(s string) string { return s }}
}

// newUint32sValue is a list of decimal numbers (ACP numbers).
func newUint32sValue(p *[]uint32) Value {
	return &listValue[uint32]{p: p, typ: "numbers",
		parse: func(s string) (uint32, error) {
			n, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				return 0, invalidValueError("ACP number", s)
			}
			return uint32(n), nil
		},
		format: func(n uint32) string { return strconv.FormatUint(uint64(n), 10) }}
}

// newIDsValue is a list of CB58 IDs, such as subnet IDs.
func newIDsValue(p *[]ids.ID) Value {
	return &listValue[ids.ID]{p: p, typ: "ids",
		parse: func(s string) (ids.ID, error) {
			id, err := ids.FromString(s)
			if err != nil {
				return ids.ID{}, invalidIDError(s, err)
			}
			return id, nil
		},
		format: ids.ID.String}
}

func (v *listValue[T]) Type() string { return v.typ }

func (v *listValue[T]) String() string {
	texts := make([]string, len(*v.p))
	for i, item := range *v.p {
		texts[i] = v.format(item)
	}
	return strings.Join(texts, ",")
}

func (v *listValue[T]) Set(text string) error {
	parsed, err := v.parseAll(splitList(text))
	if err != nil {
		return err
	}
	if !v.set {
		v.set = true
		*v.p = parsed
		return nil
	}
	*v.p = append(*v.p, parsed...)
	return nil
}

// Replace sets the whole list, as a JSON array in a config file does.
func (v *listValue[T]) Replace(items []string) error {
	parsed, err := v.parseAll(items)
	if err != nil {
		return err
	}
	v.set = true
	*v.p = parsed
	return nil
}

// parseAll parses items into a new slice, nil only for nil items: a config file's empty array
// is an empty list, not the absence of one.
func (v *listValue[T]) parseAll(items []string) ([]T, error) {
	if items == nil {
		return nil, nil
	}
	out := make([]T, 0, len(items))
	for _, s := range items {
		item, err := v.parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	return out, nil
}
