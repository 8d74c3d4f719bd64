package snowman

import "github.com/cornice-node/cornice/ids"

// snowball is the n-ary snowball instance a block holds over its children
// (snow/consensus/snowball nnary_snowball.go and nnary_snowflake.go; §2.5 step 3). It is made
// with the block's first child and learns the others as they come; votes name children only.
type snowball struct {
	// preference is the child with the most polls of at least αp ("strength"), ties going
	// to the child that got there first; it is the instance's preference until it finalizes.
	preference  ids.ID
	strength    map[ids.ID]int
	maxStrength int

	// flake is the snowflake preference: the child of the last poll with at least αp votes.
	flake ids.ID
	// confidence counts the consecutive polls with at least αc votes for flake.
	confidence int
	// finalized is set when confidence reaches β; nothing changes the preference after.
	finalized bool
}

func newSnowball(first ids.ID) *snowball {
	return &snowball{preference: first, flake: first, strength: make(map[ids.ID]int)}
}

// Preference returns the preferred child: the snowflake choice once finalized (the two differ
// only in a rare race the reference also settles this way), else the strongest child.
func (s *snowball) Preference() ids.ID {
	if s.finalized {
		return s.flake
	}
	return s.preference
}

// recordPoll applies one poll's votes for the children: the child with the most votes (ties to
// the smaller ID, so every node reads a poll alike) moves the preference if it has at least
// αp, and counts toward β if it has at least αc too. It reports whether the poll reached αp.
func (s *snowball) recordPoll(votes map[ids.ID]int, alphaPreference, alphaConfidence, beta int) bool {
	var choice ids.ID
	most := 0
	for id, n := range votes {
		if n > most || (n == most && id.Compare(choice) < 0) {
			choice, most = id, n
		}
	}
	if most < alphaPreference {
		s.recordUnsuccessfulPoll()
		return false
	}

	s.strength[choice]++
	if st := s.strength[choice]; st > s.maxStrength {
		s.preference, s.maxStrength = choice, st
	}
	if s.finalized {
		return true
	}
	switch {
	case most < alphaConfidence:
		// A preference without confidence: the count starts again (RecordPollPreference).
		s.confidence = 0
	case choice == s.flake:
		s.confidence++
	default:
		// This poll is the first success of the new choice.
		s.confidence = 1
	}
	s.flake = choice
	s.finalized = s.confidence >= beta
	return true
}

// recordUnsuccessfulPoll resets the confidence: a poll below αp, or a falter (§2.5 step 4).
func (s *snowball) recordUnsuccessfulPoll() { s.confidence = 0 }
