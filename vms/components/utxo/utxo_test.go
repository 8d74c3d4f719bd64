package utxo

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/secp256k1fx"
)

// coin is a minimal UTXO type, as the chains' embed a UTXOID.
type coin struct {
	UTXOID
	amount uint64
}

var errMissing = errors.New("missing")

func ref(tx byte, i uint32) UTXOID { return UTXOID{TxID: ids.ID{tx}, OutputIndex: i} }

func TestCompare(t *testing.T) {
	t.Parallel()
	a, b, c := ref(1, 2), ref(1, 3), ref(2, 0)
	require.Equal(t, -1, Compare(&a, &b))
	require.Equal(t, 1, Compare(&b, &a))
	require.Equal(t, -1, Compare(&b, &c))
	require.Zero(t, Compare(&a, &a))
	require.Equal(t, a.TxID.Prefix(2), a.InputID())
}

// TestDiff checks that a UTXO created and spent within a block is neither written nor deleted,
// and that the rest keep the order the txs name them in.
func TestDiff(t *testing.T) {
	t.Parallel()
	old1, old2 := &coin{UTXOID: ref(1, 0)}, &coin{UTXOID: ref(1, 1)}
	first := &Effects[coin, *coin]{Tx: ids.ID{2}, Consumed: []*coin{old1},
		Produced: []coin{{UTXOID: ref(2, 0)}, {UTXOID: ref(2, 1)}}}
	second := &Effects[coin, *coin]{Tx: ids.ID{3}, Consumed: []*coin{&first.Produced[0], old2},
		Produced: []coin{{UTXOID: ref(3, 0)}}}
	deleted, written := Diff([]*Effects[coin, *coin]{first, second})
	require.Equal(t, []*coin{old1, old2}, deleted)
	require.Equal(t, []*coin{&first.Produced[1], &second.Produced[0]}, written)
}

// TestOverlay checks spends and creations on top of a base, a double spend, and Revert.
func TestOverlay(t *testing.T) {
	t.Parallel()
	base := map[ids.ID]*coin{}
	old := &coin{UTXOID: ref(1, 0), amount: 5}
	base[old.InputID()] = old
	get := func(r *UTXOID) (*coin, error) {
		if c, ok := base[r.InputID()]; ok {
			return c, nil
		}
		return nil, errMissing
	}
	o := NewOverlay[coin]()
	spend := &Effects[coin, *coin]{Tx: ids.ID{2}, Consumed: []*coin{old}, Produced: []coin{{UTXOID: ref(2, 0), amount: 4}}}
	o.Apply(spend)
	r := ref(1, 0)
	_, err := o.Get(&r, get)
	require.ErrorIs(t, err, ErrDoubleSpend)
	by, ok := o.SpentBy(old.InputID())
	require.True(t, ok)
	require.Equal(t, ids.ID{2}, by)
	created := ref(2, 0)
	c, err := o.Get(&created, get)
	require.NoError(t, err)
	require.Equal(t, uint64(4), c.amount)
	// The spending tx's block is committed before the mempool hears of it: the base's answer.
	delete(base, old.InputID())
	_, err = o.Get(&r, get)
	require.ErrorIs(t, err, errMissing)
	base[old.InputID()] = old
	o.Revert(spend)
	c, err = o.Get(&r, get)
	require.NoError(t, err)
	require.Equal(t, old, c)
	_, err = o.Get(&created, get)
	require.ErrorIs(t, err, errMissing)
	require.Equal(t, []ids.ID{old.InputID()}, collect(spend))
}

func collect(e *Effects[coin, *coin]) []ids.ID {
	var out []ids.ID
	for id := range e.Spent() {
		out = append(out, id)
	}
	return out
}

// signers is a Signed whose signatures recover to addrs.
type signers struct {
	creds []secp256k1fx.Credential
	addrs []ids.ShortID
}

func (s signers) Creds() []secp256k1fx.Credential { return s.creds }
func (s signers) Signer(_ *secp256k1fx.Signers, _, sig int, _ ids.ShortID) (ids.ShortID, error) {
	return s.addrs[sig], nil
}

func TestVerifySpend(t *testing.T) {
	t.Parallel()
	a, b := ids.ShortID{1}, ids.ShortID{2}
	owners := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{a, b}}
	out := &secp256k1fx.TransferOutput{Amount: 7, OutputOwners: owners}
	in := func(idx ...uint32) *secp256k1fx.TransferInput {
		return &secp256k1fx.TransferInput{Amount: 7, Input: secp256k1fx.Input{SigIndices: idx}}
	}
	one := signers{creds: []secp256k1fx.Credential{{Sigs: make([]secp256k1fx.Signature, 1)}}, addrs: []ids.ShortID{b}}
	asset := ids.ID{9}
	tests := []struct {
		name    string
		in      *secp256k1fx.TransferInput
		out     any
		asset   ids.ID
		tx      Signed
		now     uint64
		wantErr error
	}{
		{"ok", in(1), out, asset, one, 0, nil},
		{"asset", in(1), out, ids.ID{8}, one, 0, ErrAssetIDMismatch},
		{"type", in(1), &secp256k1fx.MintOutput{}, asset, one, 0, ErrWrongUTXOType},
		{"locked", in(1), &secp256k1fx.TransferOutput{Amount: 7, OutputOwners: secp256k1fx.OutputOwners{Locktime: 5, Threshold: 1, Addrs: owners.Addrs}}, asset, one, 4, ErrTimelocked},
		{"too few", in(), out, asset, one, 0, ErrTooFewSigners},
		{"too many", in(0, 1), out, asset, one, 0, ErrTooManySigners},
		{"sigs", in(1), out, asset, signers{creds: []secp256k1fx.Credential{{}}}, 0, ErrSignersMismatch},
		{"index", in(2), out, asset, one, 0, ErrIndexOutOfBounds},
		{"wrong signer", in(0), out, asset, one, 0, ErrWrongSig},
		{"amount", &secp256k1fx.TransferInput{Amount: 6, Input: secp256k1fx.Input{SigIndices: []uint32{1}}}, out, asset, one, 0, ErrMismatchedAmounts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, VerifySpend(nil, asset, tt.in, tt.asset, tt.out, tt.tx, 0, tt.now), tt.wantErr)
		})
	}
}

// TestImported checks that an imported UTXO is spent in the overlay and the mempool's view but
// is no change to the chain's own UTXO set.
func TestImported(t *testing.T) {
	t.Parallel()
	atomicUTXO := &coin{UTXOID: ref(7, 1), amount: 5}
	imp := &Effects[coin, *coin]{Tx: ids.ID{8}, Imported: []*coin{atomicUTXO}, Produced: []coin{{UTXOID: ref(8, 0), amount: 4}}}
	require.Equal(t, []ids.ID{atomicUTXO.InputID()}, collect(imp))

	o := NewOverlay[coin]()
	o.Apply(imp)
	by, ok := o.SpentBy(atomicUTXO.InputID())
	require.True(t, ok)
	require.Equal(t, ids.ID{8}, by)
	r := ref(7, 1)
	_, err := o.Get(&r, func(*UTXOID) (*coin, error) { return atomicUTXO, nil })
	require.ErrorIs(t, err, ErrDoubleSpend)
	o.Revert(imp)
	_, ok = o.SpentBy(atomicUTXO.InputID())
	require.False(t, ok)

	deleted, written := Diff([]*Effects[coin, *coin]{imp})
	require.Empty(t, deleted, "an imported UTXO was never in the chain's set")
	require.Equal(t, []*coin{&imp.Produced[0]}, written)
}
