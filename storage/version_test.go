package storage

import (
	"bytes"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersionWrittenOnCreate(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	got, err := db.Get(append(PrefixMeta.Bytes(), versionKey...))
	require.NoError(t, err)
	require.Equal(t, []byte("1"), got)
}

func TestVersionChecked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		version []byte // nil: delete the key
		extra   bool   // leave a non-version key in the database
		wantErr error
		wantMsg string
	}{
		{name: "current", version: []byte("1")},
		{name: "newer", version: []byte("2"), wantErr: ErrVersion,
			wantMsg: "database %s has version 2 but this cornice supports up to version 1 (upgrade cornice, or use another data dir): storage: unsupported database version"},
		{name: "zero", version: []byte("0"), wantErr: ErrVersion,
			wantMsg: `database %s has an unreadable version "0": storage: unsupported database version`},
		{name: "garbage", version: []byte("v1.0.0"), wantErr: ErrVersion,
			wantMsg: `database %s has an unreadable version "v1.0.0": storage: unsupported database version`},
		{name: "missing with data", extra: true, wantErr: ErrVersion,
			wantMsg: "database %s holds data but no version key (not a cornice database?): storage: unsupported database version"},
		{name: "missing and empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "db")
			db, err := Open(dir, testLog(t))
			require.NoError(t, err)
			key := append(PrefixMeta.Bytes(), versionKey...)
			if tt.version == nil {
				require.NoError(t, db.Delete(key))
			} else {
				require.NoError(t, db.Put(key, tt.version))
			}
			if tt.extra {
				require.NoError(t, db.Put([]byte("x"), []byte("data")))
			}
			require.NoError(t, db.Close())

			db, err = Open(dir, testLog(t))
			if tt.wantErr != nil {
				require.Nil(t, db)
				require.ErrorIs(t, err, tt.wantErr)
				require.EqualError(t, err, fmt.Sprintf(tt.wantMsg, dir))
				// A refused database is left alone and unlocked.
				_, err = Open(dir, slog.New(slog.DiscardHandler))
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			got, err := db.Get(key)
			require.NoError(t, err)
			require.Equal(t, []byte("1"), got)
			require.NoError(t, db.Close())
		})
	}
}

func TestDecodeVersion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    uint64
		wantErr bool
	}{
		{"1", 1, false},
		{"0", 0, false},
		{"42", 42, false},
		{"18446744073709551615", 1<<64 - 1, false},
		{"18446744073709551616", 0, true},
		{"", 0, true},
		{"01", 0, true},
		{"+1", 0, true},
		{"-1", 0, true},
		{" 1", 0, true},
		{"1.0", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := decodeVersion([]byte(tt.in))
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.in, string(encodeVersion(got)))
		})
	}
}

// FuzzDecodeVersion: decoding never panics, and what decodes re-encodes to
// the same bytes.
func FuzzDecodeVersion(f *testing.F) {
	for _, s := range []string{"1", "0", "01", "", "v1.0.0", "18446744073709551615", "99999999999999999999"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeVersion(b)
		if err != nil {
			return
		}
		require.True(t, bytes.Equal(b, encodeVersion(v)), "%q decoded to %d", b, v)
	})
}
