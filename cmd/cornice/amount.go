package main

import "strconv"

// amountFlag is an --amount of AVAX as parseAVAXAmount reads it: "1.5AVAX", "1500000000nAVAX" or a
// bare whole number of nAVAX. It implements pflag.Value.
type amountFlag struct{ nAVAX *uint64 }

// Set parses s into the amount in nAVAX.
func (f amountFlag) Set(s string) error {
	v, err := parseAVAXAmount("amount", s)
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
