package e2e_test

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/warp"
)

// Interchain Messaging on one node (issue #15 §4): the messenger of package icm deployed with
// `cornice icm deploy` (its keyless transaction) on the C-Chain and an L1, test receivers on
// both, and the node's built-in relay carrying messages both ways, with their receipts and
// fees.

// icmLocalKeyHex is the local network's funded key ("ewoq"), which the relay also uses to
// top up its relayer: the tests send from icmUserKey so as not to race it for nonces.
const icmLocalKeyHex = "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027"

func icmKey(t testing.TB, hexKey string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.HexToECDSA(hexKey)
	require.NoError(t, err)
	return k
}

func icmUserKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte("cornice-icm-user")))
	require.NoError(t, err)
	return k
}

// icmGenesis is an L1 genesis with Warp on and no allow lists, funding the local key and the
// test user.
func icmGenesis(t testing.TB, chainID int) []byte {
	t.Helper()
	return icmGenesisWith(t, chainID, "")
}

// icmGenesisWith is icmGenesis with more config entries (each followed by a comma).
func icmGenesisWith(t testing.TB, chainID int, config string) []byte {
	t.Helper()
	user := crypto.PubkeyToAddress(icmUserKey(t).PublicKey)
	return fmt.Appendf(nil, `{
  "config": {
    "chainId": %d,
    "feeConfig": {"gasLimit": 15000000, "targetBlockRate": 2, "minBaseFee": 25000000000, "targetGas": 15000000,
      "baseFeeChangeDenominator": 36, "minBlockGasCost": 0, "maxBlockGasCost": 1000000, "blockGasCostStep": 200000},
    %s"warpConfig": {"blockTimestamp": 1607144400, "quorumNumerator": 67}
  },
  "alloc": {
    "8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC": {"balance": "0x52B7D2DCC80CD2E4000000"},
    "%s": {"balance": "0x52B7D2DCC80CD2E4000000"}
  },
  "nonce": "0x0", "timestamp": "0x5FCB13D0", "extraData": "0x", "gasLimit": "0xE4E1C0", "difficulty": "0x0",
  "mixHash": "0x0000000000000000000000000000000000000000000000000000000000000000",
  "coinbase": "0x0000000000000000000000000000000000000000", "number": "0x0", "gasUsed": "0x0",
  "parentHash": "0x0000000000000000000000000000000000000000000000000000000000000000"
}`, chainID, config, user.Hex()[2:])
}

// icmChain is a chain with the messenger and a test receiver deployed.
type icmChain struct {
	*l1Chain
	id       ids.ID
	receiver common.Address
}

// messengerKeyless is the messenger's keyless deployment, as `cornice icm deploy` takes it.
func messengerKeyless(t testing.TB) *icm.Keyless {
	t.Helper()
	k, err := icm.NewKeyless(icm.Messenger().Bytecode, big.NewInt(100e9), 3_000_000)
	require.NoError(t, err)
	return k
}

// icmSetup is one node running the C-Chain and an L1, each with the messenger (deployed with
// `cornice icm deploy`) and a test receiver.
type icmSetup struct {
	n         *l1Node
	c, l1     *icmChain
	messenger common.Address
	user      *ecdsa.PrivateKey
}

func setupICM(t testing.TB, l1Genesis []byte) *icmSetup {
	t.Helper()
	n := startL1Node(t, nil)
	l1 := n.createL1(l1Genesis)
	c := &l1Chain{node: n, blockchainID: "C"}
	c.dial()
	n.chains = append(n.chains, c)
	var cID struct {
		BlockchainID ids.ID `json:"blockchainID"`
	}
	n.xn.call("/ext/info", "info.getBlockchainID", map[string]string{"alias": "C"}, &cID)
	l1ID, err := ids.FromString(l1.blockchainID)
	require.NoError(t, err)
	s := deployICM(t, n.xn.base, &icmChain{l1Chain: c, id: cID.BlockchainID}, &icmChain{l1Chain: l1, id: l1ID})
	s.n = n
	return s
}

// deployICM deploys, through the node at uri, the messenger (with `cornice icm deploy`) on the
// C-Chain c and the L1 l1, whose genesis is icmGenesis, and a test receiver on each; it funds
// the test user on the C-Chain first, from the local key, before the relay uses that key.
func deployICM(t testing.TB, uri string, c, l1 *icmChain) *icmSetup {
	t.Helper()
	s := &icmSetup{c: c, l1: l1, user: icmUserKey(t)}
	userAddr := crypto.PubkeyToAddress(s.user.PublicKey)
	r := c.send(t, icmKey(t, icmLocalKeyHex), &userAddr, nil, new(big.Int).Mul(big.NewInt(1000), l1Coin), 21_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)

	// The messenger's keyless deployment, on both chains; a second run finds it there.
	k := messengerKeyless(t)
	raw, err := k.Tx.MarshalBinary()
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "messenger.txt")
	require.NoError(t, os.WriteFile(file, []byte(common.Bytes2Hex(raw)+"\n"), 0o600))
	for _, chain := range []string{"C", l1.blockchainID} {
		code, stdout, stderr := runCLI(t, "icm", "deploy", "--tx", file, "--chain", chain, "--node-uri", uri)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, "deployer: "+k.Deployer.Hex()+"\naddress: "+k.Contract.Hex()+"\nstatus: deployed\n", stdout)
	}
	code, stdout, stderr := runCLI(t, "icm", "deploy", "--tx", file, "--node-uri", uri)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "status: already deployed\n")
	s.messenger = k.Contract

	receiver, err := icm.Load(icm.TestReceiverName)
	require.NoError(t, err)
	for _, ch := range []*icmChain{c, l1} {
		args, err := receiver.ABI.Pack("", s.messenger)
		require.NoError(t, err)
		r := ch.send(t, s.user, nil, append(append([]byte{}, receiver.Bytecode...), args...), nil, 2_000_000)
		require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
		ch.receiver = r.ContractAddress
	}
	return s
}

// sendMessage has from's receiver send text to to's receiver, paying fee of token, and
// returns the receipt and the message's ID (checked against the SendCrossChainMessage event).
func (s *icmSetup) sendMessage(t testing.TB, from, to *icmChain, text string, token common.Address, fee int64) (*types.Receipt, common.Hash) {
	t.Helper()
	receiver, err := icm.Load(icm.TestReceiverName)
	require.NoError(t, err)
	data := pack(t, receiver.ABI, "send", [32]byte(to.id), to.receiver, []byte(text), token, big.NewInt(fee))
	r := from.send(t, s.user, &from.receiver, data, nil, 1_000_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	for _, l := range r.Logs {
		if l.Address == s.messenger && l.Topics[0] == icm.SendCrossChainMessageTopic() {
			require.Equal(t, common.Hash(to.id), l.Topics[2])
			return r, l.Topics[1]
		}
	}
	require.FailNow(t, "no SendCrossChainMessage event")
	return nil, common.Hash{}
}

// deliveryLog returns the ReceiveCrossChainMessage event of message id on dst; there is one.
func (s *icmSetup) deliveryLog(t testing.TB, dst *icmChain, id common.Hash) types.Log {
	t.Helper()
	logs, err := dst.eth.FilterLogs(t.Context(), ethereum.FilterQuery{
		FromBlock: common.Big0, Addresses: []common.Address{s.messenger},
		Topics: [][]common.Hash{{icm.ReceiveCrossChainMessageTopic()}, {id}},
	})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	return logs[0]
}

// view calls a view function of contract a at addr on ch and returns its outputs.
func view(t testing.TB, ch *l1Chain, a abi.ABI, addr common.Address, method string, args ...any) []any {
	t.Helper()
	out, err := ch.call(t, common.Address{}, &addr, pack(t, a, method, args...))
	require.NoError(t, err)
	vals, err := a.Unpack(method, out)
	require.NoError(t, err)
	return vals
}

// waitReceived waits until ch's receiver has received n messages.
func (s *icmSetup) waitReceived(t testing.TB, ch *icmChain, n int64) {
	t.Helper()
	receiver, err := icm.Load(icm.TestReceiverName)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return view(t, ch.l1Chain, receiver.ABI, ch.receiver, "received")[0].(*big.Int).Int64() >= n
	}, acceptWait, 5*time.Millisecond, "messages received on %s", ch.blockchainID)
	require.Equal(t, n, view(t, ch.l1Chain, receiver.ABI, ch.receiver, "received")[0].(*big.Int).Int64())
}

func TestICMSingleNode(t *testing.T) {
	t.Parallel()
	s := setupICM(t, icmGenesis(t, 77730))
	receiver, err := icm.Load(icm.TestReceiverName)
	require.NoError(t, err)
	tokenC, err := icm.Load(icm.TestTokenName)
	require.NoError(t, err)
	messenger := icm.Messenger().ABI

	// An unprotected transaction that is not a keyless deployment is refused.
	to := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	unprotected, err := types.SignNewTx(s.user, types.HomesteadSigner{}, &types.LegacyTx{
		Nonce: s.c.nonce(t, s.user), GasPrice: big.NewInt(l1GasFeeCap), Gas: 21_000, To: &to, Value: big.NewInt(1),
	})
	require.NoError(t, err)
	requireRPCError(t, s.c.eth.SendTransaction(t.Context(), unprotected), -32000, "only replay-protected (EIP-155) transactions allowed over RPC")

	// A fee token on the C-Chain: the C→L1 message pays 7 of it to its relayer.
	r := s.c.send(t, s.user, nil, tokenC.Bytecode, nil, 2_000_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	token := r.ContractAddress
	r = s.c.send(t, s.user, &token, pack(t, tokenC.ABI, "mint", s.c.receiver, big.NewInt(100)), nil, 200_000)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)

	// C-Chain → L1.
	sent, id := s.sendMessage(t, s.c, s.l1, "hello", token, 7)
	require.Equal(t, icm.MessageID(s.c.id, s.l1.id, big.NewInt(1)), id)
	s.waitReceived(t, s.l1, 1)
	require.Equal(t, []byte("hello"), view(t, s.l1.l1Chain, receiver.ABI, s.l1.receiver, "lastMessage")[0])
	require.Equal(t, [32]byte(s.c.id), view(t, s.l1.l1Chain, receiver.ABI, s.l1.receiver, "lastSourceBlockchainID")[0])
	require.Equal(t, s.c.receiver, view(t, s.l1.l1Chain, receiver.ABI, s.l1.receiver, "lastOriginSender")[0])
	require.Equal(t, true, view(t, s.l1.l1Chain, messenger, s.messenger, "messageReceived", id)[0])
	// The relay delivered it, naming itself as the reward address.
	relayer := common.BytesToAddress(s.deliveryLog(t, s.l1, id).Topics[3][12:])
	require.Equal(t, relayer, view(t, s.l1.l1Chain, messenger, s.messenger, "getRelayerRewardAddress", id)[0])
	require.Equal(t, []any{token, big.NewInt(7)}, view(t, s.c.l1Chain, messenger, s.messenger, "getFeeInfo", id))

	// The same signed message delivered again by hand: the messenger refuses it.
	var unsigned *warp.UnsignedMessage
	for _, l := range sent.Logs {
		if l.Topics[0] == precompile.SendWarpMessageTopic() {
			unsigned, err = precompile.SentWarpMessage(l.Data)
			require.NoError(t, err)
		}
	}
	require.NotNil(t, unsigned)
	code, signed := aggregate(t, s.n.xn, unsigned, nil, ids.Empty)
	require.Equal(t, 200, code, string(signed))
	userAddr := crypto.PubkeyToAddress(s.user.PublicKey)
	r = s.l1.sendWithPredicates(t, s.user, &s.messenger, pack(t, messenger, "receiveCrossChainMessage", uint32(0), userAddr), signed)
	require.Equal(t, types.ReceiptStatusFailed, r.Status, "message already delivered")
	require.Equal(t, relayer, view(t, s.l1.l1Chain, messenger, s.messenger, "getRelayerRewardAddress", id)[0])

	// And back, L1 → C-Chain, without a fee: it carries the receipt of the first message,
	// which pays its relayer the fee on the C-Chain.
	_, back := s.sendMessage(t, s.l1, s.c, "back", common.Address{}, 0)
	require.Equal(t, icm.MessageID(s.l1.id, s.c.id, big.NewInt(1)), back)
	s.waitReceived(t, s.c, 1)
	require.Equal(t, []byte("back"), view(t, s.c.l1Chain, receiver.ABI, s.c.receiver, "lastMessage")[0])
	require.Equal(t, [32]byte(s.l1.id), view(t, s.c.l1Chain, receiver.ABI, s.c.receiver, "lastSourceBlockchainID")[0])
	require.Equal(t, big.NewInt(7), view(t, s.c.l1Chain, messenger, s.messenger, "checkRelayerRewardAmount", relayer, token)[0])
	fee := view(t, s.c.l1Chain, messenger, s.messenger, "getFeeInfo", id)
	require.Equal(t, common.Address{}, fee[0])
	require.Zero(t, fee[1].(*big.Int).Sign(), "the receipt closed the message")

	// After a restart the relay goes on from where it was, delivering nothing twice.
	s.n.restart()
	_, id3 := s.sendMessage(t, s.c, s.l1, "again", common.Address{}, 0)
	require.Equal(t, icm.MessageID(s.c.id, s.l1.id, big.NewInt(2)), id3)
	s.waitReceived(t, s.l1, 2)
	require.Equal(t, []byte("again"), view(t, s.l1.l1Chain, receiver.ABI, s.l1.receiver, "lastMessage")[0])
	s.waitReceived(t, s.c, 1)
}

// An L1 whose transaction allow list has the local key as its admin (as examples/l1-genesis.json
// has) and leaves the relayer out: the relay, which tops its relayer up from that key, enables
// the relayer there too before its first delivery, and delivers.
func TestICMAllowListedL1(t *testing.T) {
	t.Parallel()
	user := crypto.PubkeyToAddress(icmUserKey(t).PublicKey)
	s := setupICM(t, icmGenesisWith(t, 77732, fmt.Sprintf(`"txAllowListConfig": {"blockTimestamp": 0,
      "adminAddresses": ["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"], "enabledAddresses": ["%s", "%s"]},`,
		user.Hex(), messengerKeyless(t).Deployer.Hex())))
	allowList := precompile.AllowListABI()
	_, id := s.sendMessage(t, s.c, s.l1, "allowed", common.Address{}, 0)
	s.waitReceived(t, s.l1, 1)
	relayer := common.BytesToAddress(s.deliveryLog(t, s.l1, id).Topics[3][12:])
	require.Equal(t, big.NewInt(int64(precompile.RoleEnabled)), view(t, s.l1.l1Chain, allowList, l1params.TxAllowListAddress, "readAllowList", relayer)[0])
	// An address nobody enabled has no role: the list is in force.
	stranger := crypto.PubkeyToAddress(icmKey(t, "0000000000000000000000000000000000000000000000000000000000000001").PublicKey)
	require.Zero(t, view(t, s.l1.l1Chain, allowList, l1params.TxAllowListAddress, "readAllowList", stranger)[0].(*big.Int).Sign())
}
