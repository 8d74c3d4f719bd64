package snowman

import "github.com/cornice-node/cornice/ids"

// numBits is the number of bits of an ID, the depth of a snowball tree.
const numBits = 8 * ids.IDLen

// bit returns bit i of id, counting from the least significant bit of its first byte, as the
// reference's ids.ID.Bit does (the snowball tree decides IDs in this order).
func bit(id ids.ID, i int) int {
	return int(id[i/8]>>(i%8)) & 1
}

// firstDifference returns the first bit in [start, stop) where a and b differ.
func firstDifference(start, stop int, a, b ids.ID) (int, bool) {
	for i := start; i < stop; {
		if i%8 == 0 && i+8 <= stop && a[i/8] == b[i/8] {
			i += 8 // a whole equal byte
			continue
		}
		if bit(a, i) != bit(b, i) {
			return i, true
		}
		i++
	}
	return 0, false
}

// equalBits reports whether a and b agree on every bit in [start, stop).
func equalBits(start, stop int, a, b ids.ID) bool {
	_, differ := firstDifference(start, stop, a, b)
	return !differ
}

// bag counts votes per ID.
type bag map[ids.ID]int

func (b bag) size() int {
	n := 0
	for _, c := range b {
		n += c
	}
	return n
}

// split divides the votes by the value of bit i of their IDs.
func (b bag) split(i int) [2]bag {
	out := [2]bag{{}, {}}
	for id, n := range b {
		out[bit(id, i)][id] += n
	}
	return out
}

// filter keeps the votes whose IDs agree with pref on the bits [start, stop).
func (b bag) filter(start, stop int, pref ids.ID) bag {
	out := bag{}
	for id, n := range b {
		if equalBits(start, stop, id, pref) {
			out[id] += n
		}
	}
	return out
}
