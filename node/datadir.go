package node

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cornice-node/cornice/storage"
)

// networkIDKey is the key, under storage.PrefixNode, of the network the data directory was
// made for.
var networkIDKey = []byte("networkID")

// checkNetwork refuses a database made for another network than the configured one: its chains,
// keys and P-Chain state belong to that network, and mixing them would serve one network's state
// under the other's ID. A database without the record (new, or made before it existed) is
// stamped with the configured network.
func (n *Node) checkNetwork() error {
	meta := n.db.Prefixed(storage.PrefixNode)
	b, err := meta.Get(networkIDKey)
	if errors.Is(err, storage.ErrNotFound) {
		if err := meta.Put(networkIDKey, binary.BigEndian.AppendUint32(nil, n.cfg.NetworkID)); err != nil {
			return fmt.Errorf("record the data directory's network: %w", err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the data directory's network: %w", err)
	}
	if len(b) != 4 {
		return fmt.Errorf("read the data directory's network: %d bytes, want 4", len(b))
	}
	if was := binary.BigEndian.Uint32(b); was != n.cfg.NetworkID {
		return networkMismatchError(n.cfg.DataDir, was, n.cfg.NetworkID)
	}
	return nil
}
