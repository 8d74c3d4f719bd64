package evm

import (
	"net/http"
	"strconv"
)

// newlineHandler ends every JSON-RPC reply of h with a newline, as go-ethereum's server did
// when it encoded with json.Encoder and as the reference's fork of it still does; 1.17
// writes the bare JSON. h writes each reply in one Write after setting Content-Length
// (rpc.Server.ServeHTTP), so the length grows by one before the header goes out and the
// newline follows once h returns. Replies that are not JSON (a refused request's plain-text
// error, which http.Error already ends with a newline; a health check's empty 200) pass
// through untouched. Websockets have their own handler and framing.
func newlineHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nw := &newlineWriter{ResponseWriter: w}
		h.ServeHTTP(nw, r)
		if nw.json {
			_, _ = w.Write(newline)
		}
	})
}

var newline = []byte{'\n'}

// newlineWriter notes whether a JSON body went out, and counts its newline in the length.
type newlineWriter struct {
	http.ResponseWriter
	started bool // the header is written
	json    bool // the body is a JSON reply
}

func (w *newlineWriter) WriteHeader(code int) {
	w.start()
	w.ResponseWriter.WriteHeader(code)
}

func (w *newlineWriter) Write(b []byte) (int, error) {
	w.start()
	return w.ResponseWriter.Write(b)
}

// start runs once, before the header is sent: a JSON reply gets one more byte.
func (w *newlineWriter) start() {
	if w.started {
		return
	}
	w.started = true
	h := w.Header()
	if h.Get("Content-Type") != "application/json" {
		return
	}
	w.json = true
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil {
		h.Set("Content-Length", strconv.Itoa(n+1))
	}
}

// Flush lets go-ethereum flush an error reply early, as it does without the wrapper.
func (w *newlineWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		w.start()
		f.Flush()
	}
}
