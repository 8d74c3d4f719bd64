package proposervm

import (
	"crypto"
	"crypto/sha256"
	"fmt"
	"time"

	"github.com/cornice-node/cornice/codec"
	"github.com/cornice-node/cornice/crypto/staking"
	"github.com/cornice-node/cornice/ids"
)

// Type IDs of the proposervm block codec (reference/network-consensus-warp.md §2.8).
const (
	typeSigned        uint32 = 0 // pre-Granite block, signed or unsigned
	typeOption        uint32 = 1 // option of a proposal block
	typeSignedGranite uint32 = 2 // Granite block: the pre-Granite fields and an epoch
)

// MaxBlockSize is the largest proposervm block Parse reads: the P2P message limit, which no
// block a peer sends can exceed.
const MaxBlockSize = 2 * 1024 * 1024

// Epoch is a block's ACP-181 epoch: the P-Chain height its validator-set checks use, for a
// period. The zero Epoch is a pre-Granite block's (none).
type Epoch struct {
	PChainHeight uint64
	Number       uint64
	// StartTime is in Unix seconds.
	StartTime int64
}

// Header is what a proposervm block adds to the block it wraps: the fields of §2.8.
type Header struct {
	// Parent is the ID of the outer parent block: a proposervm block, or, for the first
	// wrapped block, the last block accepted before wrapping (a bare inner block).
	Parent ids.ID
	// Timestamp is the block's time, in whole seconds on the wire.
	Timestamp time.Time
	// PChainHeight is the P-Chain height the block was built at.
	PChainHeight uint64
	// Epoch is the block's ACP-181 epoch; Granite blocks (type 2) carry it.
	Epoch Epoch
	// Granite selects the Granite format (type 2), which carries Epoch.
	Granite bool
}

// Block is a parsed or built proposervm block (an option is not: Parse rejects it, see
// ErrOption). It is immutable.
type Block struct {
	Header
	// Inner is the wrapped block's own bytes.
	Inner []byte
	// Certificate is the proposer's staking certificate (DER); empty for an unsigned block.
	Certificate []byte
	// Signature is the proposer's signature of the header hash; empty for an unsigned block.
	Signature []byte

	id       ids.ID
	bytes    []byte
	proposer ids.NodeID
}

// ID returns the block's ID: SHA-256 of its bytes without the signature.
func (b *Block) ID() ids.ID { return b.id }

// Bytes returns the block's encoding. The caller must not modify it.
func (b *Block) Bytes() []byte { return b.bytes }

// Proposer returns the NodeID of the certificate's holder; ids.EmptyNodeID for an unsigned block.
func (b *Block) Proposer() ids.NodeID { return b.proposer }

// Signed reports whether the block carries a proposer's certificate and signature.
func (b *Block) Signed() bool { return len(b.Certificate) > 0 }

// WarpHeight returns the P-Chain height at which the block's validator-set checks (warp
// verification) are made: the epoch's height for a Granite block (ACP-181), the block's own
// otherwise (network-consensus-warp.md §4.4).
func (b *Block) WarpHeight() uint64 {
	if b.Granite {
		return b.Epoch.PChainHeight
	}
	return b.PChainHeight
}

// Build encodes and signs a block: signed by key with cert (its DER) when key is not nil,
// unsigned otherwise. chainID is the chain's ID, which the signed header binds.
func Build(h Header, inner []byte, chainID ids.ID, cert []byte, key crypto.Signer) (*Block, error) {
	b := &Block{Header: h, Inner: inner}
	b.Timestamp = time.Unix(h.Timestamp.Unix(), 0)
	if key != nil {
		b.Certificate = cert
	}
	unsigned, err := b.unsignedBytes()
	if err != nil {
		return nil, err
	}
	b.id = sha256.Sum256(unsigned)
	if key != nil {
		if _, err = staking.ParseCertificate(cert); err != nil {
			return nil, fmt.Errorf("build proposervm block: %w", err)
		}
		b.proposer = staking.NodeIDFromCert(cert)
		if b.Signature, err = staking.Sign(key, headerBytes(chainID, b.Parent, b.id)); err != nil {
			return nil, fmt.Errorf("build proposervm block: %w", err)
		}
	}
	p := codec.NewPacker(unsigned)
	p.VarBytes(b.Signature)
	if b.bytes, err = p.Bytes(); err != nil {
		return nil, fmt.Errorf("build proposervm block: %w", err)
	}
	return b, nil
}

// unsignedBytes encodes everything but the signature.
func (b *Block) unsignedBytes() ([]byte, error) {
	p := codec.NewPacker(make([]byte, 0, 128+len(b.Certificate)+len(b.Inner)+len(b.Signature)))
	p.Version()
	if b.Granite {
		p.TypeID(typeSignedGranite)
	} else {
		p.TypeID(typeSigned)
	}
	p.ID(b.Parent)
	p.Uint64(uint64(b.Timestamp.Unix()))
	p.Uint64(b.PChainHeight)
	p.VarBytes(b.Certificate)
	p.VarBytes(b.Inner)
	if b.Granite {
		p.Uint64(b.Epoch.PChainHeight)
		p.Uint64(b.Epoch.Number)
		p.Uint64(uint64(b.Epoch.StartTime))
	}
	out, err := p.Bytes()
	if err != nil {
		return nil, fmt.Errorf("encode proposervm block: %w", err)
	}
	return out, nil
}

// headerBytes is what a proposer signs (the SHA-256 of): codec version, chain ID, parent ID and
// block ID (§2.8).
func headerBytes(chainID, parent, blkID ids.ID) []byte {
	out := make([]byte, 0, 2+3*32)
	out = append(out, 0, 0)
	out = append(out, chainID[:]...)
	out = append(out, parent[:]...)
	return append(out, blkID[:]...)
}

// Parse decodes a proposervm block of chain chainID and checks its proposer's signature. It fails
// with ErrNotProposerBlock for bytes that are not a proposervm block (a bare inner block), and
// ErrOption for an option, which cornice never builds. The block keeps b (not a copy).
func Parse(b []byte, chainID ids.ID) (*Block, error) { return parse(b, chainID, true) }

// parse is Parse; it checks the signature only if check is set (not for the blocks this node
// stored once it had checked them).
func parse(b []byte, chainID ids.ID, check bool) (*Block, error) {
	u := codec.NewUnpacker(b, MaxBlockSize)
	u.Version()
	typeID := u.TypeID()
	if u.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotProposerBlock, u.Err())
	}
	blk := &Block{}
	switch typeID {
	case typeSigned:
	case typeSignedGranite:
		blk.Granite = true
	case typeOption:
		return nil, ErrOption
	default:
		return nil, fmt.Errorf("%w: type ID %d", ErrNotProposerBlock, typeID)
	}
	blk.Parent = u.ID()
	blk.Timestamp = time.Unix(int64(u.Uint64()), 0)
	blk.PChainHeight = u.Uint64()
	blk.Certificate = u.VarBytes()
	blk.Inner = u.VarBytes()
	if blk.Granite {
		blk.Epoch = Epoch{PChainHeight: u.Uint64(), Number: u.Uint64(), StartTime: int64(u.Uint64())}
	}
	unsignedLen := u.Offset()
	blk.Signature = u.VarBytes()
	if err := u.Done(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotProposerBlock, err)
	}
	blk.bytes = b
	blk.id = sha256.Sum256(b[:unsignedLen])
	switch {
	case len(blk.Certificate) == 0 && len(blk.Signature) == 0:
		return blk, nil
	case len(blk.Certificate) == 0:
		return nil, ErrUnexpectedSignature
	}
	blk.proposer = staking.NodeIDFromCert(blk.Certificate)
	if !check {
		return blk, nil
	}
	cert, err := staking.ParseCertificate(blk.Certificate)
	if err != nil {
		return nil, fmt.Errorf("proposervm block %s: %w", blk.id, err)
	}
	if err := staking.CheckSignature(cert, headerBytes(chainID, blk.Parent, blk.id), blk.Signature); err != nil {
		return nil, fmt.Errorf("proposervm block %s: %w", blk.id, err)
	}
	return blk, nil
}
