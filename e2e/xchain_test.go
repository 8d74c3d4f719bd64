package e2e_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/config"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/index"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/node"
	"github.com/cornice-node/cornice/node/nodetest"
	"github.com/cornice-node/cornice/node/vmset"
	"github.com/cornice-node/cornice/vms/chainapi"
	xapi "github.com/cornice-node/cornice/vms/exchange/api"
	xtxs "github.com/cornice-node/cornice/vms/exchange/txs"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
	"github.com/cornice-node/cornice/wallet"
)

// acceptWait bounds every wait for acceptance in these tests: a bound, not an expected time;
// under -race with the parallel tests of the package on two loaded cores a few seconds can pass.
const acceptWait = 60 * time.Second

// xNode is a node as `cornice run` builds it, running until stop.
type xNode struct {
	t      testing.TB
	base   string
	client *wallet.Client
	// hc is the tests' HTTP client, with a transport of its own.
	hc *http.Client
	// stopNode stops the node (nodetest.Run).
	stopNode func() error
}

// startXNode starts a node on port 0 with its data in dir.
func startXNode(t testing.TB, dir string) *xNode {
	t.Helper()
	return startXNodeWith(t, dir, func(*config.Config) {})
}

// startXNodeWith starts a node on port 0 with its data in dir and the config changed by modify.
func startXNodeWith(t testing.TB, dir string, modify func(*config.Config)) *xNode {
	t.Helper()
	return startXNodeVMs(t, dir, modify, vmset.For)
}

// startXNodeVMs is startXNodeWith running the VMs vmsFor gives.
func startXNodeVMs(t testing.TB, dir string, modify func(*config.Config), vmsFor func(config.Config) node.VMs) *xNode {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.HTTPPort = 0
	cfg.StakingPort = 0
	modify(&cfg)
	n, err := node.New(cfg, slog.New(slog.DiscardHandler), vmsFor(cfg))
	require.NoError(t, err)
	require.NoError(t, n.AttachRelay(vmset.Relay))
	xn := &xNode{
		t:        t,
		base:     "http://" + n.HTTPAddr().String(),
		hc:       &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		stopNode: nodetest.Run(t, n),
	}
	xn.client, err = wallet.NewClient(xn.base, xn.hc)
	require.NoError(t, err)
	t.Cleanup(xn.stop)
	return xn
}

// stop stops the node and waits for it; it is a no-op the second time. It first closes the
// clients' idle connections: a connection a transport dialed but never used counts as active for
// its first 5 s in http.Server.Shutdown, longer than the node's shutdown bound.
func (xn *xNode) stop() {
	xn.hc.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections() // ethclient.Dial and http.Post use the default transport
	require.NoError(xn.t, xn.stopNode())
}

func (xn *xNode) call(path, method string, params, result any) {
	xn.t.Helper()
	require.NoError(xn.t, xn.client.Call(context.Background(), path, method, params, result))
}

func (xn *xNode) wallet(k *wallet.Key) *wallet.X {
	xn.t.Helper()
	x, err := wallet.NewX(context.Background(), xn.client, k, clock.Real{})
	require.NoError(xn.t, err)
	return x
}

// issue issues tx and waits until it is accepted.
func issue(t testing.TB, x *wallet.X, tx *xtxs.Tx) ids.ID {
	t.Helper()
	id, err := x.Issue(t.Context(), tx)
	require.NoError(t, err)
	require.Equal(t, tx.ID(), id)
	require.NoError(t, x.WaitAccepted(t.Context(), id, acceptWait))
	return id
}

// balances returns what avm.getAllBalances reports for addr, by asset.
func (xn *xNode) balances(addr string) map[string]uint64 {
	xn.t.Helper()
	var reply struct {
		Balances []struct {
			Asset   string `json:"asset"`
			Balance uint64 `json:"balance,string"`
		} `json:"balances"`
	}
	xn.call("/ext/bc/X", "avm.getAllBalances", map[string]string{"address": addr}, &reply)
	out := make(map[string]uint64, len(reply.Balances))
	for _, b := range reply.Balances {
		out[b.Asset] = b.Balance
	}
	return out
}

// chainState is what a refused tx must not change: the balances and UTXOs of the addresses, and
// the height.
type chainState struct {
	Balances map[string]map[string]uint64
	UTXOs    map[string][]ids.ID
	Height   string
}

func (xn *xNode) state(ws ...*wallet.X) chainState {
	xn.t.Helper()
	st := chainState{Balances: map[string]map[string]uint64{}, UTXOs: map[string][]ids.ID{}}
	for _, w := range ws {
		st.Balances[w.Address()] = xn.balances(w.Address())
		utxos, err := w.UTXOs(context.Background())
		require.NoError(xn.t, err)
		for _, ux := range utxos {
			st.UTXOs[w.Address()] = append(st.UTXOs[w.Address()], ux.InputID())
		}
	}
	var h struct {
		Height string `json:"height"`
	}
	xn.call("/ext/bc/X", "avm.getHeight", nil, &h)
	st.Height = h.Height
	return st
}

// containerRange returns every container of an X index, decoded from hex.
func (xn *xNode) containerRange(kind string) []index.Container {
	xn.t.Helper()
	var reply index.GetContainerRangeReply
	xn.call("/ext/index/X/"+kind, "index.getContainerRange",
		map[string]any{"startIndex": 0, "numToFetch": index.MaxFetch, "encoding": "hex"}, &reply)
	return reply.Containers
}

// checkIndexes checks the X indexes against the txs accepted so far, in order: the tx index holds
// exactly them, the block index exactly the accepted blocks, whose txs are the same ones; the
// bytes decode back to them; each tx reads back with avm.getTx in json and hex; the vertex index
// is empty (issue #7 §1, §4; the spec's rule 4 of the index).
func (xn *xNode) checkIndexes(accepted []ids.ID) {
	t := xn.t
	t.Helper()
	txs := xn.containerRange("tx")
	require.Len(t, txs, len(accepted))
	for i, c := range txs {
		require.Equal(t, strconv.Itoa(i), c.Index)
		require.Equal(t, accepted[i].String(), c.ID)
		b, err := ids.Hex.Decode(c.Bytes)
		require.NoError(t, err)
		tx, err := xtxs.ParseTx(b)
		require.NoError(t, err)
		require.Equal(t, accepted[i], tx.ID())

		var asJSON struct {
			Tx struct {
				UnsignedTx  json.RawMessage `json:"unsignedTx"`
				Credentials []struct {
					Credential struct {
						Signatures []string `json:"signatures"`
					} `json:"credential"`
				} `json:"credentials"`
				ID ids.ID `json:"id"`
			} `json:"tx"`
			Encoding string `json:"encoding"`
		}
		xn.call("/ext/bc/X", "avm.getTx", map[string]string{"txID": c.ID, "encoding": "json"}, &asJSON)
		require.Equal(t, "json", asJSON.Encoding)
		require.Equal(t, tx.ID(), asJSON.Tx.ID)
		require.NotEmpty(t, asJSON.Tx.UnsignedTx)
		require.Len(t, asJSON.Tx.Credentials, len(tx.Creds()))
		var asHex chainapi.GetTxReply
		xn.call("/ext/bc/X", "avm.getTx", map[string]string{"txID": c.ID, "encoding": "hex"}, &asHex)
		require.JSONEq(t, strconv.Quote(c.Bytes), string(asHex.Tx))
	}

	blocks := xn.containerRange("block")
	var h struct {
		Height string `json:"height"`
	}
	xn.call("/ext/bc/X", "avm.getHeight", nil, &h)
	require.Equal(t, h.Height, strconv.Itoa(len(blocks)), "one entry per accepted block after genesis")
	var inBlocks []ids.ID
	for i, c := range blocks {
		b, err := ids.Hex.Decode(c.Bytes)
		require.NoError(t, err)
		blk, err := xtxs.ParseBlock(b)
		require.NoError(t, err)
		require.Equal(t, c.ID, blk.ID().String())
		require.Equal(t, uint64(i+1), blk.Height())
		var byHeight chainapi.GetBlockReply
		xn.call("/ext/bc/X", "avm.getBlockByHeight", map[string]any{"height": strconv.Itoa(i + 1)}, &byHeight)
		require.JSONEq(t, strconv.Quote(c.Bytes), string(byHeight.Block))
		for _, tx := range blk.Txs() {
			inBlocks = append(inBlocks, tx.ID())
		}
	}
	require.Equal(t, accepted, inBlocks)

	err := xn.client.Call(context.Background(), "/ext/index/X/vtx", "index.getLastAccepted", map[string]string{"encoding": "hex"}, nil)
	rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "no containers have been accepted", rpcErr.Message)
}

// localKey returns the local network's funded key (wallet.LocalKey).
func localKey(t testing.TB) *wallet.Key {
	t.Helper()
	k, err := wallet.ParseKey(wallet.LocalKey)
	require.NoError(t, err)
	return k
}

// testKey returns a key that owns nothing on the local network.
func testKey(t testing.TB, name string) *wallet.Key {
	t.Helper()
	seed := sha256.Sum256([]byte(name))
	priv, err := crypto.ToECDSA(seed[:])
	require.NoError(t, err)
	return wallet.NewKey(priv)
}

// TestXChain runs the X-Chain of the node `cornice run` builds with the wallet: AVAX moves
// between addresses, an asset is created and moved, refused txs change nothing, a restart keeps
// balances and history, the X indexes hold exactly what was accepted, and the CLI does the same
// (issue #7 §3, §4).
func TestXChain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	xn := startXNode(t, dir)
	ewoq := localKey(t)
	alice, bob := xn.wallet(ewoq), xn.wallet(testKey(t, "bob"))
	avax, err := alice.Asset(t.Context(), "AVAX")
	require.NoError(t, err)
	avaxID := avax.AssetID.String()
	b := alice.Builder()
	fee := b.TxFee
	require.Equal(t, uint64(1_000_000), fee)
	require.Equal(t, uint64(1_000_000), b.CreateAssetTxFee)

	var accepted []ids.ID
	start := xn.balances(alice.Address())["AVAX"]
	require.Equal(t, uint64(300_000_000_000_000_000), start) // §6.4
	require.Empty(t, xn.balances(bob.Address()))

	// AVAX from alice to bob, then some back.
	tx, err := alice.Send(t.Context(), bob.Address(), avax.AssetID, 5_000_000_000)
	require.NoError(t, err)
	accepted = append(accepted, issue(t, alice, tx))
	require.Equal(t, map[string]uint64{"AVAX": 5_000_000_000}, xn.balances(bob.Address()))
	require.Equal(t, start-5_000_000_000-fee, xn.balances(alice.Address())["AVAX"])
	tx, err = bob.Send(t.Context(), alice.Address(), avax.AssetID, 1_000_000_000)
	require.NoError(t, err)
	accepted = append(accepted, issue(t, bob, tx))
	require.Equal(t, map[string]uint64{"AVAX": 4_000_000_000 - fee}, xn.balances(bob.Address()))
	require.Equal(t, start-4_000_000_000-fee, xn.balances(alice.Address())["AVAX"])

	// An asset: created by alice, a quarter moved to bob.
	tx, err = alice.CreateAsset(t.Context(), "Cornice Test Token", "CTT", 2, 1_000_000)
	require.NoError(t, err)
	assetID := issue(t, alice, tx)
	accepted = append(accepted, assetID)
	desc, err := alice.Asset(t.Context(), assetID.String())
	require.NoError(t, err)
	require.Equal(t, xapi.GetAssetDescriptionReply{AssetID: assetID, Name: "Cornice Test Token", Symbol: "CTT", Denomination: 2}, *desc)
	stale, err := alice.UTXOs(t.Context())
	require.NoError(t, err)
	tx, err = alice.Send(t.Context(), bob.Address(), assetID, 250_000)
	require.NoError(t, err)
	accepted = append(accepted, issue(t, alice, tx))
	require.Equal(t, map[string]uint64{"AVAX": start - 4_000_000_000 - 3*fee, assetID.String(): 750_000}, xn.balances(alice.Address()))
	require.Equal(t, map[string]uint64{"AVAX": 4_000_000_000 - fee, assetID.String(): 250_000}, xn.balances(bob.Address()))

	// Refusals: each is a clear error and changes nothing.
	_, err = bob.Send(t.Context(), alice.Address(), avax.AssetID, 4_000_000_000)
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds, "the wallet refuses to spend more than the key has")
	_, err = bob.Send(t.Context(), alice.Address(), ids.ID{1, 2, 3}, 1)
	require.ErrorIs(t, err, wallet.ErrInsufficientFunds, "the wallet refuses an asset the key does not hold")
	_, err = bob.Send(t.Context(), "X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p", avax.AssetID, 1)
	require.ErrorIs(t, err, wallet.ErrWrongChain)

	utxos, err := alice.UTXOs(t.Context())
	require.NoError(t, err)
	// alice's largest AVAX UTXO, the 1 AVAX bob sent her, and her asset UTXO
	var avaxUTXO, smallUTXO, assetUTXO *xtxs.UTXO
	for _, ux := range utxos {
		switch amount := ux.Out.(*secp256k1fx.TransferOutput).Amount; {
		case ux.AssetID == assetID:
			assetUTXO = ux
		case amount == 1_000_000_000:
			smallUTXO = ux
		default:
			avaxUTXO = ux
		}
	}
	require.Len(t, utxos, 3)
	require.NotNil(t, avaxUTXO)
	require.NotNil(t, smallUTXO)
	require.NotNil(t, assetUTXO)
	// in spends ux, declared as asset.
	in := func(ux *xtxs.UTXO, asset ids.ID) xtxs.TransferableInput {
		return xtxs.TransferableInput{UTXOID: ux.UTXOID, AssetID: asset, In: &secp256k1fx.TransferInput{
			Amount: ux.Out.(*secp256k1fx.TransferOutput).Amount, Input: secp256k1fx.Input{SigIndices: []uint32{0}},
		}}
	}
	// spend returns a BaseTx of ins (sorted here) and out, signed by signer.
	spend := func(signer *wallet.Key, out xtxs.TransferableOutput, ins ...xtxs.TransferableInput) *xtxs.Tx {
		t.Helper()
		slices.SortFunc(ins, func(a, b xtxs.TransferableInput) int { return a.TxID.Compare(b.TxID) })
		unsigned := &xtxs.BaseTx{
			NetworkID: b.NetworkID, BlockchainID: b.ChainID, Memo: []byte{},
			Outs: []xtxs.TransferableOutput{out}, Ins: ins,
		}
		keys := make([]*wallet.Key, len(ins))
		for i := range keys {
			keys[i] = signer
		}
		tx, err := wallet.SignTx(unsigned, keys...)
		require.NoError(t, err)
		return tx
	}
	toBob := func(asset ids.ID, amount uint64) xtxs.TransferableOutput {
		return xtxs.TransferTo(asset, amount, testKey(t, "bob").Address())
	}
	avaxAmount := avaxUTXO.Out.(*secp256k1fx.TransferOutput).Amount
	noFee := b
	noFee.TxFee = 0
	tests := []struct {
		name string
		tx   func() *xtxs.Tx
		want *regexp.Regexp
	}{
		{
			name: "bad signature",
			tx: func() *xtxs.Tx {
				return spend(testKey(t, "bob"), toBob(avax.AssetID, 1_000), in(avaxUTXO, avax.AssetID))
			},
			want: regexp.MustCompile(`^failed to verify transfer: input 0: wrong signature$`),
		},
		{
			name: "spent UTXO",
			tx: func() *xtxs.Tx {
				tx, err := b.Send(ewoq, stale, testKey(t, "bob").Address(), avax.AssetID, 1_000)
				require.NoError(t, err)
				return tx
			},
			want: regexp.MustCompile(`^failed to verify transfer: failed to get utxo \w+: not found$`),
		},
		{
			name: "insufficient funds",
			tx:   func() *xtxs.Tx { return spend(ewoq, toBob(avax.AssetID, avaxAmount+1), in(avaxUTXO, avax.AssetID)) },
			want: regexp.MustCompile(`^insufficient funds: asset ` + avaxID + `: inputs \d+ < outputs plus fee \d+$`),
		},
		{
			name: "missing fee",
			tx: func() *xtxs.Tx {
				tx, err := noFee.Send(ewoq, utxos, testKey(t, "bob").Address(), avax.AssetID, 1_000)
				require.NoError(t, err)
				return tx
			},
			want: regexp.MustCompile(`^insufficient funds: asset ` + avaxID + `: inputs \d+ < outputs plus fee \d+$`),
		},
		{
			name: "wrong asset",
			tx: func() *xtxs.Tx {
				// The asset UTXO declared as AVAX: the amounts add up, the UTXO's asset does not.
				amount := assetUTXO.Out.(*secp256k1fx.TransferOutput).Amount + 1_000_000_000 - fee
				return spend(ewoq, toBob(avax.AssetID, amount), in(assetUTXO, avax.AssetID), in(smallUTXO, avax.AssetID))
			},
			want: regexp.MustCompile(`^failed to verify transfer: input \d: asset IDs in the input don't match the utxo$`),
		},
	}
	before := xn.state(alice, bob)
	for _, tt := range tests {
		_, err := alice.Issue(t.Context(), tt.tx())
		rpcErr, ok := errors.AsType[*jsonrpc.Error](err)
		require.True(t, ok, "%s: %v", tt.name, err)
		require.Equal(t, -32000, rpcErr.Code)
		require.Regexp(t, tt.want, rpcErr.Message, tt.name)
		require.Equal(t, before, xn.state(alice, bob), tt.name)
	}
	// The node still takes a good tx.
	tx, err = bob.Send(t.Context(), alice.Address(), assetID, 50_000)
	require.NoError(t, err)
	accepted = append(accepted, issue(t, bob, tx))
	xn.checkIndexes(accepted)

	// A restart keeps balances, txs, blocks and indexes.
	before = xn.state(alice, bob)
	xn.stop()
	xn = startXNode(t, dir)
	alice, bob = xn.wallet(ewoq), xn.wallet(testKey(t, "bob"))
	require.Equal(t, before, xn.state(alice, bob))
	xn.checkIndexes(accepted)

	// The CLI, against the same node.
	bobX := bob.Address()
	code, stdout, stderr := runCLI(t, "x", "send", "--node-uri", xn.base, "--to", bobX, "--amount", "12345")
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`^txID: (\w+)\nstatus: Accepted\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	txID, err := ids.FromString(m[1])
	require.NoError(t, err)
	accepted = append(accepted, txID)
	require.Equal(t, before.Balances[bobX]["AVAX"]+12345, xn.balances(bobX)["AVAX"])

	code, stdout, stderr = runCLI(t, "x", "create-asset", "--node-uri", xn.base, "--key", ewoqHexKey,
		"--name", "CLI Token", "--symbol", "CLI", "--denomination", "0", "--supply", "10")
	require.Equal(t, 0, code, stderr)
	m = regexp.MustCompile(`^txID: (\w+)\nassetID: (\w+)\nstatus: Accepted\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, m[1], m[2])
	txID, err = ids.FromString(m[1])
	require.NoError(t, err)
	accepted = append(accepted, txID)

	code, stdout, stderr = runCLI(t, "x", "send", "--node-uri", xn.base, "--to", bobX, "--amount", "3", "--asset", m[2])
	require.Equal(t, 0, code, stderr)
	m = regexp.MustCompile(`^txID: (\w+)\nstatus: Accepted\n$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	txID, err = ids.FromString(m[1])
	require.NoError(t, err)
	accepted = append(accepted, txID)
	require.Equal(t, uint64(3), xn.balances(bobX)[txID.String()]+xn.balances(bobX)[accepted[len(accepted)-2].String()])

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"too much", []string{"--to", bobX, "--amount", "1000000000000000000"}, "cornice: insufficient funds: asset " + avaxID + ": spendable"},
		{"more than there is", []string{"--to", bobX, "--amount", "18446744073709551615"}, "cornice: insufficient funds: the amount plus the fee exceed 2^64-1\n"},
		{"zero", []string{"--to", bobX, "--amount", "0"}, "cornice: amount must be greater than zero\n"},
		{"other network", []string{"--to", "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5", "--amount", "1"}, `cornice: address "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5": not an address of this chain`},
		{"unknown asset", []string{"--to", bobX, "--amount", "1", "--asset", "NOPE"}, `cornice: asset NOPE: avm.getAssetDescription: unknown asset ID or alias: "NOPE"`},
		{"bad key", []string{"--to", bobX, "--amount", "1", "--key", "0x12"}, "cornice: --key: invalid private key"},
		{"no node", []string{"--to", bobX, "--amount", "1", "--node-uri", "ftp://x"}, `cornice: --node-uri: "ftp://x" is not a node's URI such as http://127.0.0.1:9650`},
		{"missing flag", []string{"--amount", "1"}, `cornice: required flag(s) "to" not set`},
	} {
		args := append([]string{"x", "send", "--node-uri", xn.base}, tc.args...)
		code, stdout, stderr := runCLI(t, args...)
		require.Equal(t, 1, code, tc.name)
		require.Empty(t, stdout, tc.name)
		require.Contains(t, stderr, tc.want, tc.name)
	}
	xn.checkIndexes(accepted)
}

// ewoqHexKey is the well-known local key in hex (platform-exchange.md §2.5).
const ewoqHexKey = "0x" + localKeyHex
