package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/vms/internal/signed"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// Genesis is the P-Chain's genesis state (§4.6), encoded with the genesis codec: the same type
// IDs as txs, a size limit of codec.MaxGenesisSize.
type Genesis struct {
	// UTXOs are the initial allocations, each with its message.
	UTXOs []GenesisUTXO
	// Validators are the initial stakers' txs, in the reference's heap order (§4.6).
	Validators []*Tx
	// Chains are the CreateChainTxs of the X and C chains; their IDs are the chain IDs.
	Chains []*Tx
	// Timestamp is the genesis time in unix seconds.
	Timestamp     uint64
	InitialSupply uint64
	Message       string
}

// GenesisUTXO is an initial allocation: a UTXO and a message (the allocation's ETH address on the
// local network).
type GenesisUTXO struct {
	UTXO
	Message []byte
}

// minGenesisUTXOSize is the encoded size of a GenesisUTXO with the smallest output and no message.
const minGenesisUTXOSize = ids.IDLen + 4 + ids.IDLen + 4 + 28 + 4

// Marshal writes the UTXO, then the message.
func (g *GenesisUTXO) Marshal(p *codec.Packer) {
	g.UTXO.Marshal(p)
	p.VarBytes(g.Message)
}

// Unmarshal reads the fields written by Marshal.
func (g *GenesisUTXO) Unmarshal(u *codec.Unpacker) {
	g.UTXO.Unmarshal(u)
	g.Message = u.VarBytes()
}

// Bytes encodes the genesis: codec version, then the fields. Txs are written without their version
// prefixes. It fails if a UTXO's output cannot be encoded or a tx is nil.
func (g *Genesis) Bytes() ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 4096))
	p.Version()
	union.WriteList(p, g.UTXOs)
	signed.WriteAll(txCodec, p, g.Validators)
	signed.WriteAll(txCodec, p, g.Chains)
	p.Uint64(g.Timestamp)
	p.Uint64(g.InitialSupply)
	p.Str(g.Message)
	return p.Bytes()
}

// ParseGenesis decodes genesis bytes, at most codec.MaxGenesisSize long. It copies b.
func ParseGenesis(b []byte) (*Genesis, error) {
	u := codec.NewUnpackerCopy(b, codec.MaxGenesisSize)
	u.Version()
	g := &Genesis{}
	g.UTXOs = union.ReadList[GenesisUTXO](u, minGenesisUTXOSize)
	g.Validators = signed.ReadAll[Tx](txCodec, u)
	g.Chains = signed.ReadAll[Tx](txCodec, u)
	g.Timestamp = u.Uint64()
	g.InitialSupply = u.Uint64()
	g.Message = u.Str()
	if err := u.Done(); err != nil {
		return nil, err
	}
	return g, nil
}
