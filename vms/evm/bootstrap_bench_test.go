package evm_test

import (
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/chains"
	"github.com/cornice-node/cornice/chains/chainstest"
	"github.com/cornice-node/cornice/chains/engine/bootstrap"
	"github.com/cornice-node/cornice/chains/engine/enginetest"
	"github.com/cornice-node/cornice/chains/engine/getter"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/storage"
	"github.com/cornice-node/cornice/vms/evm"
	"github.com/cornice-node/cornice/vms/evm/l1params"
)

// openCChain opens the C-Chain over the database in dir (a copy of from, when from is not ""),
// its engine idle: the benchmark drives the chain through its VM and accept path. The config is
// newBenchVM's: no Fortuna, a base fee at its minimum.
func openCChain(b *testing.B, dir, from string) chains.EngineContext {
	b.Helper()
	if from != "" {
		require.NoError(b, os.CopyFS(dir, os.DirFS(from)))
	}
	fees := l1params.DefaultFeeConfig()
	fees.GasLimit = big.NewInt(benchGasLimit)
	fees.TargetGas = big.NewInt(1 << 62)
	upgrades := config.UpgradesFor(12345)
	upgrades.FortunaTime = time.Date(9999, time.December, 1, 0, 0, 0, 0, time.UTC)
	idle := &chainstest.Idle{}
	env := chainstest.NewEnv(b, dir, nil, idle)
	b.Cleanup(env.Close)
	env.Create(cChainID, func(s *chains.Spec) {
		s.Prefix = storage.PrefixEVM
		s.Factory = evm.Factory{Config: evm.Config{Fees: &fees, Upgrades: &upgrades}}
		s.Genesis = cChainGenesis(b)
	})
	return idle.Context(cChainID)
}

// BenchmarkBootstrapCChain measures a node catching up 10,000 C-Chain blocks of one transfer
// each from three beacons over the engines' fake network (chains/engine/enginetest): the
// frontier and accepted polls, every block fetched with GetAncestors and parsed, then verified
// (the transfer executed) and accepted through the accept path, one synced Pebble batch each.
// The chain is built once, outside the timer; cpu-s/op is the process's CPU time in the timed
// part.
func BenchmarkBootstrapCChain(b *testing.B) {
	const n = 10_000
	source := filepath.Join(b.TempDir(), "source")
	src := openCChain(b, source, "")
	vm := src.VM.(*evm.VM)
	e := &benchVM{key: fundedKey(b), signer: types.LatestSignerForChainID(chainID)}
	for range n {
		require.NoError(b, vm.SendTx(e.transfers(b, 1)[0]))
		blk, err := vm.BuildBlock(b.Context())
		require.NoError(b, err)
		require.NoError(b, blk.Verify(b.Context()))
		require.NoError(b, src.Acceptor.Accept(b.Context(), blk))
	}
	last, height := src.Acceptor.LastAccepted()
	require.Equal(b, uint64(n), height)
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		net := enginetest.New(b, 1)
		beacons := map[ids.NodeID]uint64{}
		for i := range 3 {
			id := ids.NodeID{byte(i + 1)}
			c := openCChain(b, filepath.Join(b.TempDir(), "beacon"), source)
			net.Set(id, getter.New(c.VM, c.Acceptor, net.Sender(id)))
			beacons[id] = 1
		}
		self := ids.NodeID{0xee}
		c := openCChain(b, filepath.Join(b.TempDir(), "node"), "")
		boot := bootstrap.New(bootstrap.Config{Self: self, Beacons: beacons}, bootstrap.Deps{
			VM: c.VM, Acceptor: c.Acceptor, Sender: net.Sender(self), Clock: clock.Real{},
			Log: slog.New(slog.DiscardHandler),
		})
		net.Set(self, boot)
		before := enginetest.CPUTime(b)
		b.StartTimer()
		for id := range beacons {
			require.NoError(b, boot.Connected(b.Context(), id))
		}
		require.NoError(b, boot.Start(b.Context()))
		require.True(b, net.Run(b.Context(), 10_000_000))
		b.StopTimer()
		cpu += enginetest.CPUTime(b) - before
		require.True(b, boot.Done())
		got, _ := c.Acceptor.LastAccepted()
		require.Equal(b, last, got)
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
