package e2e_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/config"
)

// anvil_dumpState holds every account's storage as anvil's dump does ("storage": slot → value,
// both 32-byte hex), whether a developer method set it (on an account that had nothing else,
// which an edit keeps) or a transaction did, and anvil_loadState on another node brings it back.
func TestDevDumpStorage(t *testing.T) {
	t.Parallel()
	d := startDevNode(t, t.TempDir(), func(*config.Config) {})
	e := d.endpoint()
	var null any
	slot, value := common.BigToHash(big.NewInt(1)), common.BigToHash(big.NewInt(7))
	var set bool
	e.call(t, &set, "anvil_setStorageAt", devAddr, slot, value)
	require.True(t, set)
	var got common.Hash
	e.call(t, &got, "eth_getStorageAt", devAddr, slot, "latest")
	require.Equal(t, value, got, "an account with a slot and nothing else stays")
	// PUSH1 0x2a PUSH1 5 SSTORE STOP: a call stores 42 at slot 5.
	store := common.HexToAddress("0x3000000000000000000000000000000000000003")
	e.call(t, &null, "anvil_setCode", store, hexutil.Bytes{0x60, 0x2a, 0x60, 0x05, 0x55, 0x00})
	e.call(t, &null, "anvil_setBalance", devAddr, "0xde0b6b3a7640000")
	e.call(t, &null, "anvil_impersonateAccount", devAddr)
	var h common.Hash
	e.call(t, &h, "eth_sendTransaction", map[string]any{"from": devAddr, "to": store, "gas": "0x186a0"})
	require.Eventually(t, func() bool {
		var r map[string]any
		e.call(t, &r, "eth_getTransactionReceipt", h)
		return r != nil
	}, acceptWait, 10*time.Millisecond)

	var blob hexutil.Bytes
	e.call(t, &blob, "anvil_dumpState")
	zr, err := gzip.NewReader(bytes.NewReader(blob))
	require.NoError(t, err)
	js, err := io.ReadAll(zr)
	require.NoError(t, err)
	var dump struct {
		Accounts map[common.Address]struct {
			Storage map[string]string `json:"storage"`
		} `json:"accounts"`
	}
	require.NoError(t, json.Unmarshal(js, &dump))
	require.Equal(t, map[string]string{slot.Hex(): value.Hex()}, dump.Accounts[devAddr].Storage)
	require.Equal(t, map[string]string{common.BigToHash(big.NewInt(5)).Hex(): common.BigToHash(big.NewInt(42)).Hex()}, dump.Accounts[store].Storage)

	other := startDevNode(t, t.TempDir(), func(*config.Config) {})
	o := other.endpoint()
	var loaded bool
	o.call(t, &loaded, "anvil_loadState", blob)
	require.True(t, loaded)
	o.call(t, &got, "eth_getStorageAt", store, common.BigToHash(big.NewInt(5)), "latest")
	require.Equal(t, common.BigToHash(big.NewInt(42)), got)
	o.call(t, &got, "eth_getStorageAt", devAddr, slot, "latest")
	require.Equal(t, value, got)
}
