package icm_test

import (
	"bytes"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/icm"
	"github.com/cornice-node/cornice/ids"
)

// TestContractsUpToDate compiles the sources with solc-js 0.8.30 (SOLC_JS_DIR, or
// e2e/foundry's after `npm ci --prefix e2e/foundry`) and compares with the committed
// contracts.json; it is skipped when node or solc-js is missing.
func TestContractsUpToDate(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	dir := os.Getenv("SOLC_JS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "e2e", "foundry", "node_modules", "solc")
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Skip("solc-js is not installed: npm ci --prefix e2e/foundry, or set SOLC_JS_DIR")
	}
	cmd := exec.CommandContext(t.Context(), "node", "contracts/compile.mjs")
	cmd.Env = append(os.Environ(), "SOLC_JS_DIR="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	committed, err := os.ReadFile("contracts/contracts.json")
	require.NoError(t, err)
	require.Equal(t, string(committed), string(out), "contracts.json is stale: run icm/contracts/build.sh")
}

func TestContracts(t *testing.T) {
	t.Parallel()
	m := icm.Messenger()
	require.NotEmpty(t, m.Bytecode)
	// Teleporter's interface, selectors as its ABI gives them.
	for name, sel := range map[string]string{
		"sendCrossChainMessage":    "0x62448850",
		"receiveCrossChainMessage": "0xccb5f809",
		"messageReceived":          "0xebc3b1ba",
		"getNextMessageID":         "0xdf20e8bc",
	} {
		require.Equal(t, sel, "0x"+common.Bytes2Hex(m.ABI.Methods[name].ID), name)
	}
	// The topics, keccak256 of each event's signature as Teleporter declares it.
	const message = "(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)"
	require.Equal(t, crypto.Keccak256Hash([]byte("SendCrossChainMessage(bytes32,bytes32,"+message+",(address,uint256))")),
		icm.SendCrossChainMessageTopic())
	require.Equal(t, crypto.Keccak256Hash([]byte("ReceiveCrossChainMessage(bytes32,bytes32,address,address,"+message+")")),
		icm.ReceiveCrossChainMessageTopic())
	r, err := icm.Load(icm.TestReceiverName)
	require.NoError(t, err)
	require.Contains(t, r.ABI.Methods, "receiveTeleporterMessage")
	_, err = icm.Load("Nope")
	require.ErrorIs(t, err, icm.ErrUnknownContract)
}

func TestMessage(t *testing.T) {
	t.Parallel()
	m := &icm.Message{
		MessageNonce:            big.NewInt(7),
		OriginSenderAddress:     common.HexToAddress("0x01"),
		DestinationBlockchainID: [32]byte{9},
		DestinationAddress:      common.HexToAddress("0x02"),
		RequiredGasLimit:        big.NewInt(100_000),
		AllowedRelayerAddresses: []common.Address{common.HexToAddress("0x03")},
		Receipts:                []icm.Receipt{{ReceivedMessageNonce: big.NewInt(1), RelayerRewardAddress: common.HexToAddress("0x04")}},
		Message:                 []byte("hello"),
	}
	b, err := m.Encode()
	require.NoError(t, err)
	got, err := icm.DecodeMessage(b)
	require.NoError(t, err)
	require.Equal(t, m, got)
	_, err = icm.DecodeMessage([]byte("hello"))
	require.ErrorIs(t, err, icm.ErrNotAMessage)

	// keccak256(abi.encode(bytes32, bytes32, uint256)).
	src, dst := ids.ID{1}, ids.ID{2}
	want := crypto.Keccak256Hash(append(append(src[:], dst[:]...), common.LeftPadBytes([]byte{7}, 32)...))
	require.Equal(t, want, icm.MessageID(src, dst, big.NewInt(7)))
}

func TestKeyless(t *testing.T) {
	t.Parallel()
	k, err := icm.NewKeyless(icm.Messenger().Bytecode, big.NewInt(100e9), 3_000_000)
	require.NoError(t, err)
	require.False(t, k.Tx.Protected())
	require.Equal(t, crypto.CreateAddress(k.Deployer, 0), k.Contract)
	require.Equal(t, big.NewInt(300e15), k.Cost())
	raw, err := k.Tx.MarshalBinary()
	require.NoError(t, err)
	again, err := icm.ParseKeyless(raw)
	require.NoError(t, err)
	require.Equal(t, k.Deployer, again.Deployer)

	// Not keyless: a chain ID, a call, a later nonce.
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	to := common.HexToAddress("0x05")
	for name, tx := range map[string]*types.Transaction{
		"protected": types.MustSignNewTx(key, types.NewEIP155Signer(big.NewInt(1)), &types.LegacyTx{Gas: 1}),
		"call":      types.MustSignNewTx(key, types.HomesteadSigner{}, &types.LegacyTx{Gas: 1, To: &to}),
		"nonce":     types.MustSignNewTx(key, types.HomesteadSigner{}, &types.LegacyTx{Gas: 1, Nonce: 1}),
	} {
		raw, err := tx.MarshalBinary()
		require.NoError(t, err)
		_, err = icm.ParseKeyless(raw)
		require.ErrorIs(t, err, icm.ErrNotKeyless, name)
	}
}
