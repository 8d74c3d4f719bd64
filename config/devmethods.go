package config

import "strings"

// DevMethods says whether the EVM chains serve the developer methods (Config.DevMethods).
type DevMethods uint8

// The values of DevMethods; the zero value is DevMethodsAuto.
const (
	// DevMethodsAuto turns them on for a node that runs the local network alone.
	DevMethodsAuto DevMethods = iota
	// DevMethodsOn turns them on (--dev-methods), on any network but mainnet and fuji.
	DevMethodsOn
	// DevMethodsOff turns them off (--dev-methods=false).
	DevMethodsOff
)

// String returns the setting's text: auto, true or false.
func (d DevMethods) String() string {
	switch d {
	case DevMethodsOn:
		return "true"
	case DevMethodsOff:
		return "false"
	default:
		return "auto"
	}
}

// DevMethodsEnabled reports whether the EVM chains serve the developer methods: when
// DevMethods is on, or auto and the node runs the local network alone (no bootstrap nodes: the
// dev case). Validate refuses them on for mainnet and fuji.
func (c *Config) DevMethodsEnabled() bool {
	switch c.DevMethods {
	case DevMethodsOn:
		return true
	case DevMethodsOff:
		return false
	default:
		return c.NetworkID == LocalID && len(c.P2P.BootstrapIPs) == 0
	}
}

// devMethodsValue is auto, or a switch as strconv.ParseBool reads it; a flag without a value is
// true.
type devMethodsValue struct{ p *DevMethods }

func newDevMethodsValue(p *DevMethods) Value { return devMethodsValue{p} }
func (v devMethodsValue) String() string     { return v.p.String() }
func (v devMethodsValue) Type() string       { return "auto|bool" }

// IsBoolFlag tells flag libraries that the flag may be given without a value.
func (v devMethodsValue) IsBoolFlag() bool { return true }

func (v devMethodsValue) Set(text string) error {
	if strings.EqualFold(text, "auto") {
		*v.p = DevMethodsAuto
		return nil
	}
	var b bool
	if err := newBoolValue(&b).Set(text); err != nil {
		return invalidValueError("auto or boolean", text)
	}
	*v.p = DevMethodsOff
	if b {
		*v.p = DevMethodsOn
	}
	return nil
}
