package main

import (
	"bytes"
	"context"
	"io"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// localNetworkID is the ID of the network the bench node runs.
const localNetworkID = 12345

func TestL1Genesis(t *testing.T) {
	t.Parallel()
	senders := senderAddrs(3)
	b, err := l1Genesis(senders)
	require.NoError(t, err)
	g, err := l1params.ParseGenesis(b, nil, localNetworkID)
	require.NoError(t, err)

	require.Equal(t, uint64(l1ChainID), g.Config.ChainID.Uint64())
	want := benchFees()
	require.True(t, g.Config.FeeConfig.Equal(&want), "fee config %+v", g.Config.FeeConfig)
	require.Equal(t, want.GasLimit.Uint64(), g.Eth.GasLimit)

	p, ok := g.Config.GenesisPrecompiles[l1params.TxAllowListKey].(*l1params.TxAllowListConfig)
	require.True(t, ok, "precompiles %v", g.Config.GenesisPrecompiles)
	admin := common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	require.Equal(t, []common.Address{admin}, p.AdminAddresses)
	require.Equal(t, senders, p.EnabledAddresses)
	require.Empty(t, p.ManagerAddresses)
	require.Equal(t, uint64(0), *p.BlockTimestamp)

	require.Len(t, g.Eth.Alloc, len(senders)+1)
	for _, a := range append([]common.Address{admin}, senders...) {
		require.Equal(t, l1Funds, g.Eth.Alloc[a].Balance, a)
	}
}

func TestRPCURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, url, want string
		asIs            bool
	}{
		{name: "node base", url: "http://127.0.0.1:9650", want: "http://127.0.0.1:9650/ext/bc/C/rpc"},
		{name: "as is", url: "http://127.0.0.1:8545", asIs: true, want: "http://127.0.0.1:8545"},
		{name: "node base with slash", url: "http://127.0.0.1:9650/", want: "http://127.0.0.1:9650/ext/bc/C/rpc"},
		{name: "chain RPC URL", url: "http://localhost:9650/ext/bc/abc/rpc", want: "http://localhost:9650/ext/bc/abc/rpc"},
		{name: "trailing slash", url: "http://[::1]:9650/ext/bc/C/rpc/", want: "http://[::1]:9650/ext/bc/C/rpc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := parseFlags([]string{"-url", tt.url, "-as-is=" + strconv.FormatBool(tt.asIs), "transfers"}, io.Discard)
			require.NoError(t, err)
			require.Equal(t, tt.want, cfg.rpcURL)
		})
	}
}

// TestRunL1 runs `evmload -l1 node` and loads the L1 it prints, end to end over HTTP: the
// chain is created through the P-Chain and answers; transfers from the enabled senders are
// accepted (the tool checks every sender's nonce); the allow list is on: it reads Enabled for a
// sender and None for anyone else, and refuses a transfer from a sender it does not list until
// -allow-senders enables it.
func TestRunL1(t *testing.T) {
	t.Parallel()
	const senders = 5
	ctx, cancel := context.WithCancel(t.Context())
	var stdout nodetest.Buffer
	dir := t.TempDir()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, clock.Real{}, []string{"-l1", "-senders", "5", "-data-dir", dir, "node"}, &stdout, t.Output())
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	var url string
	require.Eventually(t, func() bool {
		for line := range strings.SplitSeq(stdout.String(), "\n") {
			if u, ok := strings.CutPrefix(line, "evmload: L1 serves "); ok {
				url = u
				return true
			}
		}
		return false
	}, time.Minute, 20*time.Millisecond, "stdout: %s", stdout.String())
	require.Contains(t, url, "/ext/bc/")

	var out bytes.Buffer
	args := []string{"-url", url, "-n", "200", "-senders", "5", "-batch", "50", "-c", "2", "-label", "l1", "transfers"}
	require.NoError(t, run(t.Context(), clock.Real{}, args, &out, io.Discard))
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, rows, 3, out.String())
	require.True(t, strings.HasPrefix(rows[2], "| l1 | 200 | 50 calls | 2 | 5 | "), rows[2])

	c := newRPCClient(url, 1, time.Minute)
	t.Cleanup(c.http.CloseIdleConnections)
	var id hexutil.Big
	require.NoError(t, c.call(t.Context(), &id, "eth_chainId"))
	require.Equal(t, uint64(l1ChainID), id.ToInt().Uint64())
	// readAllowList(address) answers the role: 0 none, 1 enabled, 2 admin (l1-evm.md §5.1).
	readRole := func(a common.Address) uint64 {
		data := append(crypto.Keccak256([]byte("readAllowList(address)"))[:4], common.LeftPadBytes(a[:], 32)...)
		var got hexutil.Bytes
		require.NoError(t, c.call(t.Context(), &got, "eth_call",
			map[string]string{"to": l1params.TxAllowListAddress.Hex(), "data": hexutil.Encode(data)}, "latest"))
		require.Len(t, got, 32)
		return new(big.Int).SetBytes(got).Uint64()
	}
	addrs := senderAddrs(senders + 1)
	require.Equal(t, uint64(1), readRole(addrs[0]))
	require.Equal(t, uint64(0), readRole(addrs[senders]))

	args = []string{"-url", url, "-n", "6", "-senders", "6", "transfers"}
	err := run(t.Context(), clock.Real{}, args, io.Discard, io.Discard)
	require.ErrorContains(t, err, "1 of 6 eth_sendRawTransaction calls failed")
	require.ErrorContains(t, err, "non-allow listed address")

	// -allow-senders enables them first, from the local key, the allow list's admin.
	args = []string{"-url", url, "-n", "6", "-senders", "6", "-allow-senders", "transfers"}
	require.NoError(t, run(t.Context(), clock.Real{}, args, io.Discard, io.Discard))
	require.Equal(t, uint64(1), readRole(addrs[senders]))
}
