package address

// hrps are the human-readable parts of the named networks (reference/platform-exchange.md §2.4).
var hrps = map[uint32]string{
	1:     "avax",
	2:     "cascade",
	3:     "denali",
	4:     "everest",
	5:     "fuji",
	10:    "testing",
	12345: "local",
}

// fallbackHRP is the human-readable part of every network without one of its own.
const fallbackHRP = "custom"

// HRP returns the human-readable part of network networkID's addresses: "local" for 12345,
// "avax" for mainnet, …, and "custom" for any network without a name (§2.4).
func HRP(networkID uint32) string {
	if hrp, ok := hrps[networkID]; ok {
		return hrp
	}
	return fallbackHRP
}
