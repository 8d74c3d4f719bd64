package txs

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// kindRecorder records the Visitor method a Visit called.
type kindRecorder struct{ called string }

func (r *kindRecorder) BaseTx(*BaseTx) error                 { r.called = "BaseTx"; return nil }
func (r *kindRecorder) CreateSubnetTx(*CreateSubnetTx) error { r.called = "CreateSubnetTx"; return nil }
func (r *kindRecorder) CreateChainTx(*CreateChainTx) error   { r.called = "CreateChainTx"; return nil }
func (r *kindRecorder) AddSubnetValidatorTx(*AddSubnetValidatorTx) error {
	r.called = "AddSubnetValidatorTx"
	return nil
}
func (r *kindRecorder) AddPermissionlessValidatorTx(*AddPermissionlessValidatorTx) error {
	r.called = "AddPermissionlessValidatorTx"
	return nil
}
func (r *kindRecorder) ConvertSubnetToL1Tx(*ConvertSubnetToL1Tx) error {
	r.called = "ConvertSubnetToL1Tx"
	return nil
}
func (r *kindRecorder) RegisterL1ValidatorTx(*RegisterL1ValidatorTx) error {
	r.called = "RegisterL1ValidatorTx"
	return nil
}
func (r *kindRecorder) SetL1ValidatorWeightTx(*SetL1ValidatorWeightTx) error {
	r.called = "SetL1ValidatorWeightTx"
	return nil
}
func (r *kindRecorder) IncreaseL1ValidatorBalanceTx(*IncreaseL1ValidatorBalanceTx) error {
	r.called = "IncreaseL1ValidatorBalanceTx"
	return nil
}
func (r *kindRecorder) DisableL1ValidatorTx(*DisableL1ValidatorTx) error {
	r.called = "DisableL1ValidatorTx"
	return nil
}
func (r *kindRecorder) ImportTx(*ImportTx) error { r.called = "ImportTx"; return nil }
func (r *kindRecorder) ExportTx(*ExportTx) error { r.called = "ExportTx"; return nil }

func (r *kindRecorder) AddPermissionlessDelegatorTx(*AddPermissionlessDelegatorTx) error {
	r.called = "AddPermissionlessDelegatorTx"
	return nil
}
func (r *kindRecorder) AddValidatorTx(*AddValidatorTx) error { r.called = "AddValidatorTx"; return nil }
func (r *kindRecorder) AddDelegatorTx(*AddDelegatorTx) error { r.called = "AddDelegatorTx"; return nil }
func (r *kindRecorder) RemoveSubnetValidatorTx(*RemoveSubnetValidatorTx) error {
	r.called = "RemoveSubnetValidatorTx"
	return nil
}
func (r *kindRecorder) TransferSubnetOwnershipTx(*TransferSubnetOwnershipTx) error {
	r.called = "TransferSubnetOwnershipTx"
	return nil
}
func (r *kindRecorder) RewardValidatorTx(*RewardValidatorTx) error {
	r.called = "RewardValidatorTx"
	return nil
}

// TestVisitDispatch checks that every registered kind's Visit calls the Visitor method of its own
// kind: a kind embedding BaseTx that forgot its Visit would inherit BaseTx's.
func TestVisitDispatch(t *testing.T) {
	t.Parallel()
	require.Len(t, kindByTypeID, reflect.TypeFor[Visitor]().NumMethod())
	for id, typ := range kindByTypeID {
		u := reflect.New(typ.Elem()).Interface().(UnsignedTx)
		got, ok := unsignedTxs.ID(u)
		require.True(t, ok)
		require.Equal(t, id, got)
		var r kindRecorder
		require.NoError(t, u.Visit(&r))
		require.Equal(t, typ.Elem().Name(), r.called)
	}
}
