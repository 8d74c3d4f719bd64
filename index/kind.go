package index

// Kind is what an index holds. Its values are the reference node's index-kind bytes (node-api.md
// §5.3) and are part of the on-disk key layout: never renumber them. The zero value is not a kind.
type Kind uint8

// The index kinds.
const (
	// Tx indexes transactions: the X-Chain's /ext/index/X/tx.
	Tx Kind = 0x01
	// Vtx is the X-Chain's vertex index, /ext/index/X/vtx. cornice has no vertices, so it exists,
	// answers, and stays empty (reference/README.md, "Precedence" 1).
	Vtx Kind = 0x02
	// Block indexes a chain's blocks: /ext/index/<chain>/block.
	Block Kind = 0x03
)

// String returns the kind's path element: "block", "tx" or "vtx"; "invalid" for any other value.
func (k Kind) String() string {
	switch k {
	case Tx:
		return "tx"
	case Vtx:
		return "vtx"
	case Block:
		return "block"
	default:
		return "invalid"
	}
}
