// Package codec is the linear binary codec used by P and X blocks and transactions.
//
// The wire rules are those of the reference node's linear codec (reference/platform-exchange.md §1.1):
// a uint16 codec version (always 0) in front of every top-level object, big-endian fixed-width
// integers, one byte per bool (0 or 1), a uint32 count in front of slices and byte slices, a uint16
// length in front of strings, nothing in front of fixed arrays, and a uint32 type ID in front of every
// interface value.
//
// The codec uses no reflection. A type writes its fields, in wire order, with a [Packer] and reads them
// back with an [Unpacker]. Each VM keeps its own table of type IDs (a closed switch on the ID) and uses
// [Unpacker.TypeID] and [Packer.TypeID] for interface-typed fields.
//
// Both Packer and Unpacker record the first error and turn every later call into a no-op, so a
// type's Marshal and Unmarshal need no error checks between fields; the caller checks [Packer.Err]
// or [Unpacker.Done] once at the end.
//
// Ownership: a Packer appends to the buffer it was given and owns it until [Packer.Bytes] hands it
// back. An Unpacker never copies: byte slices it returns are sub-slices of its input, so the caller
// must not modify the input while anything parsed from it is in use. Neither type is safe for
// concurrent use.
package codec
