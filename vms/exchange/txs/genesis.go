package txs

import (
	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/vms/internal/union"
)

// Genesis is the X-Chain's genesis state (§6.4): the assets that exist from the start, encoded
// with the genesis codec (the same type IDs as txs, a size limit of codec.MaxGenesisSize). It is
// the genesisData of the X-Chain's CreateChainTx.
type Genesis struct {
	Txs []GenesisAsset
}

// GenesisAsset is an asset of the genesis: an alias ("AVAX") and the fields of the CreateAssetTx
// that creates it, written inline without a type ID and without credentials.
type GenesisAsset struct {
	Alias         string
	CreateAssetTx CreateAssetTx
}

// minGenesisAssetSize is the encoded size of a GenesisAsset with empty fields.
const minGenesisAssetSize = 2 + 4 + 32 + 4 + 4 + 4 + 2 + 2 + 1 + 4

// Marshal writes the alias, then the CreateAssetTx fields.
func (a *GenesisAsset) Marshal(p *codec.Packer) {
	p.Str(a.Alias)
	a.CreateAssetTx.Marshal(p)
}

// Unmarshal reads the fields written by Marshal.
func (a *GenesisAsset) Unmarshal(u *codec.Unpacker) {
	a.Alias = u.Str()
	a.CreateAssetTx.Unmarshal(u)
}

// Tx returns the asset's CreateAssetTx as a Tx without credentials. Its ID is the asset ID, and on
// the X-Chain it is stored as accepted with its UTXOs (§2.3, §6.4). The Tx shares the asset's
// CreateAssetTx, which must not be modified afterwards.
func (a *GenesisAsset) Tx() (*Tx, error) {
	return NewTx(&a.CreateAssetTx, nil)
}

// Bytes encodes the genesis: codec version, then the assets.
func (g *Genesis) Bytes() ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 256))
	p.Version()
	union.WriteList(p, g.Txs)
	return p.Bytes()
}

// ParseGenesis decodes genesis bytes, at most codec.MaxGenesisSize long. It copies b.
func ParseGenesis(b []byte) (*Genesis, error) {
	u := codec.NewUnpackerCopy(b, codec.MaxGenesisSize)
	u.Version()
	g := &Genesis{}
	g.Txs = union.ReadList[GenesisAsset](u, minGenesisAssetSize)
	if err := u.Done(); err != nil {
		return nil, err
	}
	return g, nil
}
