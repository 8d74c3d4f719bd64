package evm_test

import (
	"bytes"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

// A storage contract, assembled by hand (as in e2e/js/check.mjs and bench/evmload): set(uint256)
// (selector 60fe47b1) stores its argument at slot 0, get() (6d4ce63c) returns slot 0, anything
// else reverts. The init code copies the 50-byte runtime and returns it.
const (
	benchStorageInit    = "603280600b6000396000f3"
	benchStorageRuntime = "60003560e01c806360fe47b114601e5780636d4ce63c14602657600080fd5b600435600055005b60005460005260206000f3"
)

// serveRPC serves e's /rpc handler on a loopback httptest server and returns its URL.
func (e *benchVM) serveRPC(tb testing.TB) string {
	tb.Helper()
	handlers, err := e.vm.Handlers(tb.Context())
	require.NoError(tb, err)
	srv := httptest.NewServer(handlers["/rpc"])
	tb.Cleanup(srv.Close)
	return srv.URL
}

// post sends body to url and returns the reply, which must be a JSON-RPC success.
func benchPost(tb testing.TB, client *http.Client, url string, body []byte) []byte {
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	reply, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(reply[:min(len(reply), 64)], []byte(`"result"`)) {
		tb.Fatalf("HTTP %d: %.300s", resp.StatusCode, reply)
	}
	return reply
}

// deployStorage deploys the storage contract, sets it to 42 and returns its address.
func (e *benchVM) deployStorage(tb testing.TB) common.Address {
	tb.Helper()
	addr := crypto.CreateAddress(crypto.PubkeyToAddress(e.key.PublicKey), e.nonce)
	create, err := types.SignNewTx(e.key, e.signer, &types.DynamicFeeTx{
		ChainID: chainID, Nonce: e.nonce, GasTipCap: big.NewInt(1_000_000_000),
		GasFeeCap: big.NewInt(1_000_000_000_000), Gas: 200_000,
		Data: common.FromHex(benchStorageInit + benchStorageRuntime),
	})
	require.NoError(tb, err)
	set, err := types.SignNewTx(e.key, e.signer, &types.DynamicFeeTx{
		ChainID: chainID, Nonce: e.nonce + 1, GasTipCap: big.NewInt(1_000_000_000),
		GasFeeCap: big.NewInt(1_000_000_000_000), Gas: 100_000, To: &addr,
		Data: common.FromHex("60fe47b1" + fmt.Sprintf("%064x", 42)),
	})
	require.NoError(tb, err)
	e.nonce += 2
	e.submit(tb, []*types.Transaction{create, set})
	e.block(tb)
	return addr
}

// BenchmarkEthCall measures eth_call of the storage contract's get() through the C-Chain's
// JSON-RPC handler over loopback HTTP, client and server in this process: the server's share is
// the calls/s a node reaches at best on one core.
func BenchmarkEthCall(b *testing.B) {
	e := newBenchVM(b, benchCChain)
	addr := e.deployStorage(b)
	url := e.serveRPC(b)
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"%s","data":"0x6d4ce63c"},"latest"]}`, addr)
	want := fmt.Appendf(nil, `"0x%064x"`, 42)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.Run("c=1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if reply := benchPost(b, client, url, body); !bytes.Contains(reply, want) {
				b.Fatalf("eth_call returned %s", reply)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) { benchPostParallel(b, client, url, body) })
}

// BenchmarkGetBlockReceipts measures eth_getBlockReceipts of a block of n transfers through the
// C-Chain's JSON-RPC handler over loopback HTTP, reading the whole reply.
func BenchmarkGetBlockReceipts(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(strconv.Itoa(n)+"tx", func(b *testing.B) {
			e := newBenchVM(b, benchCChain)
			e.submit(b, e.transfers(b, n))
			blk := e.block(b)
			url := e.serveRPC(b)
			body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockReceipts","params":["0x%x"]}`, blk.Height())
			client := &http.Client{}
			size := len(benchPost(b, client, url, body))
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, client, url, body)
			}
		})
	}
}

// BenchmarkGetBlockByNumber measures eth_getBlockByNumber of a block of one transfer by its
// number through the C-Chain's JSON-RPC handler over loopback HTTP: the block's reads (its
// canonical hash, header and body) are pinned to one published state (chainread.go).
func BenchmarkGetBlockByNumber(b *testing.B) {
	e := newBenchVM(b, benchCChain)
	e.submit(b, e.transfers(b, 1))
	blk := e.block(b)
	url := e.serveRPC(b)
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x%x",false]}`, blk.Height())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.Run("c=1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchPost(b, client, url, body)
		}
	})
	b.Run("parallel", func(b *testing.B) { benchPostParallel(b, client, url, body) })
}

// BenchmarkGetLogsHead measures eth_getLogs of the head block alone for a topic it does not
// have, the relay's query of each new head, through the C-Chain's JSON-RPC handler over
// loopback HTTP: the head is at hand, so its bloom is checked with no read (findLogs).
func BenchmarkGetLogsHead(b *testing.B) {
	e := newBenchVM(b, benchCChain)
	e.submit(b, e.transfers(b, 1))
	blk := e.block(b)
	url := e.serveRPC(b)
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x%x","toBlock":"0x%x","topics":[["0x%064x"]]}]}`, blk.Height(), blk.Height(), 1)
	client := &http.Client{}
	b.ReportAllocs()
	for b.Loop() {
		if reply := benchPost(b, client, url, body); !bytes.Contains(reply, []byte(`"result":[]`)) {
			b.Fatalf("eth_getLogs returned %s", reply)
		}
	}
}

// benchPostParallel posts body to url from 8 goroutines a core until b is done.
func benchPostParallel(b *testing.B, client *http.Client, url string, body []byte) {
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			benchPost(b, client, url, body)
		}
	})
}
