package platform_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/platform"
	"github.com/cornice-node/cornice/vms/platform/txs"
)

// pinCommits is how many commits the tests below make while their readers run (an L1 validator
// replaced, a UTXO respent). Without the pin, the readers were torn within the first few hundred.
const pinCommits = 1000

// getCurrentValidators of an L1, and the node's CurrentValidators (the validators API), read the
// L1's validator index and the validators it names from one state: while the L1's one validator
// is replaced by another over and over, each in one commit, every answer lists exactly one,
// never an internal error for a validator the index names and a later read no longer finds. The
// number of replacements bounds the test, not a clock.
func TestCurrentValidatorsReadOneState(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	ewoq := key(t, ewoqKeyHex)
	ewoqAddr := addrOf(ewoq)
	createSubnet := sign(t, &txs.CreateSubnetTx{BaseTx: n.baseTx(n.largest(ewoqP), 0, ewoqAddr, ewoqAddr), Owner: owner(ewoqAddr)}, ewoq)
	n.issue(createSubnet)
	subnetID := createSubnet.ID()
	cvm, ok := n.Manager.VM(ids.Empty)
	require.True(t, ok)
	vm := cvm.(*platform.VM)
	require.NoError(t, vm.PutL1ValidatorsForTest(subnetID, 1, 1_000_000_000))

	var (
		wg   sync.WaitGroup
		done = make(chan struct{})
		torn = make(chan string, 2)
	)
	stopped := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	wg.Add(2)
	go func() { // over HTTP, as a client
		defer wg.Done()
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"platform.getCurrentValidators","params":{"subnetID":"` + subnetID.String() + `"}}`)
		client := jsonrpc.NewClient(n.URL, nil)
		for !stopped() {
			_, b, err := client.Post(t.Context(), "", body)
			if err != nil {
				torn <- "getCurrentValidators: " + err.Error()
				return
			}
			var reply struct {
				Result struct {
					Validators []json.RawMessage `json:"validators"`
				} `json:"result"`
			}
			if err := json.Unmarshal(b, &reply); err != nil || len(reply.Result.Validators) != 1 {
				torn <- "getCurrentValidators: " + string(b)
				return
			}
		}
	}()
	go func() { // the node's accessor
		defer wg.Done()
		for !stopped() {
			legacy, l1, err := vm.CurrentValidators(subnetID)
			if err != nil || len(legacy) != 0 || len(l1) != 1 {
				torn <- fmt.Sprintf("CurrentValidators: %d legacy, %d L1, %v", len(legacy), len(l1), err)
				return
			}
		}
	}()
	id := subnetID.Append(0) // PutL1ValidatorsForTest's first validation ID
	for i := 1; i <= pinCommits; i++ {
		next := subnetID.Append(uint32(i))
		require.NoError(t, vm.ReplaceL1ValidatorForTest(id, next))
		id = next
	}
	close(done)
	wg.Wait()
	close(torn)
	for msg := range torn {
		t.Error(msg)
	}
}

// getBalance reads the addresses' UTXO index and the UTXOs it names, every page, from one state:
// while ewoq's largest UTXO is spent into a new one of the same amount over and over, each in one
// commit, the balance never changes; a torn read would find the index naming the spent UTXO and
// miss the new one. The number of moves bounds the test, not a clock.
func TestBalanceReadsOneState(t *testing.T) {
	t.Parallel()
	n := startNode(t, t.TempDir(), clock.NewFake(vectorTime))
	cvm, ok := n.Manager.VM(ids.Empty)
	require.True(t, ok)
	vm := cvm.(*platform.VM)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"platform.getBalance","params":{"addresses":["` + ewoqP + `","` + vmrqP + `"]}}`)
	client := jsonrpc.NewClient(n.URL, nil)
	balance := func() (string, error) {
		_, b, err := client.Post(t.Context(), "", body)
		if err != nil {
			return "", err
		}
		var reply struct {
			Result struct {
				Balance string `json:"balance"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &reply); err != nil || reply.Result.Balance == "" {
			return "", fmt.Errorf("getBalance: %s", b)
		}
		return reply.Result.Balance, nil
	}
	want, err := balance()
	require.NoError(t, err)

	var (
		wg   sync.WaitGroup
		done = make(chan struct{})
		torn = make(chan error, 1)
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			got, err := balance()
			if err == nil && got != want {
				err = fmt.Errorf("getBalance %s, not %s", got, want)
			}
			if err != nil {
				torn <- err
				return
			}
		}
	}()
	id := n.largest(ewoqP).InputID()
	for i := 1; i <= pinCommits; i++ {
		id, err = vm.RespendUTXOForTest(id, ids.ID{byte(i), byte(i >> 8), 0xee})
		require.NoError(t, err)
	}
	close(done)
	wg.Wait()
	close(torn)
	for err := range torn {
		t.Error(err)
	}
}
