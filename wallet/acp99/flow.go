package acp99

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/cornice-node/cornice/api/sigagg"
	"github.com/cornice-node/cornice/clock"
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
	"github.com/cornice-node/cornice/vms/evm/l1params"
	"github.com/cornice-node/cornice/vms/evm/precompile"
	"github.com/cornice-node/cornice/vms/platform/api"
	"github.com/cornice-node/cornice/vms/platform/txs"
	"github.com/cornice-node/cornice/wallet"
	"github.com/cornice-node/cornice/wallet/evmwait"
	"github.com/cornice-node/cornice/warp"
	"github.com/cornice-node/cornice/warp/acp118"
	"github.com/cornice-node/cornice/warp/acp77"
	"github.com/cornice-node/cornice/warp/payload"
)

// predicateGas is the gas of a complete… call, whose warp predicate eth_estimateGas cannot
// price: the predicate's verification plus the manager's bookkeeping, with room to spare.
const predicateGas = 1_000_000

// Flow changes the validator set of one L1 through its manager, from one node.
type Flow struct {
	node      *wallet.Client
	key       *wallet.Key
	p         *wallet.P
	eth       *ethclient.Client
	chainID   *big.Int
	networkID uint32
	subnetID  ids.ID
	subnet    api.GetSubnetReply
	manager   common.Address
	wait      time.Duration
	log       io.Writer
}

// NewFlow connects to the L1 subnetID through node. The manager is manager, or, when nil, the
// one the P-Chain recorded at the subnet's conversion (platform.getSubnet); its chain's RPC is
// the node's /ext/bc/<managerChainID>/rpc. key signs the EVM and P-Chain txs (it must own the
// manager to initiate changes); wait bounds each wait for acceptance; each step is printed to
// log.
func NewFlow(ctx context.Context, node *wallet.Client, key *wallet.Key, subnetID ids.ID, manager *common.Address,
	wait time.Duration, log io.Writer,
) (*Flow, error) {
	var subnet api.GetSubnetReply
	if err := node.Call(ctx, "/ext/bc/P", "platform.getSubnet", map[string]string{"subnetID": subnetID.String()}, &subnet); err != nil {
		return nil, fmt.Errorf("subnet %s: %w", subnetID, err)
	}
	if subnet.ManagerAddress == nil {
		return nil, fmt.Errorf("subnet %s has not been converted to an L1", subnetID)
	}
	f := &Flow{node: node, key: key, subnetID: subnetID, subnet: subnet, wait: wait, log: log}
	if manager != nil {
		f.manager = *manager
	} else {
		f.manager = common.HexToAddress(*subnet.ManagerAddress)
	}
	var network struct {
		NetworkID uint32 `json:"networkID,string"`
	}
	if err := node.Call(ctx, "/ext/info", "info.getNetworkID", nil, &network); err != nil {
		return nil, err
	}
	f.networkID = network.NetworkID
	p, err := wallet.NewP(ctx, node, key, clock.Real{})
	if err != nil {
		return nil, err
	}
	f.p = p
	f.eth, err = ethclient.DialContext(ctx, node.URI()+"/ext/bc/"+subnet.ManagerChainID.String()+"/rpc")
	if err != nil {
		return nil, fmt.Errorf("the manager's chain %s: %w", subnet.ManagerChainID, err)
	}
	if f.chainID, err = f.eth.ChainID(ctx); err != nil {
		return nil, fmt.Errorf("the manager's chain %s: %w", subnet.ManagerChainID, err)
	}
	return f, nil
}

// Manager returns the manager's address.
func (f *Flow) Manager() common.Address { return f.manager }

// Close closes the connection to the manager's chain.
func (f *Flow) Close() { f.eth.Close() }

func (f *Flow) step(format string, args ...any) {
	fmt.Fprintf(f.log, format+"\n", args...)
}

// ConversionData returns what the L1's conversion made of the subnet, as the P-Chain says: the
// manager it recorded and the initial validators, validation ID SubnetID.Append(i) at index i,
// read with platform.getL1Validator until one is missing. Their weights are the conversion's as
// long as no manager changed them, which it cannot before InitializeValidatorSet; the data is
// checked against the conversion ID the P-Chain recorded.
func (f *Flow) ConversionData(ctx context.Context) (*acp77.ConversionData, error) {
	manager, err := hexutil.Decode(*f.subnet.ManagerAddress)
	if err != nil {
		return nil, fmt.Errorf("the subnet's manager address %q: %w", *f.subnet.ManagerAddress, err)
	}
	d := &acp77.ConversionData{SubnetID: f.subnetID, ManagerChainID: f.subnet.ManagerChainID, ManagerAddress: manager}
	for i := uint32(0); ; i++ {
		var v api.GetL1ValidatorReply
		err := f.node.Call(ctx, "/ext/bc/P", "platform.getL1Validator", map[string]string{"validationID": f.subnetID.Append(i).String()}, &v)
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && i > 0 {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("initial validator %d: %w", i, err)
		}
		var pk [bls.PublicKeyLen]byte
		b, err := hexutil.Decode(v.PublicKey)
		if err != nil || len(b) != len(pk) {
			return nil, fmt.Errorf("initial validator %d: public key %q", i, v.PublicKey)
		}
		copy(pk[:], b)
		d.Validators = append(d.Validators, acp77.ConversionValidator{NodeID: v.NodeID[:], BLSPublicKey: pk, Weight: uint64(v.Weight)})
	}
	if d.ID() != f.subnet.ConversionID {
		return nil, fmt.Errorf("%w: the P-Chain's initial validators have changed since the conversion", ErrConversionChanged)
	}
	return d, nil
}

// InitializeValidatorSet delivers the P-Chain's SubnetToL1Conversion to the manager's
// initializeValidatorSet with the conversion's data.
func (f *Flow) InitializeValidatorSet(ctx context.Context, d *acp77.ConversionData) error {
	type initial struct {
		NodeID       []byte
		BlsPublicKey []byte
		Weight       uint64
	}
	arg := struct {
		SubnetID                     [32]byte
		ValidatorManagerBlockchainID [32]byte
		ValidatorManagerAddress      common.Address
		InitialValidators            []initial
	}{d.SubnetID, d.ManagerChainID, common.BytesToAddress(d.ManagerAddress), make([]initial, len(d.Validators))}
	for i, v := range d.Validators {
		arg.InitialValidators[i] = initial{v.NodeID, v.BLSPublicKey[:], v.Weight}
	}
	// A complete… call carries a predicate, so it is not estimated: check what would revert.
	var initialized bool
	if err := f.view(ctx, &initialized, "initialized"); err != nil {
		return err
	}
	if initialized {
		return fmt.Errorf("%w: %s", ErrAlreadyInitialized, f.manager)
	}
	signed, err := f.fromP(ctx, &acp77.SubnetToL1Conversion{ID: d.ID()}, f.subnetID[:])
	if err != nil {
		return err
	}
	r, err := f.transact(ctx, signed, "initializeValidatorSet", arg, uint32(0))
	if err != nil {
		return err
	}
	f.step("initializeValidatorSet: tx %s", r.TxHash)
	return nil
}

// Validator is what AddValidator registers.
type Validator struct {
	NodeID ids.NodeID
	Signer bls.ProofOfPossession
	Weight uint64
	// Balance is the nAVAX the RegisterL1ValidatorTx pays for the validator's fees.
	Balance uint64
}

// AddValidator registers v and returns its validation ID. The key's P-Chain address becomes the
// owner of the validator's remaining balance and its deactivation owner.
func (f *Flow) AddValidator(ctx context.Context, v Validator) (ids.ID, error) {
	owner := struct {
		Threshold uint32
		Addresses []common.Address
	}{1, []common.Address{common.Address(f.key.Address())}}
	r, err := f.transact(ctx, nil, "initiateValidatorRegistration", v.NodeID[:], v.Signer.PublicKey[:], owner, owner, v.Weight)
	if err != nil {
		return ids.ID{}, err
	}
	ev, err := f.event(r, "InitiatedValidatorRegistration")
	if err != nil {
		return ids.ID{}, err
	}
	vid := ids.ID(ev.Topics[1])
	f.step("initiateValidatorRegistration: tx %s, validation ID %s", r.TxHash, vid)
	msg, err := f.sentSigned(ctx, r)
	if err != nil {
		return ids.ID{}, err
	}
	tx, err := f.p.RegisterValidator(ctx, v.Balance, v.Signer.ProofOfPossession, msg)
	if err != nil {
		return ids.ID{}, err
	}
	if err := f.issue(ctx, "RegisterL1ValidatorTx", tx); err != nil {
		return ids.ID{}, err
	}
	answer, err := f.fromP(ctx, &acp77.L1ValidatorRegistration{ValidationID: vid, Registered: true}, nil)
	if err != nil {
		return ids.ID{}, err
	}
	if r, err = f.transact(ctx, answer, "completeValidatorRegistration", uint32(0)); err != nil {
		return ids.ID{}, err
	}
	f.step("completeValidatorRegistration: tx %s", r.TxHash)
	return vid, nil
}

// SetWeight changes the weight of nodeID's validation to weight (not 0: RemoveValidator).
func (f *Flow) SetWeight(ctx context.Context, nodeID ids.NodeID, weight uint64) error {
	vid, err := f.ValidationID(ctx, nodeID)
	if err != nil {
		return err
	}
	r, err := f.transact(ctx, nil, "initiateValidatorWeightUpdate", [32]byte(vid), weight)
	if err != nil {
		return err
	}
	ev, err := f.event(r, "InitiatedValidatorWeightUpdate")
	if err != nil {
		return err
	}
	vals, err := Contract().ABI.Events["InitiatedValidatorWeightUpdate"].Inputs.NonIndexed().Unpack(ev.Data)
	if err != nil {
		return fmt.Errorf("InitiatedValidatorWeightUpdate: %w", err)
	}
	nonce := vals[0].(uint64)
	f.step("initiateValidatorWeightUpdate: tx %s, validation ID %s, nonce %d", r.TxHash, vid, nonce)
	if err := f.setWeightTx(ctx, r); err != nil {
		return err
	}
	answer, err := f.fromP(ctx, &acp77.L1ValidatorWeight{ValidationID: vid, Nonce: nonce, Weight: weight}, nil)
	if err != nil {
		return err
	}
	if r, err = f.transact(ctx, answer, "completeValidatorWeightUpdate", uint32(0)); err != nil {
		return err
	}
	f.step("completeValidatorWeightUpdate: tx %s", r.TxHash)
	return nil
}

// RemoveValidator ends nodeID's validation, which the manager must have registered itself.
func (f *Flow) RemoveValidator(ctx context.Context, nodeID ids.NodeID) error {
	vid, err := f.ValidationID(ctx, nodeID)
	if err != nil {
		return err
	}
	var reg []byte
	if err := f.view(ctx, &reg, "registrationMessage", [32]byte(vid)); err != nil {
		return err
	}
	if len(reg) == 0 {
		return fmt.Errorf("%w: validation %s", ErrInitialValidator, vid)
	}
	r, err := f.transact(ctx, nil, "initiateValidatorRemoval", [32]byte(vid))
	if err != nil {
		return err
	}
	f.step("initiateValidatorRemoval: tx %s, validation ID %s", r.TxHash, vid)
	if err := f.setWeightTx(ctx, r); err != nil {
		return err
	}
	justification := (&acp118.RegistrationJustification{RegisterL1ValidatorMessage: reg}).Bytes()
	answer, err := f.fromP(ctx, &acp77.L1ValidatorRegistration{ValidationID: vid}, justification)
	if err != nil {
		return err
	}
	if r, err = f.transact(ctx, answer, "completeValidatorRemoval", uint32(0)); err != nil {
		return err
	}
	f.step("completeValidatorRemoval: tx %s", r.TxHash)
	return nil
}

// ValidationID returns the manager's validation of nodeID.
func (f *Flow) ValidationID(ctx context.Context, nodeID ids.NodeID) (ids.ID, error) {
	var vid [32]byte
	if err := f.view(ctx, &vid, "getNodeValidationID", nodeID[:]); err != nil {
		return ids.ID{}, err
	}
	if vid == ([32]byte{}) {
		return ids.ID{}, fmt.Errorf("%w %s", ErrUnknownValidator, nodeID)
	}
	return ids.ID(vid), nil
}

// setWeightTx carries the L1ValidatorWeight message r sent to the P-Chain.
func (f *Flow) setWeightTx(ctx context.Context, r *types.Receipt) error {
	msg, err := f.sentSigned(ctx, r)
	if err != nil {
		return err
	}
	tx, err := f.p.SetValidatorWeight(ctx, msg)
	if err != nil {
		return err
	}
	return f.issue(ctx, "SetL1ValidatorWeightTx", tx)
}

// issue issues a P-Chain tx and waits for its acceptance.
func (f *Flow) issue(ctx context.Context, name string, tx *txs.Tx) error {
	id, err := f.p.IssueAndWait(ctx, tx, f.wait)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	f.step("%s: %s accepted on the P-Chain", name, id)
	return nil
}

// sentSigned returns the warp message r's transaction sent, signed by the L1's validators.
func (f *Flow) sentSigned(ctx context.Context, r *types.Receipt) ([]byte, error) {
	for _, l := range r.Logs {
		if l.Address != l1params.WarpAddress || len(l.Topics) == 0 || l.Topics[0] != precompile.SendWarpMessageTopic() {
			continue
		}
		msg, err := precompile.SentWarpMessage(l.Data)
		if err != nil {
			return nil, err
		}
		signed, err := f.aggregate(ctx, msg, nil)
		if err != nil {
			return nil, err
		}
		f.step("warp message %s signed by the L1's validators", msg.ID())
		return signed, nil
	}
	return nil, fmt.Errorf("%w: SendWarpMessage in tx %s", ErrNoEvent, r.TxHash)
}

// fromP returns m from the P-Chain, signed for the L1.
func (f *Flow) fromP(ctx context.Context, m acp77.Message, justification []byte) ([]byte, error) {
	msg := warp.NewUnsignedMessage(f.networkID, ids.Empty, (&payload.AddressedCall{Payload: m.Bytes()}).Bytes())
	signed, err := f.aggregate(ctx, msg, justification)
	if err != nil {
		return nil, err
	}
	f.step("P-Chain message %s (%s) signed", msg.ID(), strings.TrimPrefix(fmt.Sprintf("%T", m), "*acp77."))
	return signed, nil
}

// aggregate has the node's /ext/aggregate-signatures sign msg by the L1's validators. A
// validator signs only what its own chain has accepted, and the validators accept a block each
// on its own time after the node this flow talks to: while too few have signed, it asks again,
// for at most f.wait.
func (f *Flow) aggregate(ctx context.Context, msg *warp.UnsignedMessage, justification []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, f.wait)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		signed, err := f.aggregateOnce(ctx, msg, justification)
		if !errors.Is(err, warp.ErrInsufficientWeight) {
			return signed, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-tick.C:
		}
	}
}

// aggregateOnce asks the node's /ext/aggregate-signatures once; a refusal with the code of too
// little signature weight (warp.CodeInsufficientWeight) wraps warp.ErrInsufficientWeight.
func (f *Flow) aggregateOnce(ctx context.Context, msg *warp.UnsignedMessage, justification []byte) ([]byte, error) {
	body, err := json.Marshal(sigagg.Request{
		Message:         hex.EncodeToString(msg.Bytes()),
		Justification:   hex.EncodeToString(justification),
		SigningSubnetID: f.subnetID.String(),
	})
	if err != nil {
		return nil, fmt.Errorf("aggregate-signatures request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.node.URI()+"/ext/aggregate-signatures", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("aggregate-signatures request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("aggregate-signatures: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("aggregate-signatures: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var refusal struct {
			Code int `json:"code"`
		}
		if json.Unmarshal(b, &refusal) == nil && refusal.Code == warp.CodeInsufficientWeight {
			return nil, fmt.Errorf("aggregate-signatures: %s: %s: %w", resp.Status, bytes.TrimSpace(b), warp.ErrInsufficientWeight)
		}
		return nil, fmt.Errorf("aggregate-signatures: %s: %s", resp.Status, bytes.TrimSpace(b))
	}
	var reply sigagg.Response
	if err := json.Unmarshal(b, &reply); err != nil {
		return nil, fmt.Errorf("aggregate-signatures reply: %w", err)
	}
	signed, err := hex.DecodeString(reply.SignedMessage)
	if err != nil {
		return nil, fmt.Errorf("aggregate-signatures reply: %w", err)
	}
	return signed, nil
}

// event returns r's log of the manager's event name.
func (f *Flow) event(r *types.Receipt, name string) (*types.Log, error) {
	id := Contract().ABI.Events[name].ID
	for _, l := range r.Logs {
		if l.Address == f.manager && len(l.Topics) > 0 && l.Topics[0] == id {
			return l, nil
		}
	}
	return nil, fmt.Errorf("%w: %s in tx %s", ErrNoEvent, name, r.TxHash)
}

// view calls the manager's view method and unpacks its one result into out.
func (f *Flow) view(ctx context.Context, out any, method string, args ...any) error {
	a := Contract().ABI
	data, err := a.Pack(method, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	res, err := f.eth.CallContract(ctx, ethereum.CallMsg{To: &f.manager, Data: data}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if err := a.UnpackIntoInterface(out, method, res); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// transact calls the manager's method with the key, with the signed warp message predicate in
// the access list when there is one, and waits for the receipt of a successful transaction.
func (f *Flow) transact(ctx context.Context, predicate []byte, method string, args ...any) (*types.Receipt, error) {
	data, err := Contract().ABI.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	call := evmwait.Call{To: &f.manager, Data: data, Gas: predicateGas}
	if predicate != nil {
		call.AccessList = types.AccessList{{Address: l1params.WarpAddress, StorageKeys: precompile.PackPredicate(predicate)}}
	} else {
		// Estimating also reports a revert, with its reason, before anything is sent.
		gas, err := f.eth.EstimateGas(ctx, ethereum.CallMsg{From: f.key.EthAddress(), To: &f.manager, Data: data})
		if err != nil {
			return nil, fmt.Errorf("%s: %w%s", method, err, revertReason(err))
		}
		call.Gas = gas + gas/5
	}
	r, err := evmwait.Transact(ctx, f.eth, f.key.PrivateKey(), f.chainID, call, f.wait)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return r, nil
}

// revertReason names the manager's custom error in err's revert data, as ": Name(args)", or
// returns "" when there is none.
func revertReason(err error) string {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return ""
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return ""
	}
	data, decodeErr := hexutil.Decode(s)
	if decodeErr != nil || len(data) < 4 {
		return ""
	}
	for name, e := range Contract().ABI.Errors {
		if !bytes.Equal(e.ID[:4], data[:4]) {
			continue
		}
		args, err := e.Inputs.Unpack(data[4:])
		if err != nil {
			return ": " + name
		}
		return fmt.Sprintf(": %s%v", name, args)
	}
	return ""
}
