package ids_test

import (
	"fmt"

	"github.com/cornice-node/cornice/ids"
)

func ExampleFromName() {
	fmt.Println(ids.FromName("platformvm"))
	// Output: rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT
}

func ExampleNodeIDFromString() {
	id, err := ids.NodeIDFromString("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", id[:])
	// Output: 479f66c8be895830547e70b4b298cafd433dba6e
}

func ExampleEncoding_Encode() {
	for _, enc := range []ids.Encoding{ids.Hex, ids.HexNC} {
		s, err := enc.Encode([]byte{})
		if err != nil {
			panic(err)
		}
		fmt.Println(enc, s)
	}
	// Output:
	// hex 0x7852b855
	// hexnc 0x
}
