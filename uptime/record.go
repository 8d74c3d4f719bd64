package uptime

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/cornice-node/cornice/ids"
)

// recordVersion is the first byte of every stored record. A new layout takes a new version.
const recordVersion = 0

// recordLen is the length of an encoded record: version, NodeID, start time, active flag, up time
// (nanoseconds), lastUpdated (unix seconds, then nanoseconds).
const recordLen = 1 + ids.NodeIDLen + 8 + 1 + 8 + 8 + 4

// record is what the tracker keeps about one validator.
type record struct {
	nodeID ids.NodeID
	// startTime is the validator's start, in unix seconds, as the chain reports it.
	startTime uint64
	// active is false for an L1 validator out of fee balance: it counts as offline.
	active bool
	// up is the up time accumulated until lastUpdated. Invariant: up >= 0.
	up          time.Duration
	lastUpdated time.Time
}

// encode returns r's stored form.
func (r *record) encode() []byte {
	b := make([]byte, 0, recordLen)
	b = append(b, recordVersion)
	b = append(b, r.nodeID[:]...)
	b = binary.BigEndian.AppendUint64(b, r.startTime)
	var active byte
	if r.active {
		active = 1
	}
	b = append(b, active)
	b = binary.BigEndian.AppendUint64(b, uint64(r.up))
	b = binary.BigEndian.AppendUint64(b, uint64(r.lastUpdated.Unix()))
	return binary.BigEndian.AppendUint32(b, uint32(r.lastUpdated.Nanosecond()))
}

// decodeRecord parses a stored record. It accepts exactly what encode produces.
func decodeRecord(b []byte) (record, error) {
	if len(b) != recordLen {
		return record{}, fmt.Errorf("%w: %d bytes, want %d", ErrCorrupt, len(b), recordLen)
	}
	if b[0] != recordVersion {
		return record{}, fmt.Errorf("%w: version %d", ErrCorrupt, b[0])
	}
	var r record
	b = b[1:]
	copy(r.nodeID[:], b)
	b = b[ids.NodeIDLen:]
	r.startTime = binary.BigEndian.Uint64(b)
	switch b[8] {
	case 0:
	case 1:
		r.active = true
	default:
		return record{}, fmt.Errorf("%w: active flag %d", ErrCorrupt, b[8])
	}
	up := binary.BigEndian.Uint64(b[9:])
	if up > math.MaxInt64 {
		return record{}, fmt.Errorf("%w: negative up time", ErrCorrupt)
	}
	r.up = time.Duration(up)
	sec := int64(binary.BigEndian.Uint64(b[17:]))
	nsec := binary.BigEndian.Uint32(b[25:])
	if nsec >= uint32(time.Second) {
		return record{}, fmt.Errorf("%w: %d nanoseconds", ErrCorrupt, nsec)
	}
	r.lastUpdated = time.Unix(sec, int64(nsec))
	return r, nil
}

// startTimeOf returns a start time in unix seconds as a time. Values beyond math.MaxInt64/2 (never
// sent by a real chain) are clamped to it: time.Unix wraps around for seconds near int64's limit,
// which would put such a start in the distant past and count the whole span as up time.
func startTimeOf(unix uint64) time.Time {
	return time.Unix(int64(min(unix, math.MaxInt64/2)), 0)
}
