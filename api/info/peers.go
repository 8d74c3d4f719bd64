package info

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/cornice-node/cornice/ids"
	"github.com/cornice-node/cornice/jsonrpc"
)

// Peers describes connected peers (node-api.md §3.11). Without nodeIDs it lists every connected
// peer in the order of the peer set. With them it lists the requested peers in request order: IDs
// that are not connected are skipped and duplicates are repeated, as in the reference.
func (s *Service) Peers(_ context.Context, args *PeersArgs) (*PeersReply, error) {
	connected := s.deps.Peers.Connected()
	selected := connected
	if len(args.NodeIDs) > 0 {
		byID := make(map[ids.NodeID]int, len(connected))
		for i, p := range connected {
			if _, ok := byID[p.NodeID]; !ok {
				byID[p.NodeID] = i
			}
		}
		selected = make([]Peer, 0, len(args.NodeIDs))
		for _, nodeID := range args.NodeIDs {
			if i, ok := byID[nodeID]; ok {
				selected = append(selected, connected[i])
			}
		}
	}

	reply := &PeersReply{
		NumPeers: jsonrpc.Uint64(len(selected)),
		Peers:    make([]PeerInfo, 0, len(selected)),
	}
	for i := range selected {
		info, err := s.peerInfo(&selected[i])
		if err != nil {
			return nil, err
		}
		reply.Peers = append(reply.Peers, info)
	}
	return reply, nil
}

// peerInfo turns a peer into its wire form.
func (s *Service) peerInfo(p *Peer) (PeerInfo, error) {
	benched := make([]string, 0, len(p.Benched))
	for _, chainID := range p.Benched {
		alias, err := s.deps.Aliases.PrimaryAlias(chainID)
		if err != nil {
			return PeerInfo{}, primaryAliasError(chainID, err)
		}
		benched = append(benched, alias)
	}
	return PeerInfo{
		IP:             formatAddrPort(p.IP),
		PublicIP:       formatAddrPort(p.PublicIP),
		NodeID:         p.NodeID,
		Version:        p.Version,
		UpgradeTime:    p.UpgradeTime,
		LastSent:       wholeSecondUTC(p.LastSent),
		LastReceived:   wholeSecondUTC(p.LastReceived),
		ObservedUptime: jsonrpc.Uint32(p.ObservedUptime),
		TrackedSubnets: sortedIDs(p.TrackedSubnets),
		SupportedACPs:  sortedACPs(p.SupportedACPs),
		ObjectedACPs:   sortedACPs(p.ObjectedACPs),
		Benched:        benched,
	}, nil
}

// wholeSecondUTC drops t's fraction of a second and puts it in UTC. The reference keeps these
// times as unix seconds, so its zero is the epoch; a zero t is mapped to the epoch too.
func wholeSecondUTC(t time.Time) time.Time {
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return time.Unix(t.Unix(), 0).UTC()
}

// sortedIDs returns the set of ids sorted by CB58 text, as the reference's set type sorts its JSON
// elements (node-api.md §1.8). The result is never nil.
func sortedIDs(in []ids.ID) []ids.ID {
	out := make([]ids.ID, 0, len(in))
	seen := make(map[ids.ID]bool, len(in))
	for _, id := range in {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	slices.SortFunc(out, func(a, b ids.ID) int { return cmp.Compare(a.String(), b.String()) })
	return out
}

// sortedNodeIDs sorts a set of NodeIDs in place by their text, as the reference's set type sorts its
// JSON elements (node-api.md §1.8).
func sortedNodeIDs(in []ids.NodeID) []ids.NodeID {
	slices.SortFunc(in, func(a, b ids.NodeID) int { return cmp.Compare(a.String(), b.String()) })
	return in
}

// sortedACPs returns the set of ACP numbers sorted as decimal text, [103,23,24], as the reference's
// set type sorts its JSON elements (node-api.md §1.8). The result is never nil.
func sortedACPs(in []uint32) []uint32 {
	out := make([]uint32, 0, len(in))
	seen := make(map[uint32]bool, len(in))
	for _, n := range in {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b uint32) int {
		return cmp.Compare(strconv.FormatUint(uint64(a), 10), strconv.FormatUint(uint64(b), 10))
	})
	return out
}
