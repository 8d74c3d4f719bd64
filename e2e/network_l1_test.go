package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/localnet"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/payload"
)

// exampleL1Genesis is the example L1's genesis (EVM chain ID 99999, the local key funded).
const exampleL1Genesis = "../examples/l1-genesis.json"

// genesisWithChainID writes the example genesis with EVM chain ID id into a file of name in a temporary
// directory, and returns its path.
func genesisWithChainID(t testing.TB, name string, id string) string {
	t.Helper()
	b, err := os.ReadFile(exampleL1Genesis)
	require.NoError(t, err)
	g := strings.Replace(string(b), `"chainId": 99999,`, `"chainId": `+id+`,`, 1)
	require.NotEqual(t, string(b), g)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(g), 0o600))
	return path
}

// l1Of returns the network's L1 named name, and checks what `cornice network` printed of it: its
// line, and its RPC URL on every node.
func (nw *localNetwork) l1Of(t testing.TB, stdout, name string) localnet.L1 {
	t.Helper()
	l1s, err := localnet.L1s(nw.dir)
	require.NoError(t, err)
	for _, l := range l1s {
		if l.Name != name {
			continue
		}
		require.Contains(t, stdout, `L1 "`+name+`"  blockchainID `+l.BlockchainID+"  subnetID "+l.SubnetID+"  validators "+strings.Join(l.Validators, ","))
		for _, n := range nw.nodes {
			require.Contains(t, stdout, "  "+n.Name+"  rpc "+l.RPC(n)+"\n")
		}
		return l
	}
	require.FailNow(t, "no L1 "+name, "%v", l1s)
	return localnet.L1{}
}

// requireL1Validators checks that the P-Chain (node 1's) records exactly the nodes of l's
// Validators as its L1 validators, each of weight.
func (nw *localNetwork) requireL1Validators(t testing.TB, l localnet.L1, weight string) {
	t.Helper()
	var res struct {
		Validators []struct {
			NodeID string `json:"nodeID"`
			Weight string `json:"weight"`
		} `json:"validators"`
	}
	require.NoError(t, nw.call(t, 0, "/ext/bc/P", "platform.getCurrentValidators", map[string]any{"subnetID": l.SubnetID}, &res))
	var got, want []string
	for _, v := range res.Validators {
		require.Equal(t, weight, v.Weight, v.NodeID)
		got = append(got, v.NodeID)
	}
	for _, n := range nw.nodes {
		if strings.Contains(","+strings.Join(l.Validators, ",")+",", ","+n.Name+",") {
			want = append(want, n.NodeID)
		}
	}
	require.ElementsMatch(t, want, got)
}

// requireL1BlockSigned checks that node i's warp_getBlockAggregateSignature at quorum 100 gives
// the block of tx on l signed by every validator of l.
func (nw *localNetwork) requireL1BlockSigned(t testing.TB, i int, l localnet.L1, tx common.Hash) {
	t.Helper()
	rc, err := rpc.DialContext(t.Context(), l.RPC(nw.nodes[i]))
	require.NoError(t, err)
	defer rc.Close()
	r, err := ethclient.NewClient(rc).TransactionReceipt(t.Context(), tx)
	require.NoError(t, err)
	var signed hexutil.Bytes
	require.NoError(t, rc.CallContext(t.Context(), &signed, "warp_getBlockAggregateSignature", ids.ID(r.BlockHash).String(), 100, ""))
	m, err := warp.ParseMessage(signed)
	require.NoError(t, err)
	chainID, err := ids.FromString(l.BlockchainID)
	require.NoError(t, err)
	require.Equal(t, warp.NewUnsignedMessage(12345, chainID, (&payload.Hash{Hash: ids.ID(r.BlockHash)}).Bytes()).Bytes(), m.UnsignedMessage.Bytes())
	subnetID, err := ids.FromString(l.SubnetID)
	require.NoError(t, err)
	set := nw.subnetSet(t, subnetID, len(l.Validators))
	require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, 12345, set, 100, 100))
}

// An L1 with three validators on the five-node network, made by `cornice network start --l1`:
// the P-Chain records the three; every node runs its chain (the other two track its subnet);
// a transfer sent to a validator and one sent to a node that only tracks it are each accepted
// with the same block at the same height on all five, and every node's index of the chain holds
// the same containers.
//
// Then a second L1 is added to the running network, with two validators of weight 1: a total
// weight of 2, below K = 20 (network-consensus-warp.md §2.2, the small-network trap). It still
// accepts transfers on every node. Last, `cornice network stop` and `start` resume both L1s.
//
// The example genesis enables Warp: node 4, which tracks the first L1 without validating it,
// answers warp_getBlockAggregateSignature with the signatures of all three validators, which
// its aggregator asked for over the network (ACP-118), verifying at 100 % against the L1's set.
func TestNetworkL1(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	nw, stdout := startNetworkWith(t, 5, "--l1", exampleL1Genesis, "--l1-validators", "3")
	l1 := nw.l1Of(t, stdout, "l1 genesis")
	require.Equal(t, []string{"node1", "node2", "node3"}, l1.Validators)
	nw.requireL1Validators(t, l1, "100")

	nw.requireReceiptEverywhere(t, l1.BlockchainID, nw.sendTransfer(t, 0, l1.BlockchainID, 99999, 0))
	transfer := nw.sendTransfer(t, 3, l1.BlockchainID, 99999, 1)
	nw.requireReceiptEverywhere(t, l1.BlockchainID, transfer)
	nw.requireSameIndexes(t, 2, "/ext/index/"+l1.BlockchainID+"/block")
	nw.requireL1BlockSigned(t, 3, l1, transfer)

	code, stdout, stderr := runCLI(t, "network", "start", "--dir", nw.dir, "--wait", networkWait.String(),
		"--l1", genesisWithChainID(t, "below-k.json", "99998"), "--l1-validators", "2", "--l1-weight", "1")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	small := nw.l1Of(t, stdout, "below k")
	require.Equal(t, []string{"node1", "node2"}, small.Validators)
	require.Regexp(t, regexp.MustCompile(`validators node1,node2 \(weight 1 each\)`), stdout)
	nw.requireL1Validators(t, small, "1")
	nw.l1Of(t, stdout, "l1 genesis") // still there
	nw.requireReceiptEverywhere(t, small.BlockchainID, nw.sendTransfer(t, 1, small.BlockchainID, 99998, 0))
	nw.requireReceiptEverywhere(t, small.BlockchainID, nw.sendTransfer(t, 4, small.BlockchainID, 99998, 1))
	nw.requireSameIndexes(t, 2, "/ext/index/"+small.BlockchainID+"/block")

	code, _, stderr = runCLI(t, "network", "stop", "--dir", nw.dir)
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr = runCLI(t, "network", "start", "--dir", nw.dir, "--wait", networkWait.String())
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	nw.l1Of(t, stdout, "l1 genesis")
	nw.l1Of(t, stdout, "below k")
	nw.requireReceiptEverywhere(t, l1.BlockchainID, nw.sendTransfer(t, 2, l1.BlockchainID, 99999, 2))
	nw.requireReceiptEverywhere(t, small.BlockchainID, nw.sendTransfer(t, 0, small.BlockchainID, 99998, 2))
	nw.requireSameIndexes(t, 3, "/ext/index/"+l1.BlockchainID+"/block", "/ext/index/"+small.BlockchainID+"/block")
}
