package txs

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// kindRecorder records the Visitor method a Visit called.
type kindRecorder struct{ called string }

func (r *kindRecorder) BaseTx(*BaseTx) error               { r.called = "BaseTx"; return nil }
func (r *kindRecorder) CreateAssetTx(*CreateAssetTx) error { r.called = "CreateAssetTx"; return nil }
func (r *kindRecorder) OperationTx(*OperationTx) error     { r.called = "OperationTx"; return nil }
func (r *kindRecorder) ImportTx(*ImportTx) error           { r.called = "ImportTx"; return nil }
func (r *kindRecorder) ExportTx(*ExportTx) error           { r.called = "ExportTx"; return nil }

// TestVisitDispatch checks that every registered kind's Visit calls the Visitor method of its own
// kind: a kind embedding BaseTx that forgot its Visit would inherit BaseTx's.
func TestVisitDispatch(t *testing.T) {
	t.Parallel()
	kinds := []UnsignedTx{&BaseTx{}, &CreateAssetTx{}, &OperationTx{}, &ImportTx{}, &ExportTx{}}
	require.Len(t, kinds, reflect.TypeFor[Visitor]().NumMethod())
	for _, u := range kinds {
		_, ok := unsignedTxs.ID(u)
		require.True(t, ok)
		var r kindRecorder
		require.NoError(t, u.Visit(&r))
		require.Equal(t, reflect.TypeOf(u).Elem().Name(), r.called)
	}
}
