package config

// DevMethodsEnabled reports whether the EVM chains serve the developer methods: when
// DevMethods is on, or auto and the node runs the local network alone (no bootstrap nodes: the
// dev case). Validate refuses them on for mainnet and fuji.
func (c *Config) DevMethodsEnabled() bool { return c.DevMethods.enabled(c.localAlone()) }

// RelayEnabled reports whether the node runs its Interchain Messaging relay (package relay):
// when Relay is on, or auto and the node runs the local network alone, where the relay pays
// for deliveries with the local network's funded key (docs/decisions.md).
func (c *Config) RelayEnabled() bool { return c.Relay.enabled(c.localAlone()) }

// localAlone reports whether the node runs the local network alone (no bootstrap nodes).
func (c *Config) localAlone() bool { return c.NetworkID == LocalID && len(c.P2P.BootstrapIPs) == 0 }
