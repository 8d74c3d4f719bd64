// Package ids defines cornice's identifiers: the 32-byte ID, the 20-byte ShortID and NodeID, their
// CB58 text form, and the byte encodings (hex with and without checksum) used by the APIs.
//
// The package depends on nothing else in cornice. Every identifier is a comparable array value, safe
// to copy and to use as a map key; all functions are safe for concurrent use. Functions that take a
// byte slice never keep it, and returned slices belong to the caller.
//
// Formats follow reference/node-api.md: CB58 and the hex encodings in §6, NodeID in §4.1, and the
// JSON forms in §1.8.
package ids
