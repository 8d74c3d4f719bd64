package jsonrpctest

import (
	"io"
	"net/http"
	"testing"
)

// ServeLoop calls h once per b.Loop iteration with a POST of body(i) (application/json) to
// target, i counting the iterations from 0, through one reused request and a writer that keeps
// only the status and the size: the server's time per call, without a socket or a client. It
// reports allocations and, as bytes per operation, the size of the last reply, and fails b if a
// reply is not HTTP 200 or is empty.
func ServeLoop(b *testing.B, h http.Handler, target string, body func(i int) []byte) {
	b.Helper()
	req, err := http.NewRequestWithContext(b.Context(), http.MethodPost, target, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	rb := &reusedBody{}
	req.Body = rb
	w := &discardWriter{header: make(http.Header)}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		rb.data, rb.off = body(i), 0
		clear(w.header)
		w.status, w.n = http.StatusOK, 0
		h.ServeHTTP(w, req)
		if w.status != http.StatusOK || w.n == 0 {
			b.Fatalf("call %d: HTTP %d, %d bytes of reply", i, w.status, w.n)
		}
		i++
	}
	b.SetBytes(int64(w.n))
}

// reusedBody is a request body that is read again after a reset, without allocating.
type reusedBody struct {
	data []byte
	off  int
}

func (r *reusedBody) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	n := copy(p, r.data[r.off:])
	r.off += n
	return n, nil
}

func (r *reusedBody) Close() error { return nil }

// discardWriter is a minimal http.ResponseWriter that keeps only the status and the size.
type discardWriter struct {
	header http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
