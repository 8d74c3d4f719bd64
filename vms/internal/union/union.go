// Package union reads and writes the linear codec's interface fields as the X- and P-Chains encode
// them (reference/platform-exchange.md §1.3): a type ID, then the body of the type it names. Each
// VM declares, per field, the closed set of types the field may hold with their type IDs, as a
// table: the type-ID numbering is the chain's and the bytes must not change.
//
// A Union is built once, at package initialisation, and is immutable and safe for concurrent use
// afterwards. Values read are new; Write keeps nothing of what it is given.
package union

import (
	"fmt"
	"reflect"

	"github.com/cornice-node/cornice/codec"
)

// Kind is one type of a Union whose field type is T: its type ID and how to read its body.
type Kind[T codec.Marshaler] struct {
	id   uint32
	typ  reflect.Type
	read func(u *codec.Unpacker) T
}

// Of returns the kind *E of a field of type T, under type ID id. It panics if *E does not
// implement T (a programmer error, found at initialisation).
func Of[T codec.Marshaler, P interface {
	*E
	codec.Marshaler
	Unmarshal(u *codec.Unpacker)
}, E any](id uint32) Kind[T] {
	if _, ok := any(P(nil)).(T); !ok {
		panic(fmt.Sprintf("union: %v does not implement %v", reflect.TypeFor[P](), reflect.TypeFor[T]()))
	}
	return Kind[T]{
		id:  id,
		typ: reflect.TypeFor[P](),
		read: func(u *codec.Unpacker) T {
			v := P(new(E))
			v.Unmarshal(u)
			return any(v).(T)
		},
	}
}

// Union is the closed set of types an interface field of type T may hold, by type ID.
type Union[T codec.Marshaler] struct {
	// field names the field in errors.
	field  string
	byID   map[uint32]Kind[T]
	byType map[reflect.Type]uint32
}

// New returns the union of kinds for the field named field (as errors name it). It panics if two
// kinds share a type ID or a type (a programmer error, found at initialisation).
func New[T codec.Marshaler](field string, kinds ...Kind[T]) *Union[T] {
	un := &Union[T]{
		field:  field,
		byID:   make(map[uint32]Kind[T], len(kinds)),
		byType: make(map[reflect.Type]uint32, len(kinds)),
	}
	for _, k := range kinds {
		if _, dup := un.byID[k.id]; dup {
			panic(fmt.Sprintf("union: %s: type ID %d registered twice", field, k.id))
		}
		if _, dup := un.byType[k.typ]; dup {
			panic(fmt.Sprintf("union: %s: %v registered twice", field, k.typ))
		}
		un.byID[k.id] = k
		un.byType[k.typ] = k.id
	}
	return un
}

// ID returns the type ID of v's type, if it is one of the union's.
func (un *Union[T]) ID(v T) (uint32, bool) {
	id, ok := un.byType[reflect.TypeOf(v)]
	return id, ok
}

// Write writes v's type ID and body. A nil v (or a nil pointer of one of the union's types) fails
// the Packer with codec.ErrNilValue, a value of another type with codec.ErrUnregisteredType.
func (un *Union[T]) Write(p *codec.Packer, v T) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() == reflect.Pointer && rv.IsNil() {
		p.Fail(codec.UnregisteredTypeError(un.field, nil))
		return
	}
	id, ok := un.byType[rv.Type()]
	if !ok {
		p.Fail(codec.UnregisteredTypeError(un.field, v))
		return
	}
	p.TypeID(id)
	v.Marshal(p)
}

// Read reads a type ID and the body of the type it names. An ID not in the union fails the
// Unpacker with codec.ErrUnknownTypeID; on any failure Read returns the zero T.
func (un *Union[T]) Read(u *codec.Unpacker) T {
	var zero T
	id := u.TypeID()
	if u.Err() != nil {
		return zero
	}
	k, ok := un.byID[id]
	if !ok {
		u.Fail(codec.UnknownTypeIDError(un.field, id))
		return zero
	}
	return k.read(u)
}

// Expect reads a type ID and fails the Unpacker with codec.ErrUnknownTypeID unless it is want: for
// fields whose interface only one registered type implements (an owner, an authorization, a
// credential), whose body the caller then reads.
func Expect(u *codec.Unpacker, field string, want uint32) {
	if id := u.TypeID(); u.Err() == nil && id != want {
		u.Fail(codec.UnknownTypeIDError(field, id))
	}
}

// WriteList writes vs as the codec writes a slice: its length, then each element.
func WriteList[E any, P interface {
	*E
	Marshal(p *codec.Packer)
}](p *codec.Packer, vs []E) {
	p.Count(len(vs))
	for i := range vs {
		P(&vs[i]).Marshal(p)
	}
}

// ReadList reads a slice written by WriteList, whose elements take at least minSize bytes
// each; it returns nil once u has failed.
func ReadList[E any, P interface {
	*E
	Unmarshal(u *codec.Unpacker)
}](u *codec.Unpacker, minSize int) []E {
	n := u.Count(minSize)
	if u.Err() != nil {
		return nil
	}
	vs := make([]E, n)
	for i := range vs {
		P(&vs[i]).Unmarshal(u)
	}
	return vs
}

// WriteOne writes v, of the only type a field may hold, as type ID id and its body: for fields
// such as a transferable output that can only be a TransferOutput. A nil v fails the Packer with
// codec.ErrNilValue, as Write does.
func WriteOne[E any, P interface {
	*E
	codec.Marshaler
}](p *codec.Packer, field string, id uint32, v P) {
	if v == nil {
		p.Fail(codec.UnregisteredTypeError(field, nil))
		return
	}
	p.TypeID(id)
	v.Marshal(p)
}

// ReadOne reads what WriteOne writes: a type ID that must be id (Expect), then the body of an E.
func ReadOne[E any, P interface {
	*E
	Unmarshal(u *codec.Unpacker)
}](u *codec.Unpacker, field string, id uint32) P {
	Expect(u, field, id)
	v := P(new(E))
	v.Unmarshal(u)
	return v
}
