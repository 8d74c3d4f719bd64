package wire

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Encoding follows proto3: a scalar at its zero value and an empty byte string are left out; a
// set sub-message is written even when empty (Pong is `62 00`, network-consensus-warp.md §0).

// Marshal returns m's encoding as a p2p.Message. A chain message (Body) is written as is.
func (m *Message) Marshal() []byte {
	var body []byte
	switch m.Op {
	case OpPing:
		body = appendUint(nil, 1, uint64(m.Ping.Uptime))
	case OpPong:
	case OpHandshake:
		body = m.Handshake.append(nil)
	case OpPeerList:
		for i := range m.PeerList.Claims {
			body = appendMsg(body, 1, m.PeerList.Claims[i].append(nil))
		}
	case OpGetPeerList:
		body = appendFilter(nil, 1, m.GetPeerList.KnownPeers)
		body = appendBool(body, 2, m.GetPeerList.AllSubnets)
	default:
		body = m.Body
	}
	return appendMsg(make([]byte, 0, len(body)+8), protowire.Number(m.Op), body)
}

func (h *Handshake) append(b []byte) []byte {
	b = appendUint(b, 1, uint64(h.NetworkID))
	b = appendUint(b, 2, h.MyTime)
	b = appendBytes(b, 3, h.IPAddr)
	b = appendUint(b, 4, uint64(h.IPPort))
	b = appendUint(b, 5, h.UpgradeTime)
	b = appendUint(b, 6, h.IPSigningTime)
	b = appendBytes(b, 7, h.IPNodeIDSig)
	for _, s := range h.TrackedSubnets {
		// A repeated bytes field writes every element, empty ones included.
		b = appendMsg(b, 8, s)
	}
	if h.Client != nil {
		var c []byte
		c = appendBytes(c, 1, []byte(h.Client.Name))
		c = appendUint(c, 2, uint64(h.Client.Major))
		c = appendUint(c, 3, uint64(h.Client.Minor))
		c = appendUint(c, 4, uint64(h.Client.Patch))
		b = appendMsg(b, 9, c)
	}
	b = appendPacked(b, 10, h.SupportedACPs)
	b = appendPacked(b, 11, h.ObjectedACPs)
	b = appendFilter(b, 12, h.KnownPeers)
	b = appendBytes(b, 13, h.IPBLSSig)
	return appendBool(b, 14, h.AllSubnets)
}

func (c *ClaimedIPPort) append(b []byte) []byte {
	b = appendBytes(b, 1, c.Certificate)
	b = appendBytes(b, 2, c.IPAddr)
	b = appendUint(b, 3, uint64(c.IPPort))
	b = appendUint(b, 4, c.Timestamp)
	b = appendBytes(b, 5, c.Signature)
	return appendBytes(b, 6, c.TxID)
}

func appendUint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendBool(b []byte, num protowire.Number, v bool) []byte {
	if !v {
		return b
	}
	return appendUint(b, num, 1)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	return appendMsg(b, num, v)
}

// appendMsg writes a length-delimited field even when v is empty.
func appendMsg(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendPacked(b []byte, num protowire.Number, vs []uint32) []byte {
	if len(vs) == 0 {
		return b
	}
	var packed []byte
	for _, v := range vs {
		packed = protowire.AppendVarint(packed, uint64(v))
	}
	return appendMsg(b, num, packed)
}

func appendFilter(b []byte, num protowire.Number, f *BloomFilter) []byte {
	if f == nil {
		return b
	}
	var body []byte
	body = appendBytes(body, 1, f.Filter)
	body = appendBytes(body, 2, f.Salt)
	return appendMsg(b, num, body)
}

// field is one decoded field: its number, wire type and value (v for varints, raw for
// length-delimited fields).
type field struct {
	num protowire.Number
	typ protowire.Type
	v   uint64
	raw []byte
}

// walk calls f for every field of b in order. Fixed-width and group fields are skipped, as a
// proto3 parser skips unknown fields; f rejects them where it expects another type.
func walk(b []byte, f func(field) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return parseError(protowire.ParseError(n))
		}
		b = b[n:]
		fd := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			fd.v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			fd.raw, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return parseError(protowire.ParseError(n))
		}
		b = b[n:]
		if err := f(fd); err != nil {
			return err
		}
	}
	return nil
}

// want checks that a known field has the wire type its declaration gives.
func (fd field) want(typ protowire.Type) error {
	if fd.typ != typ {
		return fmt.Errorf("%w: field %d has wire type %d, want %d", ErrParse, fd.num, fd.typ, typ)
	}
	return nil
}

// uint32s appends the values of a repeated uint32 field, packed or not.
func (fd field) uint32s(dst []uint32) ([]uint32, error) {
	switch fd.typ {
	case protowire.VarintType:
		return append(dst, uint32(fd.v)), nil
	case protowire.BytesType:
		b := fd.raw
		for len(b) > 0 {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return nil, parseError(protowire.ParseError(n))
			}
			dst = append(dst, uint32(v))
			b = b[n:]
		}
		return dst, nil
	default:
		return nil, fd.want(protowire.VarintType)
	}
}

// parseBody decodes the body of a network-level op into m. Byte fields alias b.
func (m *Message) parseBody(b []byte) error {
	switch m.Op {
	case OpPing:
		m.Ping = &Ping{}
		return walk(b, func(fd field) error {
			if fd.num != 1 {
				return nil
			}
			m.Ping.Uptime = uint32(fd.v)
			return fd.want(protowire.VarintType)
		})
	case OpPong:
		m.Pong = &Pong{}
		return walk(b, func(field) error { return nil })
	case OpHandshake:
		m.Handshake = &Handshake{}
		return m.Handshake.parse(b)
	case OpPeerList:
		m.PeerList = &PeerList{}
		return walk(b, func(fd field) error {
			if fd.num != 1 {
				return nil
			}
			if err := fd.want(protowire.BytesType); err != nil {
				return err
			}
			var c ClaimedIPPort
			if err := c.parse(fd.raw); err != nil {
				return err
			}
			m.PeerList.Claims = append(m.PeerList.Claims, c)
			return nil
		})
	case OpGetPeerList:
		m.GetPeerList = &GetPeerList{}
		return walk(b, func(fd field) error {
			switch fd.num {
			case 1:
				f, err := parseFilter(fd)
				m.GetPeerList.KnownPeers = f
				return err
			case 2:
				m.GetPeerList.AllSubnets = fd.v != 0
				return fd.want(protowire.VarintType)
			}
			return nil
		})
	default:
		m.Body = b
		return nil
	}
}

func (h *Handshake) parse(b []byte) error {
	return walk(b, func(fd field) error {
		var err error
		switch fd.num {
		case 1, 2, 4, 5, 6, 14:
			if err := fd.want(protowire.VarintType); err != nil {
				return err
			}
			switch fd.num {
			case 1:
				h.NetworkID = uint32(fd.v)
			case 2:
				h.MyTime = fd.v
			case 4:
				h.IPPort = uint32(fd.v)
			case 5:
				h.UpgradeTime = fd.v
			case 6:
				h.IPSigningTime = fd.v
			case 14:
				h.AllSubnets = fd.v != 0
			}
		case 3, 7, 8, 13:
			if err := fd.want(protowire.BytesType); err != nil {
				return err
			}
			switch fd.num {
			case 3:
				h.IPAddr = fd.raw
			case 7:
				h.IPNodeIDSig = fd.raw
			case 8:
				h.TrackedSubnets = append(h.TrackedSubnets, fd.raw)
			case 13:
				h.IPBLSSig = fd.raw
			}
		case 9:
			h.Client, err = parseClient(fd)
		case 10:
			h.SupportedACPs, err = fd.uint32s(h.SupportedACPs)
		case 11:
			h.ObjectedACPs, err = fd.uint32s(h.ObjectedACPs)
		case 12:
			h.KnownPeers, err = parseFilter(fd)
		}
		return err
	})
}

func parseClient(fd field) (*Client, error) {
	if err := fd.want(protowire.BytesType); err != nil {
		return nil, err
	}
	c := &Client{}
	return c, walk(fd.raw, func(fd field) error {
		switch fd.num {
		case 1:
			c.Name = string(fd.raw)
			return fd.want(protowire.BytesType)
		case 2, 3, 4:
			*[]*uint32{&c.Major, &c.Minor, &c.Patch}[fd.num-2] = uint32(fd.v)
			return fd.want(protowire.VarintType)
		}
		return nil
	})
}

func parseFilter(fd field) (*BloomFilter, error) {
	if err := fd.want(protowire.BytesType); err != nil {
		return nil, err
	}
	f := &BloomFilter{}
	return f, walk(fd.raw, func(fd field) error {
		switch fd.num {
		case 1:
			f.Filter = fd.raw
		case 2:
			f.Salt = fd.raw
		default:
			return nil
		}
		return fd.want(protowire.BytesType)
	})
}

func (c *ClaimedIPPort) parse(b []byte) error {
	return walk(b, func(fd field) error {
		switch fd.num {
		case 3, 4:
			if err := fd.want(protowire.VarintType); err != nil {
				return err
			}
			if fd.num == 3 {
				c.IPPort = uint32(fd.v)
			} else {
				c.Timestamp = fd.v
			}
		case 1, 2, 5, 6:
			if err := fd.want(protowire.BytesType); err != nil {
				return err
			}
			*[]*[]byte{&c.Certificate, &c.IPAddr, nil, nil, &c.Signature, &c.TxID}[fd.num-1] = fd.raw
		}
		return nil
	})
}
