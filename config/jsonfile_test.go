package config

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckJSON pins the file:line:column texts of the JSON problems a user makes by hand.
func TestCheckJSON(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"{\n  \"a\": 1,\n}\n", `f.json:3:1: invalid character '}' looking for beginning of object key string`},
		{`{"a" 1}`, `f.json:1:6: invalid character '1' after object key`},
		{"{\n\t\"a\": tru\n}", `f.json:2:10: invalid character '\n' in literal true (expecting 'e')`},
		{`{"a": [1, 2`, `f.json:1:12: unexpected end of file: the JSON value is not closed`},
		{"", `f.json: empty file: expected a JSON object`},
		{"  \n", `f.json: empty file: expected a JSON object`},
		{"{}\n{}", `f.json:2:1: more data after the JSON value`},
		{"{} x", `f.json:1:4: more data after the JSON value`},
	} {
		err := CheckJSON("f.json", []byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("CheckJSON(%q) = %v, want %s", tc.data, err, tc.want)
		}
	}
	for _, ok := range []string{`{}`, " {\"a\": [1]}\n", `null`} {
		if err := CheckJSON("f.json", []byte(ok)); err != nil {
			t.Errorf("CheckJSON(%q) = %v, want nil", ok, err)
		}
	}
}

// TestLoadFileNotJSON: a --config-file that is not a JSON object says where, in the user's terms.
func TestLoadFileNotJSON(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"{\n  \"http-port\": 9650,\n}", "%s:3:1: invalid character '}' looking for beginning of object key string"},
		{"[1]", "%s: expected a JSON object of settings keyed by flag name"},
		{"null", "%s: expected a JSON object of settings keyed by flag name"},
		{"{} x", "%s:1:4: more data after the JSON value"},
		{"", "%s: empty file: expected a JSON object"},
	} {
		path := filepath.Join(t.TempDir(), "node.json")
		if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
			t.Fatal(err)
		}
		got := Default()
		err := LoadFile(path, &got)
		want := "config file " + fmt.Sprintf(tc.want, path)
		if err == nil || err.Error() != want {
			t.Errorf("LoadFile(%q) = %v, want %s", tc.file, err, want)
		}
	}
}

// TestLoadUpgradeFileNotJSON: --upgrade-file's JSON mistakes say where they are.
func TestLoadUpgradeFileNotJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "upgrades.json")
	if err := os.WriteFile(path, []byte("{\n\"apricotPhase1Time\": ,\n}"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadUpgradeFile(path)
	want := "upgrade file " + path + ":2:22: invalid character ',' looking for beginning of value"
	if err == nil || err.Error() != want {
		t.Errorf("LoadUpgradeFile = %v, want %s", err, want)
	}
}
