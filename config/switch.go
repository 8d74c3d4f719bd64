package config

import "strings"

// Switch is a setting that is on, off, or auto: decided by the network the node runs
// (Config.DevMethodsEnabled, Config.RelayEnabled).
type Switch uint8

// The values of Switch; the zero value is SwitchAuto.
const (
	// SwitchAuto leaves it to the node: on for a node that runs the local network alone.
	SwitchAuto Switch = iota
	// SwitchOn turns it on (--flag).
	SwitchOn
	// SwitchOff turns it off (--flag=false).
	SwitchOff
)

// String returns the setting's text: auto, true or false.
func (s Switch) String() string {
	switch s {
	case SwitchOn:
		return "true"
	case SwitchOff:
		return "false"
	default:
		return "auto"
	}
}

// enabled is s, with auto meaning def.
func (s Switch) enabled(def bool) bool {
	switch s {
	case SwitchOn:
		return true
	case SwitchOff:
		return false
	default:
		return def
	}
}

// switchValue is auto, or a switch as strconv.ParseBool reads it; a flag without a value is
// true.
type switchValue struct{ p *Switch }

func newSwitchValue(p *Switch) Value { return switchValue{p} }
func (v switchValue) String() string { return v.p.String() }
func (v switchValue) Type() string   { return "auto|bool" }

// IsBoolFlag tells flag libraries that the flag may be given without a value.
func (v switchValue) IsBoolFlag() bool { return true }

func (v switchValue) Set(text string) error {
	if strings.EqualFold(text, "auto") {
		*v.p = SwitchAuto
		return nil
	}
	var b bool
	if err := newBoolValue(&b).Set(text); err != nil {
		return invalidValueError("auto or boolean", text)
	}
	*v.p = SwitchOff
	if b {
		*v.p = SwitchOn
	}
	return nil
}
