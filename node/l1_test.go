package node

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/api/l1validators"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/validators"
	"github.com/cornice-node/cornice/vms/platform"
)

func TestChainFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	id := ids.ID{1}
	write := func(name, file, text string) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, file), []byte(text), 0o600))
	}
	// Each file holds a JSON string that names it: the node checks that they are JSON.
	write(id.String(), "upgrade.json", `"u1"`)
	write("C", "config.json", `"cC"`)
	write("C", "upgrade.json", `"uC"`)
	write("alias2", "config.json", `"c2"`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "file"), nil, 0o600))

	tests := []struct {
		name          string
		id            ids.ID
		aliases       []string
		upgrade, conf []byte
	}{
		{name: "by ID, config absent", id: id, aliases: []string{"C"}, upgrade: []byte(`"u1"`)},
		{name: "by alias", id: ids.ID{2}, aliases: []string{"C", "alias2"}, upgrade: []byte(`"uC"`), conf: []byte(`"cC"`)},
		{name: "second alias", id: ids.ID{2}, aliases: []string{"none", "alias2"}, conf: []byte(`"c2"`)},
		{name: "a file is not a chain's directory", id: ids.ID{3}, aliases: []string{"file"}},
		{name: "nothing", id: ids.ID{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u, c, err := chainFiles(dir, tt.id, tt.aliases)
			require.NoError(t, err)
			require.Equal(t, tt.upgrade, u)
			require.Equal(t, tt.conf, c)
		})
	}

	u, c, err := chainFiles(filepath.Join(dir, "missing"), id, nil)
	require.NoError(t, err)
	require.Nil(t, u)
	require.Nil(t, c)
}

// fakeP is a P-Chain with fixed validators.
type fakeP struct {
	l1     map[ids.ID][]platform.L1Validator
	legacy map[ids.ID][]platform.SubnetValidator
	// stakers are the Primary Network's stakers as recorded; nil: legacy's Primary Network.
	stakers []platform.SubnetValidator
	err     error
}

func (f fakeP) Blockchains() ([]platform.Blockchain, error) { return nil, f.err }
func (f fakeP) ValidatesSubnet(ids.NodeID, ids.ID) (bool, error) {
	return false, f.err
}

func (f fakeP) SubnetValidators(subnetID ids.ID) ([]platform.SubnetValidator, error) {
	return f.legacy[subnetID], f.err
}

func (f fakeP) PrimaryStakers() ([]platform.SubnetValidator, error) {
	if f.stakers != nil {
		return f.stakers, f.err
	}
	return f.legacy[ids.Empty], f.err
}

func (f fakeP) CurrentValidators(subnetID ids.ID) ([]platform.SubnetValidator, []platform.L1Validator, error) {
	return f.legacy[subnetID], f.l1[subnetID], f.err
}

func TestRefreshValidators(t *testing.T) {
	t.Parallel()
	a, b, c := ids.NodeID{0xa}, ids.NodeID{0xb}, ids.NodeID{0xc}
	s1, s2 := ids.ID{1}, ids.ID{2}
	set := validators.New()
	require.NoError(t, set.Add(ids.Empty, a, 1000))
	require.NoError(t, set.Add(s1, a, 5))
	require.NoError(t, set.Add(s1, c, 9))
	require.NoError(t, set.Add(s2, c, 1))

	p := fakeP{
		l1: map[ids.ID][]platform.L1Validator{s1: {
			{NodeID: a, Weight: 3, Balance: 1},
			{NodeID: b, Weight: 4, Balance: 0}, // inactive: not in the set
			{NodeID: c, Weight: 0, Balance: 5}, // removed
		}},
		legacy: map[ids.ID][]platform.SubnetValidator{
			s1:        {{NodeID: a, Weight: 2}, {NodeID: b, Weight: 6}},
			ids.Empty: {{NodeID: a, Weight: 2000}},
		},
	}
	s := &subnets{n: &Node{validators: set}, p: p, known: map[ids.ID]struct{}{s2: {}}}
	require.NoError(t, s.refreshValidators(map[ids.ID]struct{}{s1: {}}))
	require.Equal(t, []validators.Validator{{NodeID: a, Weight: 5}, {NodeID: b, Weight: 6}}, set.List(s1))
	require.Empty(t, set.List(s2), "a subnet refreshed before is emptied")
	require.Equal(t, []validators.Validator{{NodeID: a, Weight: 2000}}, set.List(ids.Empty), "the Primary Network's set is the P-Chain's too")
	require.Contains(t, s.known, s1)

	// Weights go up and down.
	p.l1[s1][0].Weight = 10
	p.legacy[s1] = nil
	require.NoError(t, s.refreshValidators(map[ids.ID]struct{}{}))
	require.Equal(t, []validators.Validator{{NodeID: a, Weight: 10}}, set.List(s1))

	errRead := errors.New("read")
	s.p = fakeP{err: errRead}
	require.ErrorIs(t, s.refreshValidators(map[ids.ID]struct{}{}), errRead)
}

func TestCurrentValidators(t *testing.T) {
	t.Parallel()
	s1 := ids.ID{1}
	p := fakeP{
		l1: map[ids.ID][]platform.L1Validator{s1: {
			{ValidationID: ids.ID{7}, NodeID: ids.NodeID{1}, Weight: 3, Balance: 1, StartTime: 11},
			{ValidationID: ids.ID{8}, NodeID: ids.NodeID{2}, Weight: 4, StartTime: 12},
			{ValidationID: ids.ID{9}, NodeID: ids.NodeID{3}},
		}},
		legacy: map[ids.ID][]platform.SubnetValidator{s1: {{TxID: ids.ID{5}, NodeID: ids.NodeID{4}, Weight: 2, StartTime: 13, EndTime: 99}}},
	}
	got, err := subnetSource{p: p, subnetID: s1}.CurrentValidators(t.Context())
	require.NoError(t, err)
	require.Equal(t, []l1validators.Validator{
		{ValidationID: ids.ID{7}, NodeID: ids.NodeID{1}, Weight: 3, StartTime: 11, IsActive: true, IsL1Validator: true},
		{ValidationID: ids.ID{8}, NodeID: ids.NodeID{2}, Weight: 4, StartTime: 12, IsActive: false, IsL1Validator: true},
		{ValidationID: ids.ID{5}, NodeID: ids.NodeID{4}, Weight: 2, StartTime: 13, IsActive: true},
	}, got)
	got, err = subnetSource{p: p, subnetID: ids.ID{2}}.CurrentValidators(t.Context())
	require.NoError(t, err)
	require.Empty(t, got)
}

func TestSaturatingAdd(t *testing.T) {
	t.Parallel()
	const maxU64 = ^uint64(0)
	tests := []struct {
		name string
		a, b uint64
		want uint64
	}{
		{name: "small", a: 2, b: 3, want: 5},
		{name: "to the top", a: maxU64 - 1, b: 1, want: maxU64},
		{name: "past the top", a: maxU64 - 1, b: 2, want: maxU64},
		{name: "both large", a: maxU64, b: maxU64, want: maxU64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, saturatingAdd(tt.a, tt.b))
		})
	}
}
