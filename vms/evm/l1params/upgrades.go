package l1params

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/params"
)

// Network IDs whose upgrade defaults differ from the local ones (l1-evm.md §4.4).
const (
	MainnetID uint32 = 1
	FujiID    uint32 = 5
)

const (
	// UnscheduledActivation is the timestamp of an upgrade that is not scheduled
	// (9999-12-01T00:00:00Z, l1-evm.md §4.3 step 6).
	UnscheduledActivation uint64 = 253399622400
	// InitiallyActive is the timestamp of an upgrade that was active from the start on a local
	// network (2020-12-05T05:00:00Z, l1-evm.md §4.4).
	InitiallyActive uint64 = 1607144400
)

// DefaultNetworkUpgrades returns the upgrade timestamps of the network with the given ID
// (l1-evm.md §4.4): mainnet and Fuji have their own; every other network uses the local
// column. SubnetEVM is always 0 and Fortuna has no default (nil).
func DefaultNetworkUpgrades(networkID uint32) NetworkUpgrades {
	var durango, etna, granite uint64
	switch networkID {
	case MainnetID:
		durango, etna, granite = 1709740800, 1734368400, 1763568000
	case FujiID:
		durango, etna, granite = 1707840000, 1732550400, 1761750000
	default:
		durango, etna, granite = InitiallyActive, InitiallyActive, InitiallyActive
	}
	return NetworkUpgrades{
		SubnetEVMTimestamp: ptr(uint64(0)),
		DurangoTimestamp:   ptr(durango),
		EtnaTimestamp:      ptr(etna),
		GraniteTimestamp:   ptr(granite),
		HeliconTimestamp:   ptr(UnscheduledActivation),
	}
}

// SetDefaults replaces every timestamp that is nil or 0 by the network default (l1-evm.md §4.3
// step 3): 0 means "default", not "active at genesis", here.
func (n *NetworkUpgrades) SetDefaults(networkID uint32) {
	d := DefaultNetworkUpgrades(networkID)
	defaults := d.upgrades()
	for i, u := range n.upgrades() {
		if *u.timestamp == nil || **u.timestamp == 0 {
			*u.timestamp = copyU64(*defaults[i].timestamp)
		}
	}
}

// Override sets every timestamp that o sets (l1-evm.md §4.3 step 4). A nil o changes nothing.
func (n *NetworkUpgrades) Override(o *NetworkUpgrades) {
	if o == nil {
		return
	}
	overrides := o.upgrades()
	for i, u := range n.upgrades() {
		if src := *overrides[i].timestamp; src != nil {
			*u.timestamp = copyU64(src)
		}
	}
}

// Copy returns a deep copy of n.
func (n NetworkUpgrades) Copy() NetworkUpgrades {
	var c NetworkUpgrades
	copies := c.upgrades()
	for i, u := range n.upgrades() {
		*copies[i].timestamp = copyU64(*u.timestamp)
	}
	return c
}

// Equal reports whether n and o set the same timestamps.
func (n *NetworkUpgrades) Equal(o *NetworkUpgrades) bool {
	if n == nil || o == nil {
		return n == o
	}
	others := o.upgrades()
	for i, u := range n.upgrades() {
		if !u64Equal(*u.timestamp, *others[i].timestamp) {
			return false
		}
	}
	return true
}

// IsSubnetEVM reports whether SubnetEVM is active at ts (inclusive; nil is never).
func (n *NetworkUpgrades) IsSubnetEVM(ts uint64) bool { return forked(n.SubnetEVMTimestamp, ts) }

// IsDurango reports whether Durango is active at ts.
func (n *NetworkUpgrades) IsDurango(ts uint64) bool { return forked(n.DurangoTimestamp, ts) }

// IsEtna reports whether Etna is active at ts.
func (n *NetworkUpgrades) IsEtna(ts uint64) bool { return forked(n.EtnaTimestamp, ts) }

// IsFortuna reports whether Fortuna is active at ts.
func (n *NetworkUpgrades) IsFortuna(ts uint64) bool { return forked(n.FortunaTimestamp, ts) }

// IsGranite reports whether Granite is active at ts.
func (n *NetworkUpgrades) IsGranite(ts uint64) bool { return forked(n.GraniteTimestamp, ts) }

// IsHelicon reports whether Helicon is active at ts.
func (n *NetworkUpgrades) IsHelicon(ts uint64) bool { return forked(n.HeliconTimestamp, ts) }

// NetworkRules are the network upgrades active at a timestamp, the networkRules of
// eth_getActiveRulesAt (l1-evm.md §6); the keys are the Go field names.
type NetworkRules struct {
	IsSubnetEVM bool
	IsDurango   bool
	IsEtna      bool
	IsFortuna   bool
	IsGranite   bool
	IsHelicon   bool
}

// Rules returns the upgrades active at ts.
func (n *NetworkUpgrades) Rules(ts uint64) NetworkRules {
	return NetworkRules{
		IsSubnetEVM: n.IsSubnetEVM(ts),
		IsDurango:   n.IsDurango(ts),
		IsEtna:      n.IsEtna(ts),
		IsFortuna:   n.IsFortuna(ts),
		IsGranite:   n.IsGranite(ts),
		IsHelicon:   n.IsHelicon(ts),
	}
}

// upgrade is one network upgrade of a NetworkUpgrades, in activation order.
type upgrade struct {
	// name is its JSON key without "Timestamp": "subnetEVM", "durango", …
	name string
	// timestamp points at its field.
	timestamp **uint64
	// optional upgrades (Fortuna) may stay unset while later ones are set.
	optional bool
}

// upgrades lists n's upgrades in activation order (l1-evm.md §4.4), each pointing at its field:
// the one place that names all six.
func (n *NetworkUpgrades) upgrades() []upgrade {
	return []upgrade{
		{name: "subnetEVM", timestamp: &n.SubnetEVMTimestamp},
		{name: "durango", timestamp: &n.DurangoTimestamp},
		{name: "etna", timestamp: &n.EtnaTimestamp},
		{name: "fortuna", timestamp: &n.FortunaTimestamp, optional: true},
		{name: "granite", timestamp: &n.GraniteTimestamp},
		{name: "helicon", timestamp: &n.HeliconTimestamp},
	}
}

// CheckForkOrder checks subnetEVM ≤ durango ≤ etna ≤ (fortuna, optional) ≤ granite ≤ helicon
// and that no upgrade is set while an earlier non-optional one is not (l1-evm.md §4.4).
func (n *NetworkUpgrades) CheckForkOrder() error {
	var lastName string
	var last *uint64
	started := false
	for _, cur := range n.upgrades() {
		name, ts := cur.name+"Timestamp", *cur.timestamp
		if started {
			switch {
			case last == nil && ts != nil:
				return forkNotEnabled(lastName, name, *ts)
			case last != nil && ts != nil && *last > *ts:
				return forkOutOfOrder(lastName, *last, name, *ts)
			}
		}
		// An optional upgrade left unset does not constrain the next one.
		if !cur.optional || ts != nil {
			lastName, last, started = name, ts, true
		}
	}
	return nil
}

// VerifyWithDefaults checks each timestamp against the network's default (l1-evm.md §4.4): nil
// only when the default is unscheduled, 0 only when the default is initially active, otherwise
// at least the default.
func (n *NetworkUpgrades) VerifyWithDefaults(networkID uint32) error {
	d := DefaultNetworkUpgrades(networkID)
	defaults := d.upgrades()
	for i, u := range n.upgrades() {
		if err := verifyWithDefault(*u.timestamp, *defaults[i].timestamp); err != nil {
			return forkTimestampInvalid(u.name, err)
		}
	}
	return nil
}

func verifyWithDefault(have, df *uint64) error {
	switch {
	case df == nil:
		return nil
	case have == nil:
		if *df >= UnscheduledActivation {
			return nil
		}
		return ErrTimestampCannotBeNil
	case *have == 0 && *df <= InitiallyActive:
		return nil
	case *have < *df:
		return fmt.Errorf("%w: provided timestamp %d, default timestamp %d", ErrTimestampTooEarly, *have, *df)
	}
	return nil
}

// checkCompatible reports the first upgrade whose activation at or before headTime differs
// between n and o (l1-evm.md §4.4, "<Name> fork block timestamp").
func (n *NetworkUpgrades) checkCompatible(o *NetworkUpgrades, headTime uint64) *params.ConfigCompatError {
	others := o.upgrades()
	for i, u := range n.upgrades() {
		old, next := *u.timestamp, *others[i].timestamp
		if (forked(old, headTime) || forked(next, headTime)) && !u64Equal(old, next) {
			what := strings.ToUpper(u.name[:1]) + u.name[1:] + " fork block timestamp"
			return timestampCompatError(what, old, next)
		}
	}
	return nil
}

// forked reports whether a fork at s is active at ts; nil is never active.
func forked(s *uint64, ts uint64) bool { return s != nil && *s <= ts }

// isForkTransition reports whether a fork at s activates going from parent to child: active at
// child and not at parent. A nil parent means building the genesis block.
func isForkTransition(s, parent *uint64, child uint64) bool {
	return forked(s, child) && (parent == nil || !forked(s, *parent))
}

func ptr[T any](v T) *T { return &v }

func copyU64(p *uint64) *uint64 {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

func u64Equal(a, b *uint64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
