package platform_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/storage/storagetest"
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

	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"platform.getCurrentValidators","params":{"subnetID":"` + subnetID.String() + `"}}`)
	client := jsonrpc.NewClient(n.URL, nil)
	overHTTP := func() error { // as a client
		_, b, err := client.Post(t.Context(), "", body)
		if err != nil {
			return fmt.Errorf("getCurrentValidators: %w", err)
		}
		var reply struct {
			Result struct {
				Validators []json.RawMessage `json:"validators"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &reply); err != nil || len(reply.Result.Validators) != 1 {
			return fmt.Errorf("getCurrentValidators: %s", b)
		}
		return nil
	}
	accessor := func() error { // the node's, for the validators API
		legacy, l1, err := vm.CurrentValidators(subnetID)
		if err != nil || len(legacy) != 0 || len(l1) != 1 {
			return fmt.Errorf("CurrentValidators: %d legacy, %d L1, %v", len(legacy), len(l1), err)
		}
		return nil
	}
	id := subnetID.Append(0) // PutL1ValidatorsForTest's first validation ID
	storagetest.ReadsWhole(t, pinCommits, func(i int) {
		next := subnetID.Append(uint32(i))
		require.NoError(t, vm.ReplaceL1ValidatorForTest(id, next))
		id = next
	}, overHTTP, accessor)
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

	id := n.largest(ewoqP).InputID()
	storagetest.ReadsWhole(t, pinCommits, func(i int) {
		id, err = vm.RespendUTXOForTest(id, ids.ID{byte(i), byte(i >> 8), 0xee})
		require.NoError(t, err)
	}, func() error {
		got, err := balance()
		if err == nil && got != want {
			err = fmt.Errorf("getBalance %s, not %s", got, want)
		}
		return err
	})
}
