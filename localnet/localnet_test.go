package localnet

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A new network's description: the five stakers' identities (the reference's local NodeIDs)
// written where `cornice run` reads them, ports two apart, a sixth node without identity; each
// node bootstraps from every staker but itself.
func TestCreate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := create(Config{Dir: dir, Nodes: 6, HTTPPort: 1000, StakingPort: 1001})
	require.NoError(t, err)
	require.Len(t, st.Nodes, 6)
	require.Equal(t, Node{Name: "node1", NodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", HTTPPort: 1000, StakingPort: 1001}, st.Nodes[0])
	require.Equal(t, "NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5", st.Nodes[4].NodeID)
	require.Equal(t, Node{Name: "node6", HTTPPort: 1010, StakingPort: 1011}, st.Nodes[5])
	for _, f := range []string{"staker.crt", "staker.key", "signer.key"} {
		require.FileExists(t, filepath.Join(dir, "node3", "staking", f))
		require.NoFileExists(t, filepath.Join(dir, "node6", "staking", f))
	}

	a := strings.Join(args(dir, st, 1), " ")
	require.Contains(t, a, "--data-dir="+filepath.Join(dir, "node2")+" --http-port=1002 --staking-port=1003")
	require.Contains(t, a, "--bootstrap-ips=127.0.0.1:1001,127.0.0.1:1005,127.0.0.1:1007,127.0.0.1:1009 ")
	require.NotContains(t, a, st.Nodes[1].NodeID)
	require.Contains(t, strings.Join(args(dir, st, 5), " "), "--bootstrap-ids="+st.Nodes[0].NodeID+",")

	back, err := load(dir)
	require.NoError(t, err)
	require.Equal(t, st, back)
	status, err := Status(dir)
	require.NoError(t, err)
	require.False(t, status[0].Running)
	require.NoError(t, Stop(context.Background(), dir), "nothing runs: nothing to stop")
}

func TestCreateErrors(t *testing.T) {
	t.Parallel()
	_, err := create(Config{Dir: t.TempDir(), Nodes: MaxNodes + 1})
	require.ErrorContains(t, err, "a local network has 1 to 64 nodes, not 65")
	_, err = create(Config{Dir: t.TempDir(), Nodes: 3, HTTPPort: 65534})
	require.ErrorContains(t, err, "node2's ports 65536 and 9653: a port is at most 65535")
	for _, name := range []string{"node4", "node0", "node01", "n1"} {
		_, err = create(Config{Dir: t.TempDir(), Nodes: 3, NodeArgs: map[string][]string{name: {"--relay=true"}}})
		require.ErrorContains(t, err, "flags for \""+name+"\": the network has node1 to node3")
	}
	_, err = Status(t.TempDir())
	require.ErrorIs(t, err, os.ErrNotExist)
	require.ErrorContains(t, Kill(t.TempDir(), "node1"), "no local network in")
}

// Flags for one node come after the network's, on that node only, and are kept in the
// description.
func TestNodeArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := create(Config{Dir: dir, Nodes: 3, Args: []string{"--log-level=debug"}, NodeArgs: map[string][]string{"node2": {"--relay=true"}}})
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(strings.Join(args(dir, st, 1), " "), " --log-level=debug --relay=true"))
	for _, i := range []int{0, 2} {
		a := strings.Join(args(dir, st, i), " ")
		require.True(t, strings.HasSuffix(a, " --log-level=debug"), a)
		require.NotContains(t, a, "--relay")
	}
	back, err := load(dir)
	require.NoError(t, err)
	require.Equal(t, st, back)

	created, err := Created(dir)
	require.NoError(t, err)
	require.Equal(t, Config{Nodes: 3, HTTPPort: DefaultHTTPPort, StakingPort: DefaultStakingPort,
		Args: []string{"--log-level=debug"}, NodeArgs: map[string][]string{"node2": {"--relay=true"}}}, created)
	_, err = Created(t.TempDir())
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A network with L1s: every node's flags track their subnets (the validators run them anyway,
// the others need it), a node validates all of them only when named in each, and the L1s are
// kept in the description.
func TestL1State(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := create(Config{Dir: dir, Nodes: 3, HTTPPort: 1000, StakingPort: 1001})
	require.NoError(t, err)
	require.Empty(t, trackArgs(st))
	require.NotContains(t, strings.Join(args(dir, st, 0), " "), "--track-subnets")
	require.True(t, validatesAll(st, "node3"), "no L1: nothing to track")

	st.L1s = []L1{
		{Name: "a", BlockchainID: "chainA", SubnetID: "subnetA", Validators: []string{"node1", "node2"}},
		{Name: "b", BlockchainID: "chainB", SubnetID: "subnetB", Validators: []string{"node1"}},
	}
	require.NoError(t, save(dir, st))
	require.Contains(t, strings.Join(args(dir, st, 2), " "), " --track-subnets=subnetA,subnetB")
	require.True(t, validatesAll(st, "node1"))
	require.False(t, validatesAll(st, "node2"))
	require.False(t, validatesAll(st, "node3"))
	require.Equal(t, []string{"P", "X", "C", "chainA", "chainB"}, chainsOf(st))
	require.Equal(t, "http://127.0.0.1:1002/ext/bc/chainA/rpc", st.L1s[0].RPC(st.Nodes[1]))

	l1s, err := L1s(dir)
	require.NoError(t, err)
	require.Equal(t, st.L1s, l1s)
	_, err = createL1s(context.Background(), dir, st, []L1Config{{Genesis: []byte("{}"), Name: "c", Validators: 4}})
	require.ErrorContains(t, err, `L1 "c": 4 validators on a network of 3 nodes`)
}
