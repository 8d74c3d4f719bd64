package platform_test

import (
	"crypto/ecdsa"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/genesis"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/chainapi"
	"github.com/cornice-node/cornice/vms/components/utxo"
	"github.com/cornice-node/cornice/vms/internal/vectortest"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// benchFees lifts the dynamic fee's capacity and target so that the benchmark measures the
// node, not the fee mechanism: at the local network's constants the capacity refills at 100,000
// gas a second, which caps a sustained stream of 5,179-gas BaseTxs at about 19 a second (§4.8).
var benchFees = txs.FeeConfig{
	Weights:                  txs.LocalFeeConfig.Weights,
	MaxCapacity:              1 << 50,
	MaxPerSecond:             1 << 50,
	TargetPerSecond:          1 << 50,
	MinPrice:                 1,
	ExcessConversionConstant: txs.LocalFeeConfig.ExcessConversionConstant,
}

// BenchmarkIssueTx issues 1,000 signed BaseTxs through platform.issueTx over HTTP, one after the
// other, and waits until the chains pipeline has accepted the last one (the blocks hold them in
// arrival order): one op is the whole batch, and tx/s is what the node sustains. Signing happens
// outside the timer. The node runs on a Pebble database in a temp directory. Every tx is signed
// by the local key, as a wallet spending its own change would sign them, so after the first txs
// the P-Chain checks each signature against the key it remembers (secp256k1fx.Signers).
func BenchmarkIssueTx(b *testing.B) { benchIssueTx(b, 1) }

// BenchmarkIssueTxManyKeys is BenchmarkIssueTx with each of the 1,000 UTXOs owned by a key of its
// own: each tx's signer comes back only 1,000 txs later, by when the 64 keys the P-Chain
// remembers have long been replaced, so every signature is recovered in full. It measures the
// issue path of signers the chain does not know, which BenchmarkIssueTx no longer does.
func BenchmarkIssueTxManyKeys(b *testing.B) { benchIssueTx(b, 1000) }

// benchIssueTx runs BenchmarkIssueTx with the batch's UTXOs owned by nKeys keys in turn (the
// local key alone for 1).
func benchIssueTx(b *testing.B, nKeys int) {
	const batch = 1000
	clk := clock.NewFake(vectorTime)
	f := thisNode
	f.Fees = benchFees
	n := startNodeWith(b, b.TempDir(), clk, f)
	ewoq := key(b, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	avax := n.g.AVAXAssetID
	keys := []*ecdsa.PrivateKey{ewoq}
	for len(keys) < nKeys {
		k, err := crypto.GenerateKey()
		require.NoError(b, err)
		keys = append(keys, k)
	}
	keyOf := func(i int) (*ecdsa.PrivateKey, ids.ShortID) {
		k := keys[i%len(keys)]
		return k, addrOf(k)
	}

	// Split ewoq's largest UTXO into batch UTXOs of distinct amounts (outputs sorted by amount),
	// in txs small enough for mempool.MaxTxSize.
	var coins []*txs.UTXO
	for len(coins) < batch {
		src := n.largest(ewoqP)
		k := min(batch-len(coins), 500)
		outs := make([]txs.TransferableOutput, 0, k+1)
		var total uint64
		for i := range k {
			amount := uint64(1_000_000_000_000 + len(coins) + i)
			_, to := keyOf(len(coins) + i)
			outs = append(outs, txs.TransferTo(avax, amount, to))
			total += amount
		}
		outs = append(outs, txs.TransferTo(avax, amountOf(src)-total-burn, ewoqAddr))
		split := sign(b, &txs.BaseTx{NetworkID: genesis.LocalNetworkID, Outs: outs, Ins: []txs.TransferableInput{txs.SpendUTXO(src)}}, ewoq)
		n.issue(split)
		for i := range k {
			o := outs[i]
			coins = append(coins, &txs.UTXO{UTXOID: utxo.UTXOID{TxID: split.ID(), OutputIndex: uint32(i)}, AssetID: avax, Out: o.Out})
		}
	}

	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		clk.Advance(time.Second)
		reqs := make([]string, batch)
		next := make([]*txs.UTXO, batch)
		var last ids.ID
		for i, c := range coins {
			rest := amountOf(c) - burn
			signer, addr := keyOf(i)
			tx := sign(b, &txs.BaseTx{NetworkID: genesis.LocalNetworkID,
				Outs: []txs.TransferableOutput{txs.TransferTo(avax, rest, addr)},
				Ins:  []txs.TransferableInput{txs.SpendUTXO(c)}}, signer)
			hexTx, err := ids.Hex.Encode(tx.Bytes())
			require.NoError(b, err)
			reqs[i] = vectortest.MustJSON(b, map[string]string{"tx": hexTx, "encoding": "hex"})
			next[i] = &txs.UTXO{UTXOID: utxo.UTXOID{TxID: tx.ID()}, AssetID: avax, Out: &secp256k1fx.TransferOutput{Amount: rest, OutputOwners: owner(addr)}}
			last = tx.ID()
		}
		b.StartTimer()
		for _, params := range reqs {
			var reply chainapi.TxIDReply
			n.Result("issueTx", params, &reply)
		}
		n.waitCommitted(last)
		coins = next
	}
	b.ReportMetric(float64(batch*b.N)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkGetCurrentValidators calls platform.getCurrentValidators over HTTP on an L1 with
// 1,000, 100 and 10 active validators (written straight into the state: no tx can carry 1,000).
func BenchmarkGetCurrentValidators(b *testing.B) {
	for _, size := range []int{10, 100, 1000} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			clk := clock.NewFake(vectorTime)
			n := startNode(b, b.TempDir(), clk)
			ewoq := key(b, ewoqKeyHex)
			ewoqAddr := addrOf(ewoq)
			createSubnet := sign(b, &txs.CreateSubnetTx{BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), Owner: owner(ewoqAddr)}, ewoq)
			n.issue(createSubnet)
			cvm, ok := n.Manager.VM(ids.Empty)
			require.True(b, ok)
			require.NoError(b, cvm.(*platform.VM).PutL1ValidatorsForTest(createSubnet.ID(), size, 1_000_000_000))
			params := `{"subnetID":"` + createSubnet.ID().String() + `"}`
			var reply struct {
				Validators []struct{} `json:"validators"`
			}
			n.Result("getCurrentValidators", params, &reply)
			require.Len(b, reply.Validators, size)
			b.ReportAllocs()
			for b.Loop() {
				n.Call("getCurrentValidators", params)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
	}
}
