package txs

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/txjson"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// The JSON forms of txs and blocks that platform.getTx and platform.getBlock return with the json
// encoding, key for key as the reference node writes them (reference/platform-exchange.md §5.0,
// the platform.getTx(json) vectors): numbers are plain JSON numbers, IDs CB58, memos "0x" + hex,
// genesis data base64, addresses `P-<hrp>1…`; outputs and inputs carry the secp256k1fx ID, P-Chain
// credentials do not. The reference renders txs it re-parsed from their stored bytes, so empty
// lists print [] and never null (§5.0); so do these forms.
//
// The L1 txs keep the reference's field types: node IDs, manager addresses and warp messages are
// "0x" + hex, the owners of L1 validators (PChainOwner, which has no InitCtx) list bare CB58
// short IDs, and RegisterL1ValidatorTx's proof of possession, a fixed-size array there, is a
// list of numbers.

type (
	txJSON     = txjson.Tx[credentialJSON]
	baseTxJSON = txjson.BaseTx[any]
	// forms renders the P-Chain's transferable outputs and inputs, which may be stakeable locks.
	forms = txjson.Forms[Output, outputKinds, Input, inputKinds, any]
	// transferableOutputJSON is a stake output's form.
	transferableOutputJSON = txjson.TransferableOutput
)

type createSubnetTxJSON struct {
	baseTxJSON
	Owner *ownersJSON `json:"owner"`
}

type createChainTxJSON struct {
	baseTxJSON
	SubnetID    ids.ID    `json:"subnetID"`
	ChainName   string    `json:"chainName"`
	VMID        ids.ID    `json:"vmID"`
	FxIDs       []ids.ID  `json:"fxIDs"`
	GenesisData []byte    `json:"genesisData"`
	SubnetAuth  inputJSON `json:"subnetAuthorization"`
}

// addSubnetValidatorTxJSON nests the subnet ID in the validator: the reference embeds Validator
// in SubnetValidator.
type addSubnetValidatorTxJSON struct {
	baseTxJSON
	Validator  subnetValidatorJSON `json:"validator"`
	SubnetAuth inputJSON           `json:"subnetAuthorization"`
}

type validatorJSON struct {
	NodeID ids.NodeID `json:"nodeID"`
	Start  uint64     `json:"start"`
	End    uint64     `json:"end"`
	Weight uint64     `json:"weight"`
}

type subnetValidatorJSON struct {
	validatorJSON
	SubnetID ids.ID `json:"subnetID"`
}

type addPermissionlessValidatorTxJSON struct {
	baseTxJSON
	Validator             validatorJSON            `json:"validator"`
	SubnetID              ids.ID                   `json:"subnetID"`
	Signer                any                      `json:"signer"`
	Stake                 []transferableOutputJSON `json:"stake"`
	ValidatorRewardsOwner *ownersJSON              `json:"validationRewardsOwner"`
	DelegatorRewardsOwner *ownersJSON              `json:"delegationRewardsOwner"`
	DelegationShares      uint32                   `json:"shares"`
}

type addPermissionlessDelegatorTxJSON struct {
	baseTxJSON
	Validator    validatorJSON            `json:"validator"`
	SubnetID     ids.ID                   `json:"subnetID"`
	Stake        []transferableOutputJSON `json:"stake"`
	RewardsOwner *ownersJSON              `json:"rewardsOwner"`
}

type addValidatorTxJSON struct {
	baseTxJSON
	Validator        validatorJSON            `json:"validator"`
	Stake            []transferableOutputJSON `json:"stake"`
	RewardsOwner     *ownersJSON              `json:"rewardsOwner"`
	DelegationShares uint32                   `json:"shares"`
}

type addDelegatorTxJSON struct {
	baseTxJSON
	Validator    validatorJSON            `json:"validator"`
	Stake        []transferableOutputJSON `json:"stake"`
	RewardsOwner *ownersJSON              `json:"rewardsOwner"`
}

type removeSubnetValidatorTxJSON struct {
	baseTxJSON
	NodeID     ids.NodeID `json:"nodeID"`
	SubnetID   ids.ID     `json:"subnetID"`
	SubnetAuth inputJSON  `json:"subnetAuthorization"`
}

type transferSubnetOwnershipTxJSON struct {
	baseTxJSON
	SubnetID   ids.ID      `json:"subnetID"`
	SubnetAuth inputJSON   `json:"subnetAuthorization"`
	Owner      *ownersJSON `json:"newOwner"`
}

// rewardValidatorTxJSON has no BaseTx fields (§4.1).
type rewardValidatorTxJSON struct {
	TxID ids.ID `json:"txID"`
}

// proofOfPossessionJSON is a BLS signer: both fields "0x" + hex.
type proofOfPossessionJSON struct {
	PublicKey         string `json:"publicKey"`
	ProofOfPossession string `json:"proofOfPossession"`
}

// emptySignerJSON is the empty signer, an object without fields.
type emptySignerJSON struct{}

type convertSubnetToL1TxJSON struct {
	baseTxJSON
	SubnetID   ids.ID                           `json:"subnetID"`
	ChainID    ids.ID                           `json:"chainID"`
	Address    string                           `json:"address"`
	Validators []convertSubnetToL1ValidatorJSON `json:"validators"`
	SubnetAuth inputJSON                        `json:"subnetAuthorization"`
}

type convertSubnetToL1ValidatorJSON struct {
	NodeID                string                `json:"nodeID"`
	Weight                uint64                `json:"weight"`
	Balance               uint64                `json:"balance"`
	Signer                proofOfPossessionJSON `json:"signer"`
	RemainingBalanceOwner pChainOwnerJSON       `json:"remainingBalanceOwner"`
	DeactivationOwner     pChainOwnerJSON       `json:"deactivationOwner"`
}

// pChainOwnerJSON keeps the struct's field order and bare CB58 short IDs.
type pChainOwnerJSON struct {
	Threshold uint32        `json:"threshold"`
	Addresses []ids.ShortID `json:"addresses"`
}

type registerL1ValidatorTxJSON struct {
	baseTxJSON
	Balance           uint64                `json:"balance"`
	ProofOfPossession [BLSSignatureLen]byte `json:"proofOfPossession"`
	Message           string                `json:"message"`
}

type setL1ValidatorWeightTxJSON struct {
	baseTxJSON
	Message string `json:"message"`
}

type increaseL1ValidatorBalanceTxJSON struct {
	baseTxJSON
	ValidationID ids.ID `json:"validationID"`
	Balance      uint64 `json:"balance"`
}

type disableL1ValidatorTxJSON struct {
	baseTxJSON
	ValidationID ids.ID    `json:"validationID"`
	DisableAuth  inputJSON `json:"disableAuthorization"`
}

// ownersJSON, like txjson.TransferOutput, has its keys in alphabetical order: the reference
// marshals OutputOwners through a map (§5.0).
type ownersJSON struct {
	Addresses []string `json:"addresses"`
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
}

// lockOutJSON and lockInJSON are the stakeable lock wrappers: the locktime, then the inner output
// or input (§3.1).
type lockOutJSON struct {
	Locktime uint64                 `json:"locktime"`
	Output   *txjson.TransferOutput `json:"output"`
}

type lockInJSON struct {
	Locktime uint64                `json:"locktime"`
	Input    *txjson.TransferInput `json:"input"`
}

type inputJSON struct {
	SignatureIndices []uint32 `json:"signatureIndices"`
}

type credentialJSON struct {
	Signatures []string `json:"signatures"`
}

type standardBlockJSON struct {
	Time     uint64   `json:"time"`
	ParentID ids.ID   `json:"parentID"`
	Height   uint64   `json:"height"`
	ID       ids.ID   `json:"id"`
	Txs      []txJSON `json:"txs"`
}

// proposalBlockJSON is a Banff proposal block: the time, the decision txs, the common fields and
// the proposal tx (§4.1).
type proposalBlockJSON struct {
	Time     uint64   `json:"time"`
	Txs      []txJSON `json:"txs"`
	ParentID ids.ID   `json:"parentID"`
	Height   uint64   `json:"height"`
	ID       ids.ID   `json:"id"`
	Tx       *txJSON  `json:"tx"`
}

// optionBlockJSON is a Banff commit or abort block: the time, then the common fields (§4.1).
type optionBlockJSON struct {
	Time     uint64 `json:"time"`
	ParentID ids.ID `json:"parentID"`
	Height   uint64 `json:"height"`
	ID       ids.ID `json:"id"`
}

// genesisBlockJSON is the genesis (Apricot commit) block's form: no time (§4.1).
type genesisBlockJSON struct {
	ParentID ids.ID `json:"parentID"`
	Height   uint64 `json:"height"`
	ID       ids.ID `json:"id"`
}

// jsonFormatter renders txs and blocks with the addresses of one network.
type jsonFormatter struct {
	hrp string
}

// TxJSON returns the JSON form of tx that platform.getTx gives on the network whose HRP is hrp.
// Every kind this package decodes has one. It fails with ErrUnsupportedTx only for a tx holding
// a value no decoder produces (a nil output, say), and when an address cannot be formatted.
func TxJSON(tx *Tx, hrp string) ([]byte, error) {
	v, err := jsonFormatter{hrp: hrp}.tx(tx)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// BlockJSON returns the JSON form of blk that platform.getBlock gives.
func BlockJSON(blk Block, hrp string) ([]byte, error) {
	f := jsonFormatter{hrp: hrp}
	switch blk := blk.(type) {
	case *StandardBlock:
		out := &standardBlockJSON{Time: blk.Time(), ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID(),
			Txs: make([]txJSON, len(blk.Txs()))}
		for i, tx := range blk.Txs() {
			v, err := f.tx(tx)
			if err != nil {
				return nil, err
			}
			out.Txs[i] = *v
		}
		return json.Marshal(out)
	case *ProposalBlock:
		out := &proposalBlockJSON{Time: blk.Time(), ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID(),
			Txs: make([]txJSON, len(blk.Decisions()))}
		for i, tx := range blk.Decisions() {
			v, err := f.tx(tx)
			if err != nil {
				return nil, err
			}
			out.Txs[i] = *v
		}
		var err error
		if out.Tx, err = f.tx(blk.Tx()); err != nil {
			return nil, err
		}
		return json.Marshal(out)
	case *CommitBlock:
		return json.Marshal(&optionBlockJSON{Time: blk.Time(), ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID()})
	case *AbortBlock:
		return json.Marshal(&optionBlockJSON{Time: blk.Time(), ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID()})
	case *ApricotCommitBlock:
		return json.Marshal(&genesisBlockJSON{ParentID: blk.Parent(), Height: blk.Height(), ID: blk.ID()})
	}
	return nil, fmt.Errorf("%w: %T", ErrWrongBlockType, blk)
}

func (f jsonFormatter) tx(tx *Tx) (*txJSON, error) {
	out := &txJSON{ID: tx.ID()}
	base, err := f.base(tx.Unsigned().Base())
	if err != nil {
		return nil, err
	}
	if out.UnsignedTx, err = f.unsigned(tx.Unsigned(), base); err != nil {
		return nil, err
	}
	creds := tx.Creds()
	out.Credentials = make([]credentialJSON, len(creds))
	for i := range creds {
		out.Credentials[i] = credentialJSON{Signatures: txjson.Signatures(creds[i].Sigs)}
	}
	return out, nil
}

// unsigned returns the form of u, whose BaseTx fields base already holds.
func (f jsonFormatter) unsigned(u UnsignedTx, base *baseTxJSON) (any, error) {
	form := &unsignedJSON{f: f, base: base}
	if err := u.Visit(form); err != nil {
		return nil, err
	}
	return form.out, nil
}

// unsignedJSON forms each kind: out is the form of the tx visited, whose BaseTx fields base holds.
type unsignedJSON struct {
	f    jsonFormatter
	base *baseTxJSON
	out  any
}

func (j *unsignedJSON) BaseTx(*BaseTx) error {
	j.out = j.base
	return nil
}

func (j *unsignedJSON) CreateSubnetTx(u *CreateSubnetTx) error {
	owner, err := j.f.owners(&u.Owner)
	if err != nil {
		return err
	}
	j.out = &createSubnetTxJSON{baseTxJSON: *j.base, Owner: owner}
	return nil
}

func (j *unsignedJSON) CreateChainTx(u *CreateChainTx) error {
	j.out = &createChainTxJSON{
		baseTxJSON:  *j.base,
		SubnetID:    u.SubnetID,
		ChainName:   u.ChainName,
		VMID:        u.VMID,
		FxIDs:       nonNil(u.FxIDs),
		GenesisData: nonNil(u.GenesisData),
		SubnetAuth:  authJSON(&u.SubnetAuth),
	}
	return nil
}

func (j *unsignedJSON) AddSubnetValidatorTx(u *AddSubnetValidatorTx) error {
	j.out = &addSubnetValidatorTxJSON{
		baseTxJSON: *j.base,
		Validator:  subnetValidatorJSON{validatorJSON: newValidatorJSON(&u.Validator), SubnetID: u.SubnetID},
		SubnetAuth: authJSON(&u.SubnetAuth),
	}
	return nil
}

func (j *unsignedJSON) AddPermissionlessValidatorTx(u *AddPermissionlessValidatorTx) error {
	var err error
	j.out, err = j.f.addPermissionlessValidator(u, j.base)
	return err
}

func (j *unsignedJSON) AddPermissionlessDelegatorTx(u *AddPermissionlessDelegatorTx) error {
	stake, owner, err := j.f.stakeAndOwner(u.Stake, &u.RewardsOwner)
	j.out = &addPermissionlessDelegatorTxJSON{baseTxJSON: *j.base, Validator: newValidatorJSON(&u.Validator),
		SubnetID: u.SubnetID, Stake: stake, RewardsOwner: owner}
	return err
}

func (j *unsignedJSON) AddValidatorTx(u *AddValidatorTx) error {
	stake, owner, err := j.f.stakeAndOwner(u.Stake, &u.RewardsOwner)
	j.out = &addValidatorTxJSON{baseTxJSON: *j.base, Validator: newValidatorJSON(&u.Validator),
		Stake: stake, RewardsOwner: owner, DelegationShares: u.DelegationShares}
	return err
}

func (j *unsignedJSON) AddDelegatorTx(u *AddDelegatorTx) error {
	stake, owner, err := j.f.stakeAndOwner(u.Stake, &u.RewardsOwner)
	j.out = &addDelegatorTxJSON{baseTxJSON: *j.base, Validator: newValidatorJSON(&u.Validator),
		Stake: stake, RewardsOwner: owner}
	return err
}

func (j *unsignedJSON) RemoveSubnetValidatorTx(u *RemoveSubnetValidatorTx) error {
	j.out = &removeSubnetValidatorTxJSON{baseTxJSON: *j.base, NodeID: u.NodeID, SubnetID: u.SubnetID,
		SubnetAuth: authJSON(&u.SubnetAuth)}
	return nil
}

func (j *unsignedJSON) TransferSubnetOwnershipTx(u *TransferSubnetOwnershipTx) error {
	owner, err := j.f.owners(&u.Owner)
	j.out = &transferSubnetOwnershipTxJSON{baseTxJSON: *j.base, SubnetID: u.SubnetID,
		SubnetAuth: authJSON(&u.SubnetAuth), Owner: owner}
	return err
}

func (j *unsignedJSON) RewardValidatorTx(u *RewardValidatorTx) error {
	j.out = &rewardValidatorTxJSON{TxID: u.TxID}
	return nil
}

// stakeAndOwner returns the forms of a staking tx's stake outputs and rewards owner.
func (f jsonFormatter) stakeAndOwner(stake []TransferableOutput, owner *secp256k1fx.OutputOwners) ([]transferableOutputJSON, *ownersJSON, error) {
	outs, err := f.outputs(stake)
	if err != nil {
		return nil, nil, err
	}
	o, err := f.owners(owner)
	return outs, o, err
}

func (j *unsignedJSON) ConvertSubnetToL1Tx(u *ConvertSubnetToL1Tx) error {
	out := &convertSubnetToL1TxJSON{
		baseTxJSON: *j.base,
		SubnetID:   u.SubnetID,
		ChainID:    u.ChainID,
		Address:    hexString(u.Address),
		Validators: make([]convertSubnetToL1ValidatorJSON, len(u.Validators)),
		SubnetAuth: authJSON(&u.SubnetAuth),
	}
	for i := range u.Validators {
		v := &u.Validators[i]
		out.Validators[i] = convertSubnetToL1ValidatorJSON{
			NodeID:                hexString(v.NodeID),
			Weight:                v.Weight,
			Balance:               v.Balance,
			Signer:                popJSON(&v.Signer),
			RemainingBalanceOwner: pChainOwnerJSON{Threshold: v.RemainingBalanceOwner.Threshold, Addresses: nonNil(v.RemainingBalanceOwner.Addresses)},
			DeactivationOwner:     pChainOwnerJSON{Threshold: v.DeactivationOwner.Threshold, Addresses: nonNil(v.DeactivationOwner.Addresses)},
		}
	}
	j.out = out
	return nil
}

func (j *unsignedJSON) RegisterL1ValidatorTx(u *RegisterL1ValidatorTx) error {
	j.out = &registerL1ValidatorTxJSON{
		baseTxJSON:        *j.base,
		Balance:           u.Balance,
		ProofOfPossession: u.ProofOfPossession,
		Message:           hexString(u.Message),
	}
	return nil
}

func (j *unsignedJSON) SetL1ValidatorWeightTx(u *SetL1ValidatorWeightTx) error {
	j.out = &setL1ValidatorWeightTxJSON{baseTxJSON: *j.base, Message: hexString(u.Message)}
	return nil
}

func (j *unsignedJSON) IncreaseL1ValidatorBalanceTx(u *IncreaseL1ValidatorBalanceTx) error {
	j.out = &increaseL1ValidatorBalanceTxJSON{baseTxJSON: *j.base, ValidationID: u.ValidationID, Balance: u.Balance}
	return nil
}

func (j *unsignedJSON) DisableL1ValidatorTx(u *DisableL1ValidatorTx) error {
	j.out = &disableL1ValidatorTxJSON{baseTxJSON: *j.base, ValidationID: u.ValidationID, DisableAuth: authJSON(&u.DisableAuth)}
	return nil
}

func (f jsonFormatter) addPermissionlessValidator(u *AddPermissionlessValidatorTx, base *baseTxJSON) (any, error) {
	out := &addPermissionlessValidatorTxJSON{
		baseTxJSON:       *base,
		Validator:        newValidatorJSON(&u.Validator),
		SubnetID:         u.SubnetID,
		DelegationShares: u.DelegationShares,
	}
	switch s := u.Signer.(type) {
	case *ProofOfPossession:
		out.Signer = popJSON(s)
	case *EmptySigner:
		out.Signer = emptySignerJSON{}
	default:
		return nil, fmt.Errorf("%w: no JSON form for signer %T", ErrUnsupportedTx, u.Signer)
	}
	var err error
	if out.Stake, err = f.outputs(u.Stake); err != nil {
		return nil, err
	}
	if out.ValidatorRewardsOwner, err = f.owners(&u.ValidatorRewardsOwner); err != nil {
		return nil, err
	}
	if out.DelegatorRewardsOwner, err = f.owners(&u.DelegatorRewardsOwner); err != nil {
		return nil, err
	}
	return out, nil
}

func newValidatorJSON(v *Validator) validatorJSON {
	return validatorJSON{NodeID: v.NodeID, Start: v.Start, End: v.End, Weight: v.Weight}
}

func popJSON(p *ProofOfPossession) proofOfPossessionJSON {
	return proofOfPossessionJSON{PublicKey: hexString(p.PublicKey[:]), ProofOfPossession: hexString(p.Signature[:])}
}

func authJSON(in *secp256k1fx.Input) inputJSON {
	return inputJSON{SignatureIndices: nonNil(in.SigIndices)}
}

// hexString is "0x" + the lowercase hex of b; "0x" when b is empty.
func hexString(b []byte) string {
	return "0x" + hex.EncodeToString(b)
}

// nonNil returns s, or an empty slice for nil so that it prints [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (f jsonFormatter) forms() forms {
	return forms{Output: f.output, Input: input}
}

func (f jsonFormatter) base(tx *BaseTx) (*baseTxJSON, error) {
	return f.forms().BaseTx((*baseFields)(tx))
}

// outputs renders outs, the outputs of a BaseTx or the stake of a validator.
func (f jsonFormatter) outputs(outs []TransferableOutput) ([]transferableOutputJSON, error) {
	return f.forms().Outputs(outs)
}

// input renders an input: a TransferInput, or a stakeable lock around one.
func input(in Input) (any, error) {
	switch ti := in.(type) {
	case *secp256k1fx.TransferInput:
		return txjson.NewTransferInput(ti), nil
	case *LockIn:
		if ti.In == nil {
			return nil, fmt.Errorf("%w: no JSON form for a locked input without an input", ErrUnsupportedTx)
		}
		return &lockInJSON{Locktime: ti.Locktime, Input: txjson.NewTransferInput(ti.In)}, nil
	}
	return nil, fmt.Errorf("%w: no JSON form for input %T", ErrUnsupportedTx, in)
}

// output renders an output: a TransferOutput, or a stakeable lock around one.
func (f jsonFormatter) output(o Output) (any, error) {
	switch o := o.(type) {
	case *secp256k1fx.TransferOutput:
		return f.transferOutput(o)
	case *LockOut:
		if o.Out == nil {
			return nil, fmt.Errorf("%w: no JSON form for a locked output without an output", ErrUnsupportedTx)
		}
		to, err := f.transferOutput(o.Out)
		if err != nil {
			return nil, err
		}
		return &lockOutJSON{Locktime: o.Locktime, Output: to}, nil
	}
	return nil, fmt.Errorf("%w: no JSON form for output %T", ErrUnsupportedTx, o)
}

func (f jsonFormatter) transferOutput(o *secp256k1fx.TransferOutput) (*txjson.TransferOutput, error) {
	addrs, err := f.addresses(o.Addrs)
	if err != nil {
		return nil, err
	}
	return &txjson.TransferOutput{Addresses: addrs, Amount: o.Amount, Locktime: o.Locktime, Threshold: o.Threshold}, nil
}

func (f jsonFormatter) owners(o *secp256k1fx.OutputOwners) (*ownersJSON, error) {
	addrs, err := f.addresses(o.Addrs)
	if err != nil {
		return nil, err
	}
	return &ownersJSON{Addresses: addrs, Locktime: o.Locktime, Threshold: o.Threshold}, nil
}

func (f jsonFormatter) addresses(addrs []ids.ShortID) ([]string, error) {
	return txjson.Addresses(ChainAlias, f.hrp, addrs)
}
