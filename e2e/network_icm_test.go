package e2e_test

import (
	"math/big"
	"math/bits"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/localnet"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
)

// icmChain dials chain (an alias or a blockchain ID) on node i of nw, with id its
// blockchain ID.
func (nw *localNetwork) icmChain(t testing.TB, i int, chain string, id ids.ID) *icmChain {
	t.Helper()
	c := &l1Chain{blockchainID: chain, url: nw.nodes[i].URI() + "/ext/bc/" + chain + "/rpc"}
	c.connect(t, http.DefaultClient)
	t.Cleanup(c.rc.Close)
	return &icmChain{l1Chain: c, id: id}
}

// deliveredBy returns the warp message that delivered message id to dst's messenger: the
// predicate of the transaction that emitted its ReceiveCrossChainMessage event.
func (s *icmSetup) deliveredBy(t testing.TB, dst *icmChain, id common.Hash) *warp.Message {
	t.Helper()
	tx, _, err := dst.eth.TransactionByHash(t.Context(), s.deliveryLog(t, dst, id).TxHash)
	require.NoError(t, err)
	keys := precompile.WarpPredicateKeys(tx.AccessList())
	require.Len(t, keys, 1)
	b, err := precompile.UnpackPredicate(keys[0])
	require.NoError(t, err)
	m, err := warp.ParseMessage(b)
	require.NoError(t, err)
	return m
}

// signers counts the signers of a signed warp message.
func signers(m *warp.Message) int {
	n := 0
	for _, b := range m.Signature.Signers {
		n += bits.OnesCount8(b)
	}
	return n
}

// Interchain Messaging on the five-node network (issue #15 §4): an L1 with three validators
// (`cornice network start --l1`), the relay on node 1 only (`--relay-node 1`), the messenger and
// a test receiver on the C-Chain and the L1. A message sent from the C-Chain, through node 2,
// reaches the L1's receiver on every node, delivered with the signatures of the Primary
// Network's five validators, which node 1's aggregator asked for over the network; the answer
// back from the L1 is delivered with the signatures of the L1's three.
func TestNetworkICM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts five node processes")
	}
	genesis := filepath.Join(t.TempDir(), "icm-l1.json")
	require.NoError(t, os.WriteFile(genesis, icmGenesis(t, 77731), 0o600))
	nw, _ := startNetworkWith(t, 5, "--l1", genesis, "--l1-validators", "3", "--relay-node", "1")
	l1s, err := localnet.L1s(nw.dir)
	require.NoError(t, err)
	require.Len(t, l1s, 1)
	l1ID, err := ids.FromString(l1s[0].BlockchainID)
	require.NoError(t, err)
	subnetID, err := ids.FromString(l1s[0].SubnetID)
	require.NoError(t, err)
	cID := nw.blockchainID(t, "C")

	// Deployed and used through node 2, which validates the L1 but runs no relay.
	s := deployICM(t, nw.nodes[1].URI(), nw.icmChain(t, 1, "C", cID), nw.icmChain(t, 1, l1s[0].BlockchainID, l1ID))
	receiver, err := icm.Load(icm.TestReceiverName)
	require.NoError(t, err)

	_, id := s.sendMessage(t, s.c, s.l1, "over the network", common.Address{}, 0)
	require.Equal(t, icm.MessageID(cID, l1ID, big.NewInt(1)), id)
	for i := range nw.nodes {
		l1 := nw.icmChain(t, i, l1s[0].BlockchainID, l1ID)
		l1.receiver = s.l1.receiver
		s.waitReceived(t, l1, 1)
		require.Equal(t, []byte("over the network"), view(t, l1.l1Chain, receiver.ABI, l1.receiver, "lastMessage")[0], nw.nodes[i].Name)
	}
	// The aggregator asks every validator and keeps what it gets once 67 % signed: a validator
	// that has not yet accepted the C-Chain block with the message (nodes 4 and 5 restart
	// after the L1 is created and may still be catching up) refuses, and the message goes out
	// with four. More than the relay's own node signing is what proves the network asked.
	m := s.deliveredBy(t, s.l1, id)
	require.GreaterOrEqual(t, signers(m), 4, "the Primary Network's validators signed")
	require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, 12345, nw.primarySet(t), 67, 100))

	_, back := s.sendMessage(t, s.l1, s.c, "and back", common.Address{}, 0)
	require.Equal(t, icm.MessageID(l1ID, cID, big.NewInt(1)), back)
	for i := range nw.nodes {
		c := nw.icmChain(t, i, "C", cID)
		c.receiver = s.c.receiver
		s.waitReceived(t, c, 1)
		require.Equal(t, []byte("and back"), view(t, c.l1Chain, receiver.ABI, c.receiver, "lastMessage")[0], nw.nodes[i].Name)
	}
	m = s.deliveredBy(t, s.c, back)
	require.Equal(t, 3, signers(m), "the L1's validators signed")
	require.NoError(t, m.Signature.Verify(&m.UnsignedMessage, 12345, nw.subnetSet(t, subnetID, 3), 100, 100))
}
