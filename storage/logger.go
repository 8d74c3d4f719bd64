package storage

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/cockroachdb/pebble/v2"
)

// pebbleLogger adapts Pebble's printf-style Logger onto slog.
//
// Levels: Pebble's Infof is housekeeping (WAL recycling, format upgrades)
// and goes to Debug; Errorf goes to Error. Fatalf is how Pebble reports an
// invariant it cannot survive (a corrupt manifest, say); its contract is
// that Fatalf does not return. The default logger calls os.Exit, which would
// end the node without its shutdown; instead we log at Error and panic, so
// the panic unwinds to cmd/cornice, which reports it.
type pebbleLogger struct {
	log *slog.Logger
}

var _ pebble.Logger = pebbleLogger{}

// Infof logs at Debug.
func (l pebbleLogger) Infof(format string, args ...any) {
	l.log.Debug(message(format, args))
}

// Errorf logs at Error.
func (l pebbleLogger) Errorf(format string, args ...any) {
	l.log.Error(message(format, args))
}

// Fatalf logs at Error and panics: Pebble requires that it not return.
func (l pebbleLogger) Fatalf(format string, args ...any) {
	msg := message(format, args)
	l.log.Error(msg, "fatal", true)
	panic(fmt.Sprintf("pebble: fatal: %s", msg))
}

func message(format string, args []any) string {
	return strings.TrimSpace(fmt.Sprintf(format, args...))
}

// eventListener logs the Pebble events an operator may need to act on.
func eventListener(log *slog.Logger) *pebble.EventListener {
	return &pebble.EventListener{
		BackgroundError: func(err error) {
			log.Error("background error", "err", err)
		},
		DataCorruption: func(info pebble.DataCorruptionInfo) {
			log.Error("data corruption", "info", info.String())
		},
		DiskSlow: func(info pebble.DiskSlowInfo) {
			log.Warn("disk slow", "info", info.String())
		},
		LowDiskSpace: func(info pebble.LowDiskSpaceInfo) {
			log.Warn("low disk space", "info", info.String())
		},
		WriteStallBegin: func(info pebble.WriteStallBeginInfo) {
			log.Warn("write stall began", "info", info.String())
		},
		WriteStallEnd: func() {
			log.Info("write stall ended")
		},
	}
}
