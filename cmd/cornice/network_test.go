package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/localnet"
)

// `network start` on an existing network refuses a flag of a new network's shape that differs
// from what the network was created with, naming it and saying how to create the network anew,
// before anything starts; a flag equal to the network's own value, or not given, is accepted.
func TestNetworkStartKeepsShape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A network of two nodes whose node2 runs the relay, as localnet writes its description
	// (network.json); nothing runs.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "network.json"), []byte(`{
  "nodes": [
    {"name": "node1", "httpPort": 9650, "stakingPort": 9651},
    {"name": "node2", "httpPort": 9652, "stakingPort": 9653}
  ],
  "nodeArgs": {"node2": ["--relay=true"]}
}`), 0o600))
	have, err := localnet.Created(dir)
	require.NoError(t, err)

	var stdout, stderr bytes.Buffer
	code := execute(t.Context(), []string{"network", "start", "--dir", dir, "--nodes", "2", "--relay-node", "1", "--http-port", "9650"},
		&stdout, &stderr, nil)
	require.Equal(t, 1, code)
	require.Equal(t, "cornice: --relay-node 1: the network in "+dir+" was created with --relay-node 2, and start resumes a network "+
		"as it was created; to create it anew with these flags, run `cornice network stop --dir "+dir+"`, remove "+dir+", and start again\n",
		stderr.String())
	require.Empty(t, stdout.String())

	tests := []struct {
		name    string
		args    []string
		refused string // "" when accepted
	}{
		{"none given", nil, ""},
		{"equal to the network's", []string{"--nodes", "2", "--http-port", "9650", "--staking-port", "9651", "--relay-node", "2"}, ""},
		{"other flags", []string{"--l1-validators", "1", "--wait", "1s"}, ""},
		{"all differ", []string{"--nodes", "5", "--http-port", "1000", "--staking-port", "1001", "--relay-node", "0"},
			"--nodes 5 --http-port 1000 --staking-port 1001 --relay-node 0: the network in " + dir +
				" was created with --nodes 2 --http-port 9650 --staking-port 9651 --relay-node 2,"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, _, err := newNetworkCmd(&stdout).Find([]string{"start"})
			require.NoError(t, err)
			require.NoError(t, start.ParseFlags(tt.args))
			err = keepsShape(start.Flags(), dir, have)
			if tt.refused == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tt.refused)
		})
	}
}
