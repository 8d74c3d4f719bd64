package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The exact info.upgrades results of node-api.md §3.13.
const (
	mainnetUpgradesJSON = `{"apricotPhase1Time":"2021-03-31T14:00:00Z","apricotPhase2Time":"2021-05-10T11:00:00Z","apricotPhase3Time":"2021-08-24T14:00:00Z","apricotPhase4Time":"2021-09-22T21:00:00Z","apricotPhase4MinPChainHeight":793005,"apricotPhase5Time":"2021-12-02T18:00:00Z","apricotPhasePre6Time":"2022-09-05T01:30:00Z","apricotPhase6Time":"2022-09-06T20:00:00Z","apricotPhasePost6Time":"2022-09-07T03:00:00Z","banffTime":"2022-10-18T16:00:00Z","cortinaTime":"2023-04-25T15:00:00Z","cortinaXChainStopVertexID":"jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga","durangoTime":"2024-03-06T16:00:00Z","etnaTime":"2024-12-16T17:00:00Z","fortunaTime":"2025-04-08T15:00:00Z","graniteTime":"2025-11-19T16:00:00Z","graniteEpochDuration":300000000000,"heliconTime":"9999-12-01T00:00:00Z"}`
	fujiUpgradesJSON    = `{"apricotPhase1Time":"2021-03-26T14:00:00Z","apricotPhase2Time":"2021-05-05T14:00:00Z","apricotPhase3Time":"2021-08-16T19:00:00Z","apricotPhase4Time":"2021-09-16T21:00:00Z","apricotPhase4MinPChainHeight":47437,"apricotPhase5Time":"2021-11-24T15:00:00Z","apricotPhasePre6Time":"2022-09-06T20:00:00Z","apricotPhase6Time":"2022-09-06T20:00:00Z","apricotPhasePost6Time":"2022-09-07T06:00:00Z","banffTime":"2022-10-03T14:00:00Z","cortinaTime":"2023-04-06T15:00:00Z","cortinaXChainStopVertexID":"2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ","durangoTime":"2024-02-13T16:00:00Z","etnaTime":"2024-11-25T16:00:00Z","fortunaTime":"2025-03-13T15:00:00Z","graniteTime":"2025-10-29T15:00:00Z","graniteEpochDuration":300000000000,"heliconTime":"9999-12-01T00:00:00Z"}`
	defaultUpgradesJSON = `{"apricotPhase1Time":"2020-12-05T05:00:00Z","apricotPhase2Time":"2020-12-05T05:00:00Z","apricotPhase3Time":"2020-12-05T05:00:00Z","apricotPhase4Time":"2020-12-05T05:00:00Z","apricotPhase4MinPChainHeight":0,"apricotPhase5Time":"2020-12-05T05:00:00Z","apricotPhasePre6Time":"2020-12-05T05:00:00Z","apricotPhase6Time":"2020-12-05T05:00:00Z","apricotPhasePost6Time":"2020-12-05T05:00:00Z","banffTime":"2020-12-05T05:00:00Z","cortinaTime":"2020-12-05T05:00:00Z","cortinaXChainStopVertexID":"11111111111111111111111111111111LpoYY","durangoTime":"2020-12-05T05:00:00Z","etnaTime":"2020-12-05T05:00:00Z","fortunaTime":"2020-12-05T05:00:00Z","graniteTime":"2020-12-05T05:00:00Z","graniteEpochDuration":30000000000,"heliconTime":"9999-12-01T00:00:00Z"}`
)

func TestUpgradesForGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		networkID uint32
		want      string
	}{
		{"mainnet", MainnetID, mainnetUpgradesJSON},
		{"fuji", FujiID, fujiUpgradesJSON},
		{"local", LocalID, defaultUpgradesJSON},
		{"testing", TestingID, defaultUpgradesJSON},
		{"custom", 99, defaultUpgradesJSON},
		{"cascade", CascadeID, defaultUpgradesJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := UpgradesFor(tt.networkID)
			got, err := json.Marshal(u)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(got))
			require.NoError(t, u.Validate())

			// Round trip: the JSON decodes back to the same schedule and encodes to the same bytes.
			back, err := ParseUpgrades(got)
			require.NoError(t, err)
			require.Equal(t, u, back)
			again, err := json.Marshal(back)
			require.NoError(t, err)
			require.Equal(t, string(got), string(again))
		})
	}
}

func TestParseUpgrades(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		check   func(t *testing.T, u Upgrades)
		wantErr string
	}{
		{
			name: "absent keys keep the default",
			in:   `{"heliconTime":"2030-01-01T00:00:00Z"}`,
			check: func(t *testing.T, u Upgrades) {
				want := UpgradesFor(LocalID)
				want.HeliconTime = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
				require.Equal(t, want, u)
			},
		},
		{
			name: "offsets become UTC",
			in:   `{"heliconTime":"2030-01-01T01:00:00+01:00"}`,
			check: func(t *testing.T, u Upgrades) {
				b, err := json.Marshal(u)
				require.NoError(t, err)
				require.Contains(t, string(b), `"heliconTime":"2030-01-01T00:00:00Z"`)
			},
		},
		{
			name: "epoch and height are numbers",
			in:   `{"graniteEpochDuration":1000000000,"apricotPhase4MinPChainHeight":5}`,
			check: func(t *testing.T, u Upgrades) {
				require.Equal(t, time.Second, u.GraniteEpochDuration)
				require.Equal(t, uint64(5), u.ApricotPhase4MinPChainHeight)
			},
		},
		{
			name:    "out of order",
			in:      `{"durangoTime":"2019-01-01T00:00:00Z"}`,
			wantErr: "upgrade durangoTime (2019-01-01T00:00:00Z) is before cortinaTime (2020-12-05T05:00:00Z)",
		},
		{
			name: "every problem at once",
			in:   `{"banffTime":"2030-01-01T00:00:00Z","graniteEpochDuration":0}`,
			wantErr: "upgrade cortinaTime (2020-12-05T05:00:00Z) is before banffTime (2030-01-01T00:00:00Z)\n" +
				"upgrade graniteEpochDuration must be positive, not 0",
		},
		{
			name:    "year past 9999 in UTC",
			in:      `{"heliconTime":"9999-12-31T23:00:00-02:00"}`,
			wantErr: "upgrade heliconTime must be in the years 0000 to 9999 (UTC), not 10000",
		},
		{name: "unknown key", in: `{"fooTime":"2030-01-01T00:00:00Z"}`, wantErr: `decode upgrades: json: unknown field "fooTime"`},
		{name: "bad time", in: `{"banffTime":"soon"}`, wantErr: "decode upgrades: "},
		{name: "bad vertex", in: `{"cortinaXChainStopVertexID":"xyz"}`, wantErr: "decode upgrades: "},
		{name: "trailing data", in: `{} {}`, wantErr: "decode upgrades: data after the JSON object"},
		{name: "not an object", in: `[]`, wantErr: "decode upgrades: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u, err := ParseUpgrades([]byte(tt.in))
			if tt.wantErr != "" {
				require.Error(t, err)
				require.True(t, strings.HasPrefix(err.Error(), tt.wantErr), err.Error())
				return
			}
			require.NoError(t, err)
			tt.check(t, u)
		})
	}
}

func TestLoadUpgradeFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "upgrades.json")
	require.NoError(t, os.WriteFile(path, []byte(mainnetUpgradesJSON), 0o600))
	u, err := LoadUpgradeFile(path)
	require.NoError(t, err)
	require.Equal(t, UpgradesFor(MainnetID), u)

	_, err = LoadUpgradeFile(filepath.Join(dir, "missing.json"))
	require.ErrorIs(t, err, os.ErrNotExist)

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"x":1}`), 0o600))
	_, err = LoadUpgradeFile(bad)
	require.EqualError(t, err, "upgrade file "+bad+`: decode upgrades: json: unknown field "x"`)
}

// FuzzParseUpgrades checks that decoding never panics and that an accepted schedule encodes to
// JSON that decodes to the same schedule.
func FuzzParseUpgrades(f *testing.F) {
	for _, s := range []string{mainnetUpgradesJSON, fujiUpgradesJSON, defaultUpgradesJSON, `{}`, `{"heliconTime":"2030-01-01T00:00:00+01:00"}`, `{"heliconTime":"9999-12-31T23:00:00-02:00"}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := ParseUpgrades(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(u)
		require.NoError(t, err)
		back, err := ParseUpgrades(b)
		require.NoError(t, err)
		require.Equal(t, u, back)
	})
}
