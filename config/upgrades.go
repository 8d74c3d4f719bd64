package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// Upgrades is the schedule of network upgrades: when each activates, plus the few parameters that
// come with them. Its JSON is the result of info.upgrades, key for key and in the same order
// (node-api.md §3.13): times in RFC 3339, apricotPhase4MinPChainHeight and graniteEpochDuration
// (in nanoseconds) as bare numbers, cortinaXChainStopVertexID in CB58.
//
// Times are kept in UTC so that they print with a `Z`. The zero value is not a usable schedule;
// get one from UpgradesFor or LoadUpgradeFile.
type Upgrades struct {
	ApricotPhase1Time            time.Time     `json:"apricotPhase1Time"`
	ApricotPhase2Time            time.Time     `json:"apricotPhase2Time"`
	ApricotPhase3Time            time.Time     `json:"apricotPhase3Time"`
	ApricotPhase4Time            time.Time     `json:"apricotPhase4Time"`
	ApricotPhase4MinPChainHeight uint64        `json:"apricotPhase4MinPChainHeight"`
	ApricotPhase5Time            time.Time     `json:"apricotPhase5Time"`
	ApricotPhasePre6Time         time.Time     `json:"apricotPhasePre6Time"`
	ApricotPhase6Time            time.Time     `json:"apricotPhase6Time"`
	ApricotPhasePost6Time        time.Time     `json:"apricotPhasePost6Time"`
	BanffTime                    time.Time     `json:"banffTime"`
	CortinaTime                  time.Time     `json:"cortinaTime"`
	CortinaXChainStopVertexID    ids.ID        `json:"cortinaXChainStopVertexID"`
	DurangoTime                  time.Time     `json:"durangoTime"`
	EtnaTime                     time.Time     `json:"etnaTime"`
	FortunaTime                  time.Time     `json:"fortunaTime"`
	GraniteTime                  time.Time     `json:"graniteTime"`
	GraniteEpochDuration         time.Duration `json:"graniteEpochDuration"`
	HeliconTime                  time.Time     `json:"heliconTime"`
}

// unscheduled is the activation time of an upgrade that has no date yet (node-api.md §3.13).
var unscheduled = time.Date(9999, time.December, 1, 0, 0, 0, 0, time.UTC)

// defaultUpgradeTime is when every upgrade before Helicon activates on local and custom networks.
var defaultUpgradeTime = time.Date(2020, time.December, 5, 5, 0, 0, 0, time.UTC)

// utc is shorthand for the fixed schedules below.
func utc(year int, month time.Month, day, hour, minute int) time.Time {
	return time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
}

// mustID parses a CB58 ID from the constant tables; a bad constant is a programmer error.
func mustID(s string) ids.ID {
	id, err := ids.FromString(s)
	if err != nil {
		panic(fmt.Sprintf("config: bad built-in ID %q: %v", s, err))
	}
	return id
}

// UpgradesFor returns the built-in schedule of a network: mainnet's, fuji's, or, for local and
// every other ID, the default schedule in which everything before Helicon is active from
// 2020-12-05 and Helicon is unscheduled (node-api.md §3.13).
func UpgradesFor(networkID uint32) Upgrades {
	switch networkID {
	case MainnetID:
		return Upgrades{
			ApricotPhase1Time:            utc(2021, time.March, 31, 14, 0),
			ApricotPhase2Time:            utc(2021, time.May, 10, 11, 0),
			ApricotPhase3Time:            utc(2021, time.August, 24, 14, 0),
			ApricotPhase4Time:            utc(2021, time.September, 22, 21, 0),
			ApricotPhase4MinPChainHeight: 793005,
			ApricotPhase5Time:            utc(2021, time.December, 2, 18, 0),
			ApricotPhasePre6Time:         utc(2022, time.September, 5, 1, 30),
			ApricotPhase6Time:            utc(2022, time.September, 6, 20, 0),
			ApricotPhasePost6Time:        utc(2022, time.September, 7, 3, 0),
			BanffTime:                    utc(2022, time.October, 18, 16, 0),
			CortinaTime:                  utc(2023, time.April, 25, 15, 0),
			CortinaXChainStopVertexID:    mustID("jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga"),
			DurangoTime:                  utc(2024, time.March, 6, 16, 0),
			EtnaTime:                     utc(2024, time.December, 16, 17, 0),
			FortunaTime:                  utc(2025, time.April, 8, 15, 0),
			GraniteTime:                  utc(2025, time.November, 19, 16, 0),
			GraniteEpochDuration:         5 * time.Minute,
			HeliconTime:                  unscheduled,
		}
	case FujiID:
		return Upgrades{
			ApricotPhase1Time:            utc(2021, time.March, 26, 14, 0),
			ApricotPhase2Time:            utc(2021, time.May, 5, 14, 0),
			ApricotPhase3Time:            utc(2021, time.August, 16, 19, 0),
			ApricotPhase4Time:            utc(2021, time.September, 16, 21, 0),
			ApricotPhase4MinPChainHeight: 47437,
			ApricotPhase5Time:            utc(2021, time.November, 24, 15, 0),
			ApricotPhasePre6Time:         utc(2022, time.September, 6, 20, 0),
			ApricotPhase6Time:            utc(2022, time.September, 6, 20, 0),
			ApricotPhasePost6Time:        utc(2022, time.September, 7, 6, 0),
			BanffTime:                    utc(2022, time.October, 3, 14, 0),
			CortinaTime:                  utc(2023, time.April, 6, 15, 0),
			CortinaXChainStopVertexID:    mustID("2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ"),
			DurangoTime:                  utc(2024, time.February, 13, 16, 0),
			EtnaTime:                     utc(2024, time.November, 25, 16, 0),
			FortunaTime:                  utc(2025, time.March, 13, 15, 0),
			GraniteTime:                  utc(2025, time.October, 29, 15, 0),
			GraniteEpochDuration:         5 * time.Minute,
			HeliconTime:                  unscheduled,
		}
	default:
		t := defaultUpgradeTime
		return Upgrades{
			ApricotPhase1Time:     t,
			ApricotPhase2Time:     t,
			ApricotPhase3Time:     t,
			ApricotPhase4Time:     t,
			ApricotPhase5Time:     t,
			ApricotPhasePre6Time:  t,
			ApricotPhase6Time:     t,
			ApricotPhasePost6Time: t,
			BanffTime:             t,
			CortinaTime:           t,
			DurangoTime:           t,
			EtnaTime:              t,
			FortunaTime:           t,
			GraniteTime:           t,
			GraniteEpochDuration:  30 * time.Second,
			HeliconTime:           unscheduled,
		}
	}
}

// namedTime is one activation time with its JSON key, for messages.
type namedTime struct {
	name string
	t    time.Time
}

// times lists the activation times in the order they must activate.
func (u Upgrades) times() []namedTime {
	return []namedTime{
		{"apricotPhase1Time", u.ApricotPhase1Time},
		{"apricotPhase2Time", u.ApricotPhase2Time},
		{"apricotPhase3Time", u.ApricotPhase3Time},
		{"apricotPhase4Time", u.ApricotPhase4Time},
		{"apricotPhase5Time", u.ApricotPhase5Time},
		{"apricotPhasePre6Time", u.ApricotPhasePre6Time},
		{"apricotPhase6Time", u.ApricotPhase6Time},
		{"apricotPhasePost6Time", u.ApricotPhasePost6Time},
		{"banffTime", u.BanffTime},
		{"cortinaTime", u.CortinaTime},
		{"durangoTime", u.DurangoTime},
		{"etnaTime", u.EtnaTime},
		{"fortunaTime", u.FortunaTime},
		{"graniteTime", u.GraniteTime},
		{"heliconTime", u.HeliconTime},
	}
}

// Validate checks that the upgrades activate in order (each time at or after the one before it),
// that every time can be printed in RFC 3339 (years 0000 to 9999 in UTC), and that the Granite
// epoch is positive. It reports every problem at once.
func (u Upgrades) Validate() error {
	var errs []error
	ts := u.times()
	for _, nt := range ts {
		// info.upgrades prints the times in RFC 3339, which has four-digit years.
		if y := nt.t.UTC().Year(); y < 0 || y > 9999 {
			errs = append(errs, fmt.Errorf("upgrade %s must be in the years 0000 to 9999 (UTC), not %d", nt.name, y))
		}
	}
	for i := 1; i < len(ts); i++ {
		if ts[i].t.Before(ts[i-1].t) {
			errs = append(errs, fmt.Errorf("upgrade %s (%s) is before %s (%s)",
				ts[i].name, ts[i].t.Format(time.RFC3339), ts[i-1].name, ts[i-1].t.Format(time.RFC3339)))
		}
	}
	if u.GraniteEpochDuration <= 0 {
		errs = append(errs, fmt.Errorf("upgrade graniteEpochDuration must be positive, not %d", u.GraniteEpochDuration))
	}
	return errors.Join(errs...)
}

// inUTC returns u with every time converted to UTC, so it prints with `Z`.
func (u Upgrades) inUTC() Upgrades {
	for _, p := range []*time.Time{
		&u.ApricotPhase1Time, &u.ApricotPhase2Time, &u.ApricotPhase3Time, &u.ApricotPhase4Time,
		&u.ApricotPhase5Time, &u.ApricotPhasePre6Time, &u.ApricotPhase6Time, &u.ApricotPhasePost6Time,
		&u.BanffTime, &u.CortinaTime, &u.DurangoTime, &u.EtnaTime, &u.FortunaTime, &u.GraniteTime,
		&u.HeliconTime,
	} {
		*p = p.UTC()
	}
	return u
}

// ParseUpgrades decodes an upgrade schedule in the JSON shape of info.upgrades. Keys that are
// absent keep the default schedule's value (UpgradesFor of a custom network), as in the
// reference node; unknown keys are an error (cornice's own rule, to catch typos). The result is
// in UTC and validated.
func ParseUpgrades(data []byte) (Upgrades, error) {
	u := UpgradesFor(LocalID) // local has the default schedule
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return Upgrades{}, fmt.Errorf("decode upgrades: %w", err)
	}
	if dec.More() {
		return Upgrades{}, errors.New("decode upgrades: data after the JSON object")
	}
	u = u.inUTC()
	if err := u.Validate(); err != nil {
		return Upgrades{}, err
	}
	return u, nil
}

// LoadUpgradeFile reads the file of --upgrade-file with ParseUpgrades. Whether the network may
// use it is checked by Config.Validate (ErrUpgradesNotConfigurable for mainnet, fuji and local).
func LoadUpgradeFile(path string) (Upgrades, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Upgrades{}, fmt.Errorf("read upgrade file: %w", err)
	}
	if err := CheckJSON(path, data); err != nil {
		return Upgrades{}, fmt.Errorf("upgrade file %w", err)
	}
	u, err := ParseUpgrades(data)
	if err != nil {
		return Upgrades{}, fmt.Errorf("upgrade file %s: %w", path, err)
	}
	return u, nil
}

// equal reports whether u and v are the same schedule, comparing times as instants.
func (u Upgrades) equal(v Upgrades) bool {
	ut, vt := u.times(), v.times()
	for i := range ut {
		if !ut[i].t.Equal(vt[i].t) {
			return false
		}
	}
	return u.ApricotPhase4MinPChainHeight == v.ApricotPhase4MinPChainHeight &&
		u.CortinaXChainStopVertexID == v.CortinaXChainStopVertexID &&
		u.GraniteEpochDuration == v.GraniteEpochDuration
}
