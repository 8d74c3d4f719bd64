package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIterator(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	v := db.root.Prefixed([]byte("v"))
	for _, k := range []string{"a1", "a2", "a3", "b1", "b2", "c"} {
		require.NoError(t, v.Put([]byte(k), []byte("val-"+k)))
	}
	// Neighbours that a careless bound would include.
	require.NoError(t, db.Put([]byte("u"), []byte("before")))
	require.NoError(t, db.Put([]byte("w"), []byte("after")))

	tests := []struct {
		name          string
		prefix, start []byte
		want          []string
	}{
		{"all", nil, nil, []string{"a1", "a2", "a3", "b1", "b2", "c"}},
		{"prefix", []byte("a"), nil, []string{"a1", "a2", "a3"}},
		{"prefix and start", []byte("a"), []byte("2"), []string{"a2", "a3"}},
		{"start between keys", []byte("a"), []byte("15"), []string{"a2", "a3"}},
		{"start past the end", []byte("a"), []byte("9"), nil},
		{"start without prefix", nil, []byte("b2"), []string{"b2", "c"}},
		{"absent prefix", []byte("z"), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			it, err := v.NewIterator(tt.prefix, tt.start)
			require.NoError(t, err)
			defer func() { require.NoError(t, it.Close()) }()
			var got []string
			for it.Next() {
				got = append(got, string(it.Key()))
				require.Equal(t, "val-"+string(it.Key()), string(it.Value()))
			}
			require.NoError(t, it.Err())
			require.Equal(t, tt.want, got)
			require.False(t, it.Next(), "an exhausted iterator stays exhausted")
			require.Nil(t, it.Key())
		})
	}
}

func TestIteratorSnapshot(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	require.NoError(t, db.Put([]byte("k1"), []byte("1")))
	it, err := db.NewIterator([]byte("k"), nil)
	require.NoError(t, err)
	require.NoError(t, db.Put([]byte("k2"), []byte("2")))
	var n int
	for it.Next() {
		n++
	}
	require.NoError(t, it.Close())
	require.Equal(t, 1, n, "writes after NewIterator are not seen")
	require.False(t, it.Next())
	require.Nil(t, it.Value())
}

func TestIteratorAllOnes(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ff := db.root.Prefixed([]byte{0xff, 0xff})
	require.NoError(t, ff.Put([]byte{0xff}, []byte("x")))
	require.NoError(t, db.Put([]byte{0xfe}, []byte("no")))
	require.Equal(t, map[string]string{"\xff": "x"}, collect(t, ff, nil, nil))
}

func TestUpperBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		prefix []byte
		want   []byte
	}{
		{"empty", nil, nil},
		{"simple", []byte("ab"), []byte("ac")},
		{"carry", []byte{0x01, 0xff}, []byte{0x02}},
		{"all ones", []byte{0xff, 0xff}, nil},
		{"zero", []byte{0x00}, []byte{0x01}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := append([]byte(nil), tt.prefix...)
			require.Equal(t, tt.want, upperBound(in))
			require.Equal(t, tt.prefix, in, "upperBound must not change its input")
		})
	}
}
