package exchange

import "github.com/cornice-node/cornice/vms/exchange/txs"

// A BaseTx moves funds (§6.2): it has no fields of its own and pays the tx fee.

func (c *syntacticCheck) BaseTx(*txs.BaseTx) error {
	c.fee = c.r.txFee
	return nil
}

func (*atomicOps) BaseTx(*txs.BaseTx) error { return nil }
