package codec_test

import (
	"fmt"

	"github.com/cornice-node/cornice/codec"
)

// point is a type with explicit Marshal and Unmarshal methods, as every codec type has.
type point struct {
	x, y uint32
	tag  string
}

func (pt *point) Marshal(p *codec.Packer) {
	p.Uint32(pt.x)
	p.Uint32(pt.y)
	p.Str(pt.tag)
}

func (pt *point) Unmarshal(u *codec.Unpacker) {
	pt.x = u.Uint32()
	pt.y = u.Uint32()
	pt.tag = u.Str()
}

func Example() {
	p := codec.NewPacker(nil)
	p.Version()
	(&point{x: 1, y: 2, tag: "a"}).Marshal(p)
	b, err := p.Bytes()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", b)

	var pt point
	u := codec.NewUnpacker(b, codec.MaxSize)
	u.Version()
	pt.Unmarshal(u)
	fmt.Println(pt.x, pt.y, pt.tag, u.Done())

	u = codec.NewUnpacker(b[:7], codec.MaxSize)
	u.Version()
	pt.Unmarshal(u)
	fmt.Println(u.Done())
	// Output:
	// 00000000000100000002000161
	// 1 2 a <nil>
	// codec: unexpected end of input: need 4 bytes at offset 6, have 1
}
