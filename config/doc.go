// Package config holds cornice's settings: flags, config file, defaults, validation, and the
// per-network constants (network IDs and names, upgrade times, fees, the local genesis stake,
// the version string).
//
// A [Config] is a plain value: it can be copied, printed and compared, and nothing in it changes
// behind the caller's back. [Default] gives the settings of `cornice run` with no flags;
// [Config.Validate] reports every problem at once. Every setting is also described by a [Setting]
// (its flag name, which is also its config-file key, and its text form), so the CLI and
// [LoadFile] parse the same text the same way. This package imports no CLI library: [Value] has
// the method set of pflag.Value, and cmd/cornice registers it.
//
// All functions are safe for concurrent use. Slices in a Config belong to it; [Default] and
// [UpgradesFor] return fresh values on every call.
//
// The facts come from reference/node-api.md: HTTP settings §2.1, network IDs and names §3.5,
// fees §3.9, the uptime requirement §3.12, the upgrade schedules §3.13, the staking key files
// §4.2 and §4.3, and the index flags §5.7; the local genesis stake from
// reference/platform-exchange.md §7.
package config
