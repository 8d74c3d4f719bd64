package txs

import (
	"testing"
)

// BenchmarkTx parses and encodes the P BaseTx vector (379 bytes, one input, two outputs).
func BenchmarkTx(b *testing.B) {
	v := loadVectors(b)
	raw := unhex(b, str(b, v.Vectors.Named(b, "p_base_tx_transfer_avax"), "signedBytesHex"))
	tx, err := ParseTx(raw)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := ParseTx(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := NewTx(tx.Unsigned(), tx.Creds()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBlock parses and encodes a standard block of 100 BaseTxs.
func BenchmarkBlock(b *testing.B) {
	v := loadVectors(b)
	raw := unhex(b, str(b, v.Vectors.Named(b, "p_base_tx_transfer_avax"), "signedBytesHex"))
	tx, err := ParseTx(raw)
	if err != nil {
		b.Fatal(err)
	}
	txs := make([]*Tx, 100)
	for i := range txs {
		txs[i] = tx
	}
	blk, err := NewStandardBlock(tx.ID(), 1, 1767225600, txs)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse-100", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(blk.Bytes())))
		for b.Loop() {
			if _, err := ParseBlock(blk.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal-100", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(blk.Bytes())))
		for b.Loop() {
			if _, err := NewStandardBlock(tx.ID(), 1, 1767225600, txs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
