package proposervm

import "time"

// EpochDuration is how long an ACP-181 epoch lasts on the local network (30 s; 5 min on
// Mainnet, platform-exchange.md §7.6).
const EpochDuration = 30 * time.Second

// NextEpoch returns the epoch of a child of a block with P-Chain height parentHeight, epoch
// parentEpoch and timestamp parentTime, as ACP-181 gives it (Granite active from genesis, as on
// the local network): a parent without an epoch opens epoch 1 at its own height and time; a
// parent at or after its epoch's end seals it, and the child opens the next one at the parent's
// height and time; otherwise the child stays in the parent's epoch.
func NextEpoch(parentHeight uint64, parentEpoch Epoch, parentTime time.Time, duration time.Duration) Epoch {
	if parentEpoch == (Epoch{}) {
		return Epoch{PChainHeight: parentHeight, Number: 1, StartTime: parentTime.Unix()}
	}
	if parentTime.Before(time.Unix(parentEpoch.StartTime, 0).Add(duration)) {
		return parentEpoch
	}
	return Epoch{PChainHeight: parentHeight, Number: parentEpoch.Number + 1, StartTime: parentTime.Unix()}
}
