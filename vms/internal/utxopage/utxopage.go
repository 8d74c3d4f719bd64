// Package utxopage serves getUTXOs on the X- and P-Chains: it walks a chain's UTXO index, or with
// a sourceChain the atomic UTXOs another chain exported to it (chains/atomic)
// (reference/platform-exchange.md §5.1, §6.5): addresses in byte order, each address's UTXOs in ID
// order, from after a start index, each UTXO once, at most a page.
package utxopage

import (
	"context"

	"github.com/cornice-node/cornice/ids"
)

// Store is what a chain's state gives the walk. Its errors are returned unchanged, so a store
// maps them to the texts its API wants.
type Store interface {
	// UTXOIDs returns at most n IDs of the UTXOs addr owns, in ID order, after start.
	UTXOIDs(addr ids.ShortID, start ids.ID, n int) ([]ids.ID, error)
	// UTXO returns the UTXO's encoding in the page, or found false if it is not there: spent
	// since the index was read, for a store whose reads are not of one state (Serve's are,
	// Index.Pin).
	UTXO(id ids.ID) (encoded string, found bool, err error)
}

// Page is one page of UTXOs and where the next page starts.
type Page struct {
	UTXOs    []string
	LastAddr ids.ShortID
	LastUTXO ids.ID
}

// Walk reads a page of at most limit UTXOs owned by addrs (sorted and unique), starting after
// (startAddr, startUTXO): addresses before startAddr are skipped, and startAddr's UTXOs resume
// after startUTXO. It stops early when ctx is done.
func Walk(ctx context.Context, s Store, addrs []ids.ShortID, startAddr ids.ShortID, startUTXO ids.ID, limit int) (Page, error) {
	page := Page{UTXOs: make([]string, 0)}
	seen := make(map[ids.ID]struct{})
	for _, addr := range addrs {
		start := ids.Empty
		switch c := addr.Compare(startAddr); {
		case c < 0:
			continue
		case c == 0:
			start = startUTXO
		}
		page.LastAddr = addr
		utxoIDs, err := s.UTXOIDs(addr, start, limit-len(page.UTXOs))
		if err != nil {
			return Page{}, err
		}
		for _, id := range utxoIDs {
			if err := ctx.Err(); err != nil {
				return Page{}, err
			}
			page.LastUTXO = id
			if _, dup := seen[id]; dup {
				continue
			}
			seen[id] = struct{}{}
			encoded, found, err := s.UTXO(id)
			if err != nil {
				return Page{}, err
			}
			if !found {
				continue // not in the state the index was read from
			}
			page.UTXOs = append(page.UTXOs, encoded)
			if len(page.UTXOs) >= limit {
				return page, nil
			}
		}
	}
	return page, nil
}
