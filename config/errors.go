package config

import (
	"errors"
	"fmt"
)

// ErrParseNetworkName is returned by ParseNetworkID for text that is neither a known network
// name, a decimal number nor `network-<n>`. The full text is
// `failed to parse network name: "<input>"` (node-api.md §3.5).
var ErrParseNetworkName = errors.New("failed to parse network name")

// ErrUpgradesNotConfigurable is returned when an upgrade schedule other than the built-in one is
// given for mainnet, fuji or local. The full text is
// `cannot configure upgrades for networkID: <name>` (node-api.md §3.13).
var ErrUpgradesNotConfigurable = errors.New("cannot configure upgrades for networkID")

// ErrUnknownKey is returned by LoadFile for a config-file key that is not a setting. cornice's
// own rule: the reference node ignores unknown keys, which hides typos.
var ErrUnknownKey = errors.New("unknown key")

// ErrDevMethodsRefused is returned by Validate when the developer methods are turned on for
// mainnet or fuji: they create money and rewrite history (issue #16 §2). The full text is
// `dev-methods cannot be turned on for network <name>`.
var ErrDevMethodsRefused = errors.New("dev-methods cannot be turned on for network")

// devMethodsRefusedError names the network whose dev methods are refused.
func devMethodsRefusedError(networkID uint32) error {
	return fmt.Errorf("%w %s", ErrDevMethodsRefused, NetworkName(networkID))
}

// parseNetworkNameError reports unparsable --network-id text (node-api.md §3.5).
func parseNetworkNameError(input string) error {
	return fmt.Errorf("%w: %q", ErrParseNetworkName, input)
}

// upgradesNotConfigurableError names the network whose schedule is fixed (node-api.md §3.13).
func upgradesNotConfigurableError(networkID uint32) error {
	return fmt.Errorf("%w: %s", ErrUpgradesNotConfigurable, NetworkName(networkID))
}

// stakingKeyMissingError is the reference's text for an explicitly configured TLS key that does
// not exist (node-api.md §4.2).
func stakingKeyMissingError(path string) error {
	return fmt.Errorf("couldn't find staking key at %s", path)
}

// stakingCertMissingError is the reference's text for an explicitly configured TLS certificate
// that does not exist (node-api.md §4.2).
func stakingCertMissingError(path string) error {
	return fmt.Errorf("couldn't find staking certificate at %s", path)
}

// signerKeyUnreadableError is the reference's text for an explicitly configured BLS signer key
// that cannot be read (node-api.md §4.3).
func signerKeyUnreadableError(path string, err error) error {
	return fmt.Errorf("could not read signing key from %s: %w", path, err)
}

// unreadableFileError reports a key or certificate file that exists but cannot be opened; the
// cause (from os.Open) names the path. cornice's own text.
func unreadableFileError(what string, err error) error {
	return fmt.Errorf("couldn't read %s: %w", what, err)
}

// The texts below are cornice's own: the reference node has no equivalent, or reports these
// through a flag library whose wording we do not copy.

// invalidPortError reports a port outside 0–65535 or not a number.
func invalidPortError(s string) error {
	return fmt.Errorf("invalid port %q: must be a number from 0 to 65535", s)
}

// invalidLogFormatError reports a --log-format other than the three names.
func invalidLogFormatError(s string) error {
	return fmt.Errorf("invalid log format %q: must be auto, text or json", s)
}

// invalidLogLevelError reports a --log-level other than the four names.
func invalidLogLevelError(s string) error {
	return fmt.Errorf("invalid log level %q: must be debug, info, warn or error", s)
}

// invalidValueError reports text that does not parse as the setting's type.
func invalidValueError(kind, s string) error {
	return fmt.Errorf("invalid %s %q", kind, s)
}

// unknownKeyError names a config-file key that is not a setting.
func unknownKeyError(key string) error {
	return fmt.Errorf("%w %q", ErrUnknownKey, key)
}

// keyError puts the config-file key in front of its value's problem.
func keyError(key string, err error) error {
	return fmt.Errorf("key %q: %w", key, err)
}

// invalidIDError reports a --track-subnets item that is not a CB58 ID.
func invalidIDError(s string, err error) error {
	return fmt.Errorf("invalid subnet ID %q: %w", s, err)
}

// chainConfigDirError reports a --chain-config-dir that exists but is not a directory, or cannot
// be inspected.
func chainConfigDirError(path string, err error) error {
	return fmt.Errorf("invalid chain-config-dir %s: %w", path, err)
}

// The JSON file errors of CheckJSON and JSONError: cornice's own texts.
var (
	// errJSONEmpty refuses a JSON file with nothing in it.
	errJSONEmpty = errors.New("empty file: expected a JSON object")
	// errJSONTruncated refuses a JSON file that ends inside a value.
	errJSONTruncated = errors.New("unexpected end of file: the JSON value is not closed")
	// errJSONTrailing refuses a JSON file with more after its value.
	errJSONTrailing = errors.New("more data after the JSON value")
)

// errConfigNotObject refuses a --config-file that is JSON but not an object. cornice's own text.
var errConfigNotObject = errors.New("expected a JSON object of settings keyed by flag name")
