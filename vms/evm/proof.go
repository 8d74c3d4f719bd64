package evm

import (
	"context"
	"encoding/hex"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// maxProofKeys is how many storage keys one eth_getProof may ask for
// (go-ethereum's limit).
const maxProofKeys = 1024

// accountProof is eth_getProof's answer (EIP-1186), with go-ethereum's
// field names.
type accountProof struct {
	Address      common.Address `json:"address"`
	AccountProof []string       `json:"accountProof"`
	Balance      *hexutil.Big   `json:"balance"`
	CodeHash     common.Hash    `json:"codeHash"`
	Nonce        hexutil.Uint64 `json:"nonce"`
	StorageHash  common.Hash    `json:"storageHash"`
	StorageProof []storageProof `json:"storageProof"`
}

// storageProof is the proof of one storage slot.
type storageProof struct {
	Key   string       `json:"key"`
	Value *hexutil.Big `json:"value"`
	Proof []string     `json:"proof"`
}

// proofList collects the trie nodes of a proof as hex strings, in the
// order the trie gives them (root first).
type proofList []string

func (l *proofList) Put(_ []byte, value []byte) error {
	*l = append(*l, hexutil.Encode(value))
	return nil
}

func (l *proofList) Delete([]byte) error { return errNoSink }

// GetProof is eth_getProof: the Merkle proofs of addr's account in the
// state trie of the named block (latest by default), and of the given
// storage slots in its storage trie, from go-ethereum's tries over this
// chain's state. A key given as 32 bytes comes back as such, a shorter one
// as a quantity, as go-ethereum answers.
func (a *ethAPI) GetProof(ctx context.Context, addr common.Address, storageKeys []string, bnh *blockNumberOrHash) (*accountProof, error) {
	if len(storageKeys) > maxProofKeys {
		return nil, tooManyProofKeysError(maxProofKeys, len(storageKeys))
	}
	keys := make([]common.Hash, len(storageKeys))
	outKeys := make([]string, len(storageKeys))
	for i, s := range storageKeys {
		k, n, err := decodeStorageKey(s)
		if err != nil {
			return nil, storageKeyError(err, s)
		}
		keys[i] = k
		if n == common.HashLength {
			outKeys[i] = hexutil.Encode(k[:])
		} else {
			outKeys[i] = hexutil.EncodeBig(k.Big())
		}
	}
	st, blk, err := a.vm.stateOf(bnh.orLatest())
	if err != nil {
		return nil, err
	}
	storageRoot := st.GetStorageRoot(addr)
	var storageTrie state.Trie
	if storageRoot != types.EmptyRootHash && storageRoot != (common.Hash{}) && len(keys) > 0 {
		if storageTrie, err = a.vm.statedb.OpenStorageTrie(a.vm.rootOf(blk.Hash(), blk.Root()), addr, storageRoot, nil); err != nil {
			return nil, err
		}
	}
	proofs := make([]storageProof, len(keys))
	for i, k := range keys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if storageTrie == nil {
			proofs[i] = storageProof{Key: outKeys[i], Value: new(hexutil.Big), Proof: []string{}}
			continue
		}
		var proof proofList
		if err := storageTrie.Prove(crypto.Keccak256(k[:]), &proof); err != nil {
			return nil, err
		}
		v := st.GetState(addr, k)
		proofs[i] = storageProof{Key: outKeys[i], Value: (*hexutil.Big)(v.Big()), Proof: proof}
	}
	tr, err := a.vm.statedb.OpenTrie(a.vm.rootOf(blk.Hash(), blk.Root()))
	if err != nil {
		return nil, err
	}
	var proof proofList
	if err := tr.Prove(crypto.Keccak256(addr[:]), &proof); err != nil {
		return nil, err
	}
	return &accountProof{
		Address:      addr,
		AccountProof: proof,
		Balance:      (*hexutil.Big)(st.GetBalance(addr).ToBig()),
		CodeHash:     st.GetCodeHash(addr),
		Nonce:        hexutil.Uint64(st.GetNonce(addr)),
		StorageHash:  storageRoot,
		StorageProof: proofs,
	}, st.Error()
}

// decodeStorageKey decodes a storage key of at most 32 bytes, hex with or
// without 0x, and returns its length in bytes (go-ethereum's lenient rule).
func decodeStorageKey(s string) (common.Hash, int, error) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s = s[2:]
	}
	if len(s)%2 == 1 {
		s = "0" + s
	}
	if len(s) > 2*common.HashLength {
		return common.Hash{}, len(s) / 2, errStorageKeyTooLong
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return common.Hash{}, 0, err
	}
	return common.BytesToHash(b), len(b), nil
}
