package main

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// nAVAXPerAVAX is the number of nAVAX in one AVAX: AVAX has 9 decimals (platform-exchange.md §6.4).
const nAVAXPerAVAX = 1_000_000_000

// amountFlag is an amount of AVAX given in nAVAX (a whole number, optionally followed by "nAVAX")
// or in AVAX (a decimal number with at most 9 decimals followed by "AVAX"): "1500000000",
// "1500000000nAVAX" and "1.5AVAX" are the same amount. It implements pflag.Value.
type amountFlag struct{ nAVAX *uint64 }

// Set parses s into the amount in nAVAX.
func (f amountFlag) Set(s string) error {
	v, err := parseAmount(s)
	if err != nil {
		return err
	}
	*f.nAVAX = v
	return nil
}

// String is the amount in nAVAX.
func (f amountFlag) String() string {
	if f.nAVAX == nil {
		return "0"
	}
	return strconv.FormatUint(*f.nAVAX, 10)
}

// Type names the value in the help text.
func (amountFlag) Type() string { return "amount" }

// parseAmount parses an amount of AVAX, in nAVAX or AVAX (amountFlag).
func parseAmount(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(t, "nAVAX"):
		t = strings.TrimSpace(strings.TrimSuffix(t, "nAVAX"))
	case strings.HasSuffix(t, "AVAX"):
		r, ok := new(big.Rat).SetString(strings.TrimSpace(strings.TrimSuffix(t, "AVAX")))
		if !ok || r.Sign() < 0 {
			return 0, fmt.Errorf("%w: %q", errAmount, s)
		}
		r.Mul(r, new(big.Rat).SetUint64(nAVAXPerAVAX))
		if !r.IsInt() || !r.Num().IsUint64() {
			return 0, fmt.Errorf("%w: %q has more than 9 decimals or is too large", errAmount, s)
		}
		return r.Num().Uint64(), nil
	}
	v, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", errAmount, s)
	}
	return v, nil
}

// formatAmount writes n nAVAX with its value in AVAX: "1000000 nAVAX (0.001 AVAX)".
func formatAmount(n uint64) string {
	whole, frac := n/nAVAXPerAVAX, n%nAVAXPerAVAX
	avax := strconv.FormatUint(whole, 10)
	if frac != 0 {
		avax += "." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	}
	return fmt.Sprintf("%d nAVAX (%s AVAX)", n, avax)
}
