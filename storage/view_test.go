package storage

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	tests := []struct {
		name       string
		prefix     []byte
		key, value []byte
	}{
		{"root", nil, []byte("key"), []byte("value")},
		{"empty value", nil, []byte("empty"), []byte{}},
		{"nil value", nil, []byte("nil"), nil},
		{"empty key in view", []byte("v1"), nil, []byte("x")},
		{"binary", []byte{0x00, 0xff}, []byte{0xff, 0x00, 0xff}, bytes.Repeat([]byte{0xab}, 1<<16)},
		{"nested", []byte("v2/"), []byte("k"), []byte("nested")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := db.root.Prefixed(tt.prefix)
			ok, err := v.Has(tt.key)
			require.NoError(t, err)
			require.False(t, ok)
			_, err = v.Get(tt.key)
			require.ErrorIs(t, err, ErrNotFound)

			require.NoError(t, v.Put(tt.key, tt.value))
			ok, err = v.Has(tt.key)
			require.NoError(t, err)
			require.True(t, ok)
			got, err := v.Get(tt.key)
			require.NoError(t, err)
			require.NotNil(t, got, "a present value is never nil")
			require.Equal(t, len(tt.value), len(got))
			require.True(t, bytes.Equal(tt.value, got))

			// The raw key is the view's prefix followed by the key.
			raw, err := db.Get(append(bytes.Clone(tt.prefix), tt.key...))
			require.NoError(t, err)
			require.True(t, bytes.Equal(tt.value, raw))

			require.NoError(t, v.Delete(tt.key))
			_, err = v.Get(tt.key)
			require.ErrorIs(t, err, ErrNotFound)
			require.NoError(t, v.Delete(tt.key), "deleting an absent key")
		})
	}
}

func TestSliceOwnership(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	key, val := []byte("key"), []byte("value")
	require.NoError(t, db.Put(key, val))
	// The caller may reuse what it passed in.
	key[0], val[0] = 'X', 'X'
	got, err := db.Get([]byte("key"))
	require.NoError(t, err)
	require.Equal(t, []byte("value"), got)
	// And owns what it got back.
	got[0] = 'Y'
	again, err := db.Get([]byte("key"))
	require.NoError(t, err)
	require.Equal(t, []byte("value"), again)

	prefix := []byte("p")
	v := db.root.Prefixed(prefix)
	prefix[0] = 'q'
	require.NoError(t, v.Put([]byte("k"), []byte("1")))
	ok, err := db.Has([]byte("pk"))
	require.NoError(t, err)
	require.True(t, ok, "Prefixed must copy its prefix")
	vp := v.Prefix()
	vp[0] = 'z'
	require.Equal(t, []byte("p"), v.Prefix())
}

func TestViewsIsolated(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	a := db.Prefixed(PrefixChains)
	i := db.Prefixed(PrefixIndex)
	require.NoError(t, a.Put([]byte("k"), []byte("aliases")))
	require.NoError(t, i.Put([]byte("k"), []byte("index")))

	got, err := a.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, []byte("aliases"), got)
	got, err = i.Get([]byte("k"))
	require.NoError(t, err)
	require.Equal(t, []byte("index"), got)

	require.NoError(t, a.Delete([]byte("k")))
	ok, err := i.Has([]byte("k"))
	require.NoError(t, err)
	require.True(t, ok, "a delete in one view must not reach another")

	// Iteration stays inside the view.
	require.Equal(t, map[string]string{"k": "index"}, collect(t, i, nil, nil))
	require.Empty(t, collect(t, a, nil, nil))

	// Nested views: chain A's keys are not chain B's.
	evm := db.Prefixed(PrefixEVM)
	chainA := evm.Prefixed(bytes.Repeat([]byte{1}, 32))
	chainB := evm.Prefixed(bytes.Repeat([]byte{2}, 32))
	require.NoError(t, chainA.Put([]byte("head"), []byte("A")))
	_, err = chainB.Get([]byte("head"))
	require.ErrorIs(t, err, ErrNotFound)
	require.Equal(t, append(PrefixEVM.Bytes(), bytes.Repeat([]byte{1}, 32)...), chainA.Prefix())
	require.Equal(t, map[string]string{string(bytes.Repeat([]byte{1}, 32)) + "head": "A"}, collect(t, evm, nil, nil))
}

// collect returns every key/value of v under prefix from start.
func collect(t *testing.T, v *View, prefix, start []byte) map[string]string {
	t.Helper()
	it, err := v.NewIterator(prefix, start)
	require.NoError(t, err)
	out := map[string]string{}
	for it.Next() {
		out[string(it.Key())] = string(it.Value())
	}
	require.NoError(t, it.Err())
	require.NoError(t, it.Close())
	require.NoError(t, it.Close(), "Close is idempotent")
	return out
}

// FuzzView checks that any key written through any view lands at
// prefix+key, reads back and is seen by an iterator of that view only.
func FuzzView(f *testing.F) {
	f.Add([]byte("a"), []byte("k"), []byte("v"))
	f.Add([]byte{}, []byte{}, []byte{})
	f.Add([]byte{0xff}, []byte{0xff, 0xff}, []byte{0})
	f.Add([]byte{0x00}, []byte{0x00}, []byte("x"))
	db := openTest(f)
	n := 0
	f.Fuzz(func(t *testing.T, prefix, key, value []byte) {
		// A unique outer prefix per run keeps runs apart.
		n++
		outer := db.root.Prefixed([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
		v := outer.Prefixed(prefix)
		require.NoError(t, v.Put(key, value))
		got, err := v.Get(key)
		require.NoError(t, err)
		require.True(t, bytes.Equal(value, got))
		raw, err := outer.Get(append(bytes.Clone(prefix), key...))
		require.NoError(t, err)
		require.True(t, bytes.Equal(value, raw))
		require.Equal(t, map[string]string{string(key): string(value)}, collect(t, v, nil, nil))
		require.NoError(t, v.Delete(key))
	})
}

func TestEmptyKeyAtRoot(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	_, err := db.Get(nil)
	require.ErrorIs(t, err, ErrNotFound)
	ok, err := db.Has([]byte{})
	require.NoError(t, err)
	require.False(t, ok)
	require.ErrorIs(t, db.Put([]byte{}, []byte("root")), ErrEmptyKey)
	require.ErrorIs(t, db.Delete(nil), ErrEmptyKey)
	b := db.NewBatch()
	defer b.Close()
	require.ErrorIs(t, b.Put(nil, []byte("root")), ErrEmptyKey)
	require.ErrorIs(t, b.Delete(nil), ErrEmptyKey)
	// Inside a view, the empty key is the view's prefix, and fine.
	require.NoError(t, db.root.Prefixed([]byte("v")).Put(nil, []byte("ok")))
}

// A pinned view's reads, its nested views' and its iterators' all see the state published when
// it was pinned, whatever is committed after; a view pinned later, and the unpinned view, see
// the commit.
func TestPin(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.root.Prefixed([]byte("pin/"))
	require.NoError(t, v.Put([]byte("index/a"), []byte("1")))
	require.NoError(t, v.Put([]byte("record/a"), []byte("A")))

	pinned, release := v.Pin()
	defer release()
	// One commit removes the index entry and its record together.
	b := v.NewBatch()
	require.NoError(t, b.Delete([]byte("index/a")))
	require.NoError(t, b.Delete([]byte("record/a")))
	require.NoError(t, b.Commit())

	it, err := pinned.NewIterator([]byte("index/"), nil)
	require.NoError(t, err)
	require.True(t, it.Next(), "the pinned iterator sees the index entry")
	require.Equal(t, []byte("index/a"), it.Key())
	require.NoError(t, it.Close())
	got, err := pinned.Prefixed([]byte("record/")).Get([]byte("a"))
	require.NoError(t, err, "and the record it names, through a nested view")
	require.Equal(t, []byte("A"), got)
	ok, err := pinned.Has([]byte("record/a"))
	require.NoError(t, err)
	require.True(t, ok)

	_, err = v.Get([]byte("record/a"))
	require.ErrorIs(t, err, ErrNotFound, "the unpinned view sees the commit")
	later, releaseLater := v.Pin()
	_, err = later.Get([]byte("record/a"))
	require.ErrorIs(t, err, ErrNotFound, "so does a view pinned after it")
	releaseLater()
	releaseLater() // a second release does nothing
}

// BenchmarkPinnedReads measures what a pin costs an answer of one and of two reads: the reads
// alone, each taking a reference on the published state, against a pin (one reference for all)
// followed by the reads, at concurrency 1 and GOMAXPROCS × 8 (the reference count is one atomic
// word that every reader shares).
func BenchmarkPinnedReads(b *testing.B) {
	db := openTest(b)
	v := db.Prefixed(PrefixIndex)
	keys := [][]byte{[]byte("index"), []byte("record")}
	for _, k := range keys {
		require.NoError(b, v.Put(k, bytes.Repeat([]byte{0xab}, 256)))
	}
	read := func(v *View, n int) {
		for _, k := range keys[:n] {
			if _, err := v.Get(k); err != nil {
				b.Error(err)
			}
		}
	}
	for _, n := range []int{1, 2} {
		for _, pin := range []bool{false, true} {
			answer := func() { read(v, n) }
			name := strconv.Itoa(n) + "-reads"
			if pin {
				name += "-pinned"
				answer = func() {
					p, release := v.Pin()
					read(p, n)
					release()
				}
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					answer()
				}
			})
			b.Run(name+"-parallel", func(b *testing.B) {
				b.ReportAllocs()
				b.SetParallelism(8)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						answer()
					}
				})
			})
		}
	}
}
