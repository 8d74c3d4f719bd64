package warp

import (
	"github.com/cornice-node/cornice/crypto/bls"
	"github.com/cornice-node/cornice/ids"
)

// Signer signs the messages of one chain with the node's BLS key.
type Signer struct {
	sk        *bls.SecretKey
	networkID uint32
	chainID   ids.ID
}

// NewSigner returns the signer of chain chainID on network networkID with key sk.
func NewSigner(sk *bls.SecretKey, networkID uint32, chainID ids.ID) *Signer {
	return &Signer{sk: sk, networkID: networkID, chainID: chainID}
}

// PublicKey returns the key signatures verify against.
func (s *Signer) PublicKey() *bls.PublicKey { return s.sk.PublicKey() }

// Sign returns the BLS signature of msg's bytes, refusing a message of another chain or
// network, as the reference's signer does (network-consensus-warp.md §4.2).
func (s *Signer) Sign(msg *UnsignedMessage) (*bls.Signature, error) {
	if msg.SourceChainID != s.chainID {
		return nil, ErrWrongSourceChainID
	}
	if msg.NetworkID != s.networkID {
		return nil, ErrWrongNetworkID
	}
	return s.sk.Sign(msg.Bytes()), nil
}
