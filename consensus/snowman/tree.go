package snowman

import "github.com/cornice-node/cornice/ids"

// tree is the snowball instance a block holds over its children: the reference's snowball tree
// (snow/consensus/snowball/tree.go; §2.5). It decides a child's ID one bit at a time, so a poll
// whose votes are spread over several children still counts for the bits they share. That is
// what breaks a many-way split: an n-ary instance with five children of a fifth of the votes
// each never sees αp for any of them, while the tree sees a majority at the first bit where the
// children divide into two groups.
//
// Unary nodes cover a range of bits all the children under them share; binary nodes decide one
// bit. Once a node finalizes, the tree drops it and the bits above it are decided: a child
// added later that disagrees with them is ignored (it is rejected when its sibling is
// accepted).
type tree struct {
	params *Parameters
	root   treeNode
	// shouldReset: the instance faltered, so the next poll first resets the confidence on its
	// path.
	shouldReset bool
}

// treeNode is a unary or a binary node.
type treeNode interface {
	preference() ids.ID
	// decidedPrefix is the number of leading bits decided above this node.
	decidedPrefix() int
	finalized() bool
	// add returns the node that replaces this one once choice is added under it.
	add(choice ids.ID) treeNode
	// recordPoll returns the node that replaces this one (its child once it finalizes) and
	// whether the poll reached αp here.
	recordPoll(votes bag, reset bool) (treeNode, bool)
}

func newTree(params *Parameters, first ids.ID) *tree {
	return &tree{params: params, root: &unaryNode{params: params, pref: first, commonPrefix: numBits}}
}

// Preference returns the preferred child.
func (t *tree) Preference() ids.ID { return t.root.preference() }

func (t *tree) finalized() bool { return t.root.finalized() }

// add learns a new child, unless the decided bits already rule it out.
func (t *tree) add(choice ids.ID) {
	if equalBits(0, t.root.decidedPrefix(), t.Preference(), choice) {
		t.root = t.root.add(choice)
	}
}

// recordPoll applies one poll's votes for the children and reports whether it reached αp.
// Votes that disagree with the decided bits are dropped.
func (t *tree) recordPoll(votes bag) bool {
	filtered := votes.filter(0, t.root.decidedPrefix(), t.Preference())
	var ok bool
	t.root, ok = t.root.recordPoll(filtered, t.shouldReset)
	t.shouldReset = false
	return ok
}

// recordUnsuccessfulPoll resets the confidence along the tree at its next poll.
func (t *tree) recordUnsuccessfulPoll() { t.shouldReset = true }

// unarySnowball is the snowball of one range of shared bits: there is nothing to choose, only
// confidence to count.
type unarySnowball struct {
	strength   int // polls of at least αp
	confidence int // consecutive polls of at least αc
	final      bool
}

func (s *unarySnowball) successful(beta int) {
	s.strength++
	s.confidence++
	s.final = s.final || s.confidence >= beta
}

func (s *unarySnowball) preferenceOnly() { s.strength++; s.confidence = 0 }
func (s *unarySnowball) unsuccessful()   { s.confidence = 0 }

// extend turns the snowball of a range into that of a bit whose current choice is b: the
// history so far counts for b.
func (s *unarySnowball) extend(b int) binarySnowball {
	bs := binarySnowball{pref: b, flake: b, confidence: s.confidence, final: s.final}
	bs.strength[b] = s.strength
	return bs
}

// binarySnowball is the snowball of one bit.
type binarySnowball struct {
	pref       int    // the bit with the most polls of at least αp, ties to the earlier
	strength   [2]int // polls of at least αp per bit
	flake      int    // the bit of the last poll of at least αp
	confidence int    // consecutive polls of at least αc for flake
	final      bool
}

func (s *binarySnowball) preference() int {
	if s.final {
		return s.flake
	}
	return s.pref
}

func (s *binarySnowball) record(b int, confident bool, beta int) {
	s.strength[b]++
	if s.strength[b] > s.strength[1-b] {
		s.pref = b
	}
	if s.final {
		return
	}
	switch {
	case !confident:
		s.confidence = 0
	case b == s.flake:
		s.confidence++
	default:
		s.confidence = 1
	}
	s.flake = b
	s.final = s.confidence >= beta
}

func (s *binarySnowball) unsuccessful() { s.confidence = 0 }

// unaryNode covers the bits [decided, commonPrefix) that every choice under it shares; child
// decides the bits from commonPrefix on, and is nil when commonPrefix is numBits.
type unaryNode struct {
	params       *Parameters
	pref         ids.ID
	decided      int
	commonPrefix int
	sb           unarySnowball
	shouldReset  bool
	child        treeNode
}

func (u *unaryNode) preference() ids.ID { return u.pref }
func (u *unaryNode) decidedPrefix() int { return u.decided }
func (u *unaryNode) finalized() bool    { return u.sb.final }

func (u *unaryNode) add(choice ids.ID) treeNode {
	if u.finalized() {
		return u // a decided range admits no new choice
	}
	index, found := firstDifference(u.decided, u.commonPrefix, u.pref, choice)
	if !found {
		if u.child != nil {
			u.child = u.child.add(choice)
		}
		return u
	}
	// Split at index: a binary node for that bit, over this node's choices on one side and a
	// new leaf for choice on the other.
	b := bit(u.pref, index)
	bn := &binaryNode{params: u.params, bit: index, sb: u.sb.extend(b), shouldReset: [2]bool{u.shouldReset, u.shouldReset}}
	bn.prefs[b] = u.pref
	bn.prefs[1-b] = choice
	leaf := &unaryNode{params: u.params, pref: choice, decided: index + 1, commonPrefix: numBits}

	switch {
	case u.decided == u.commonPrefix-1: // this node covered one bit: the binary node replaces it
		bn.children[b] = u.child
		if u.child != nil {
			bn.children[1-b] = leaf
		}
		return bn
	case index == u.decided: // split on the first bit: this node goes under the binary node
		u.decided++
		bn.children[b] = u
		bn.children[1-b] = leaf
		return bn
	case index == u.commonPrefix-1: // split on the last bit: the binary node goes under this one
		u.commonPrefix--
		bn.children[b] = u.child
		if u.child != nil {
			bn.children[1-b] = leaf
		}
		u.child = bn
		return u
	default: // split inside: a copy of this node above the binary node, this one below it
		above := &unaryNode{params: u.params, pref: u.pref, decided: u.decided, commonPrefix: index, sb: u.sb, child: bn}
		u.decided = index + 1
		bn.children[b] = u
		bn.children[1-b] = leaf
		return above
	}
}

func (u *unaryNode) recordPoll(votes bag, reset bool) (treeNode, bool) {
	if reset {
		u.sb.unsuccessful()
		u.shouldReset = true // and the child's below
	}
	switch n := votes.size(); {
	case n >= u.params.AlphaConfidence:
		u.sb.successful(u.params.Beta)
	case n >= u.params.AlphaPreference:
		u.sb.preferenceOnly()
	default:
		u.sb.unsuccessful()
		u.shouldReset = true
		return u, false
	}
	if u.child != nil {
		// The votes agree on this node's bits, so they all belong to the child.
		newChild, _ := u.child.recordPoll(votes, u.shouldReset)
		if u.finalized() {
			return newChild, true // these bits are decided: the child takes this node's place
		}
		u.child = newChild
		u.pref = newChild.preference()
	}
	u.shouldReset = false
	return u, true
}

// binaryNode decides one bit; children[b] decides the bits after it among the choices whose
// bit is b, and is nil at the last bit.
type binaryNode struct {
	params      *Parameters
	prefs       [2]ids.ID // the preferred choice on each side
	bit         int
	sb          binarySnowball
	shouldReset [2]bool
	children    [2]treeNode
}

func (n *binaryNode) preference() ids.ID { return n.prefs[n.sb.preference()] }
func (n *binaryNode) decidedPrefix() int { return n.bit }
func (n *binaryNode) finalized() bool    { return n.sb.final }

func (n *binaryNode) add(choice ids.ID) treeNode {
	b := bit(choice, n.bit)
	// A choice that disagrees with the bits its side's child has decided is already rejected.
	if child := n.children[b]; child != nil && equalBits(n.bit+1, child.decidedPrefix(), n.prefs[b], choice) {
		n.children[b] = child.add(choice)
	}
	return n
}

func (n *binaryNode) recordPoll(votes bag, reset bool) (treeNode, bool) {
	sides := votes.split(n.bit)
	b := 0
	if sides[1].size() >= n.params.AlphaPreference {
		b = 1
	}
	if reset {
		n.sb.unsuccessful()
		n.shouldReset[b] = true
	}
	n.shouldReset[1-b] = true // the other side did not get αp

	votes = sides[b]
	count := votes.size()
	if count < n.params.AlphaPreference {
		n.sb.unsuccessful()
		n.shouldReset[b] = true
		return n, false
	}
	n.sb.record(b, count >= n.params.AlphaConfidence, n.params.Beta)

	if child := n.children[b]; child != nil {
		filtered := votes.filter(n.bit+1, child.decidedPrefix(), n.prefs[b])
		newChild, _ := child.recordPoll(filtered, n.shouldReset[b])
		if n.finalized() {
			return newChild, true // the bit is decided: its side's child takes this node's place
		}
		n.children[b] = newChild
		n.prefs[b] = newChild.preference()
	}
	n.shouldReset[b] = false
	return n, true
}
