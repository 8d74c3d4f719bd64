package mempool

// Intake is how txs come into a VM's mempool: issued through its API (IssueTx), pushed by its
// peers (GossipTxs), and what the API took in pushed on to them (SetTxGossip, PushTx). A VM
// embeds one, so that these are its methods; T is its tx type. It is safe for concurrent use if
// its functions are.
type Intake[T any] struct {
	gossip Gossip
	parse  func([]byte) (T, error)
	add    func(T) error
	signal func()
}

// NewIntake returns the Intake of a VM that parses a tx's bytes with parse, verifies a tx and
// adds it to its mempool with add, and wakes its block builder with signal once add took one.
func NewIntake[T any](parse func([]byte) (T, error), add func(T) error, signal func()) Intake[T] {
	return Intake[T]{parse: parse, add: add, signal: signal}
}

// IssueTx verifies tx against the accepted state and the pending txs and adds it to the
// mempool; the VM's pipeline builds a block with it at once. It fails if tx is pending or
// accepted already, too large, invalid, or conflicts with a pending tx.
func (in *Intake[T]) IssueTx(tx T) error {
	if err := in.add(tx); err != nil {
		return err
	}
	in.signal()
	return nil
}

// ParseTx parses b as a signed tx.
func (in *Intake[T]) ParseTx(b []byte) (T, error) { return in.parse(b) }

// SetTxGossip makes push receive every tx PushTx is given from now on (package gossip).
func (in *Intake[T]) SetTxGossip(push func(tx []byte)) { in.gossip.Set(push) }

// PushTx hands the bytes of a tx the API took in to the node's gossip, if any.
func (in *Intake[T]) PushTx(b []byte) { in.gossip.Push(b) }

// GossipTxs issues the txs a peer pushed, as IssueTx would, and returns how many it added; none
// is pushed on.
func (in *Intake[T]) GossipTxs(b [][]byte) int { return AddGossiped(b, in.parse, in.IssueTx) }
