package platform

import (
	"errors"

	"github.com/cornice-node/cornice/vms/platform/txs"
)

// The pre-Durango staking kinds, AddValidatorTx and AddDelegatorTx, parse and show, but since
// Durango (active from genesis on every network cornice runs) the reference refuses them before
// it looks at anything else (§4.9); AddPermissionlessValidatorTx and
// AddPermissionlessDelegatorTx replace them.

var (
	// ErrAddValidatorTxPostDurango refuses an AddValidatorTx.
	ErrAddValidatorTxPostDurango = errors.New("AddValidatorTx is not permitted post-Durango")
	// ErrAddDelegatorTxPostDurango refuses an AddDelegatorTx.
	ErrAddDelegatorTxPostDurango = errors.New("AddDelegatorTx is not permitted post-Durango")
)

func (*syntacticCheck) AddValidatorTx(*txs.AddValidatorTx) error { return nil }

func (*syntacticCheck) AddDelegatorTx(*txs.AddDelegatorTx) error { return nil }

func (*executor) AddValidatorTx(*txs.AddValidatorTx) error { return ErrAddValidatorTxPostDurango }

func (*executor) AddDelegatorTx(*txs.AddDelegatorTx) error { return ErrAddDelegatorTxPostDurango }

// Never committed, so never indexed.
func (txIndexer) AddValidatorTx(*txs.AddValidatorTx) error { return nil }

func (txIndexer) AddDelegatorTx(*txs.AddDelegatorTx) error { return nil }
