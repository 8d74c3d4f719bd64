package node

import (
	"fmt"

	"github.com/cornice-node/cornice/config"

	"github.com/cornice-node/cornice/ids"
)

// chainStartError is the health check error of a chain recorded on the P-Chain that this node
// should run but could not create (issue #6 §1). cornice's own text: the reference node reports
// such a chain only in its logs.
func chainStartError(chainID ids.ID, err error) error {
	return fmt.Errorf("chain %s failed to start: %w", chainID, err)
}

// networkMismatchError refuses a data directory made for another network. cornice's own text.
func networkMismatchError(dataDir string, was, now uint32) error {
	return fmt.Errorf("data directory %s was made for network %s (%d), not %s (%d): give another --data-dir, or --network-id %s",
		dataDir, config.NetworkName(was), was, config.NetworkName(now), now, config.NetworkName(was))
}
