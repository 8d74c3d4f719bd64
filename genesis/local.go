package genesis

import (
	_ "embed"
	"time"
)

// localConfigJSON is the local network's genesis config, a copy of the reference's
// genesis_local.json (platform-exchange.md §7; the project's testdata holds the same file).
//
//go:embed genesis_local.json
var localConfigJSON []byte

// Local network constants (platform-exchange.md §7.1, §7.2, §7.7).
const (
	// LocalNetworkID is the local network's ID.
	LocalNetworkID uint32 = 12345
	// LocalStartTimePeriod is the step in which the local genesis start time moves forward (§7.2).
	LocalStartTimePeriod = 270 * 24 * time.Hour
)

// Local returns the local network's genesis config, with StartTimePeriod set to
// LocalStartTimePeriod so that Build moves its start time with the date, as the reference node
// does (§7.2). Each call returns a new Config.
func Local() (*Config, error) {
	cfg, err := ParseConfig(localConfigJSON)
	if err != nil {
		return nil, err
	}
	cfg.StartTimePeriod = LocalStartTimePeriod
	return cfg, nil
}

// LocalConfigJSON returns a copy of the embedded local genesis config file.
func LocalConfigJSON() []byte {
	return append([]byte(nil), localConfigJSON...)
}
