package storage

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPebbleLogger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		call      func(pebbleLogger)
		wantLevel string
		wantPanic bool
	}{
		{"info is debug", func(l pebbleLogger) { l.Infof("flushed %d\n", 7) }, "level=DEBUG msg=\"flushed 7\"", false},
		{"error", func(l pebbleLogger) { l.Errorf("bad %s", "thing") }, "level=ERROR msg=\"bad thing\"", false},
		{"fatal panics", func(l pebbleLogger) { l.Fatalf("corrupt %s", "manifest") }, "level=ERROR msg=\"corrupt manifest\" fatal=true", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			l := pebbleLogger{log: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
				Level:       slog.LevelDebug,
				ReplaceAttr: dropTime,
			}))}
			if tt.wantPanic {
				require.PanicsWithValue(t, "pebble: fatal: corrupt manifest", func() { tt.call(l) })
			} else {
				tt.call(l)
			}
			require.Equal(t, tt.wantLevel+"\n", buf.String())
		})
	}
}

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
