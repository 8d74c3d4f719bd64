package platform

import "github.com/cornice-node/cornice/vms/platform/txs"

// A BaseTx moves funds (§4.2): it has nothing of its own to check, change or index.

func (*syntacticCheck) BaseTx(*txs.BaseTx) error { return nil }

func (*executor) BaseTx(*txs.BaseTx) error { return nil }

func (txIndexer) BaseTx(*txs.BaseTx) error { return nil }
