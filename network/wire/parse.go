package wire

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"
)

// MaxMessageSize is the largest frame body, and the largest decompressed message, accepted: 2 MiB
// (network-consensus-warp.md §1.2).
const MaxMessageSize = 2 << 20

// Parse decodes a p2p.Message. A message wrapped in compressed_zstd is decompressed (up to
// MaxMessageSize) and decoded again; a compressed message inside a compressed one is refused.
// Unknown fields are skipped, as proto3 does; when the oneof is set more than once, the last one
// wins. The result's byte fields alias b or the decompressed buffer.
func Parse(b []byte) (*Message, error) {
	m, err := parse(b)
	if err != nil {
		return nil, err
	}
	if m.Op != OpCompressedZstd {
		return m, nil
	}
	inner, err := decompress(m.Body)
	if err != nil {
		return nil, err
	}
	m, err = parse(inner)
	if err != nil {
		return nil, err
	}
	if m.Op == OpCompressedZstd {
		return nil, fmt.Errorf("%w: compressed message inside a compressed message", ErrParse)
	}
	return m, nil
}

// parse decodes one level of p2p.Message.
func parse(b []byte) (*Message, error) {
	var op Op
	var body []byte
	err := walk(b, func(fd field) error {
		if !Op(fd.num).Known() {
			return nil
		}
		if err := fd.want(protowire.BytesType); err != nil {
			return err
		}
		op, body = Op(fd.num), fd.raw
		return nil
	})
	if err != nil {
		return nil, err
	}
	if op == 0 {
		return nil, fmt.Errorf("%w: no message", ErrParse)
	}
	m := &Message{Op: op}
	if op == OpCompressedZstd {
		m.Body = body
		return m, nil
	}
	if err := m.parseBody(body); err != nil {
		return nil, fmt.Errorf("parse %s: %w", op, err)
	}
	return m, nil
}

var (
	decoderOnce sync.Once
	decoder     *zstd.Decoder
	decoderErr  error
)

// decompress inflates a zstd frame of at most MaxMessageSize decompressed bytes.
func decompress(b []byte) ([]byte, error) {
	decoderOnce.Do(func() {
		decoder, decoderErr = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(MaxMessageSize),
			zstd.WithDecoderMaxWindow(MaxMessageSize))
	})
	if decoderErr != nil {
		return nil, fmt.Errorf("zstd decoder: %w", decoderErr)
	}
	out, err := decoder.DecodeAll(b, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: zstd: %w", ErrParse, err)
	}
	if len(out) > MaxMessageSize {
		return nil, fmt.Errorf("%w: decompressed message of %d bytes", ErrTooLarge, len(out))
	}
	return out, nil
}

// ReadFrame reads one frame: a 4-byte big-endian length, then that many bytes. A length above
// max fails with ErrTooLarge before the body is read.
func ReadFrame(r io.Reader, max uint32) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > max {
		return nil, fmt.Errorf("%w: frame of %d bytes", ErrTooLarge, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// WriteFrame writes msg to w framed by its 4-byte big-endian length. The length goes into w's
// own buffer: no frame is assembled and nothing is allocated per message.
func WriteFrame(w *bufio.Writer, msg []byte) error {
	if _, err := w.Write(binary.BigEndian.AppendUint32(w.AvailableBuffer(), uint32(len(msg)))); err != nil {
		return err
	}
	_, err := w.Write(msg)
	return err
}
