// Package uptime tracks how long each validator of a chain has been up, as this node sees it, and
// persists it so a restart keeps the count (reference/l1-evm.md §2.4).
//
// A [Tracker] keeps, per validation ID, the up time accumulated so far and the time it was last
// brought up to date, in the storage view it is given, plus the node's view of which NodeIDs are
// connected. The uptime of a validator at time now is:
//
//   - before [Tracker.StartTracking], up + (now − lastUpdated): a validator is treated as online
//     since it was last updated, as in the reference; a validator restored from a previous run is
//     the exception and counts as offline until tracking starts, so time the node spent stopped
//     is never counted as up, unless [Options].StoppedIsUp (the reference's Primary Network
//     rule) makes it count as up too;
//   - once tracking has started, for a validator that is active and whose node is connected,
//     up + (now − max(connectedAt, lastUpdated));
//   - otherwise (disconnected, or an inactive L1 validator, which the reference deliberately
//     counts as offline) up, unchanged.
//
// When the clock is behind lastUpdated, nothing is added. [Tracker.Sync] brings the tracked set
// in line with the chain's current validators: a new validator starts with up = 0 and lastUpdated
// = its start time, a validator that left is forgotten.
//
// Persistence: Sync, [Tracker.Flush] and [Tracker.Close] write every validator's up time, settled
// at the current time, in one batch. After a crash the node resumes from the last write: the time
// since then counts as down. Each record is stored under its 32-byte validation ID in the view the
// caller passes, which must be the tracker's alone (one view per chain).
//
// A Tracker is safe for concurrent use. Slices passed in are not kept.
package uptime
