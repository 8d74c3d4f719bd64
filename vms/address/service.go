package address

import "github.com/cornice-node/cornice/ids"

// Chain is one chain's addresses as its API reads them: its primary alias ("X", "P"), the other
// aliases that name it, and its network's HRP.
type Chain struct {
	// Alias is the chain's primary alias, which the errors name.
	Alias string
	// IsChain reports whether an address's alias names the chain: its alias, its VM's name or its
	// ID.
	IsChain func(alias string) bool
	// HRP is the network's human-readable part (HRP).
	HRP string
}

// ParseService parses one of c's addresses as the chain's API takes them (§2.4), answering with
// the client's texts: `couldn't parse address "<s>": …`.
//
// A bare CB58 short ID is accepted first, as the reference's avax.ParseServiceAddress does: the
// reference's own Go clients send addresses in that form (platformvm.Client.GetBalance and
// GetUTXOs, avm.Client.GetBalance, GetAllBalances and GetUTXOs: ids.ShortID.String()).
func (c *Chain) ParseService(s string) (ids.ShortID, error) {
	if addr, err := ids.ShortFromString(s); err == nil {
		return addr, nil
	}
	alias, hrp, addr, err := Parse(s)
	if err != nil {
		return ids.ShortID{}, parseAddressError(s, err)
	}
	if !c.IsChain(alias) {
		return ids.ShortID{}, parseAddressError(s, wrongChainAliasError(c.Alias, alias))
	}
	if hrp != c.HRP {
		return ids.ShortID{}, parseAddressError(s, wrongHRPError(c.HRP, hrp))
	}
	return addr, nil
}
