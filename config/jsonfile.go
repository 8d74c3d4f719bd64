package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// CheckJSON returns nil if data is one JSON value, else an error naming the file, the line and
// the column of the problem, as an editor would show it:
// `genesis.json:3:5: invalid character '}' looking for beginning of object key string`. It is
// how every JSON file a user writes (a genesis, --config-file, a chain's upgrade.json and
// config.json) is checked before it is decoded, so that its errors point into the file.
func CheckJSON(path string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return JSONError(path, data, err)
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return fmt.Errorf("%s:%s: %w", path, position(data, int64(len(data)-len(rest))+1), errJSONTrailing)
	}
	return nil
}

// JSONError names the file and the position of err in data when err is a JSON syntax or type
// error (or the end of input), and otherwise returns err after the file's name.
func JSONError(path string, data []byte, err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return fmt.Errorf("%s:%s: %w", path, position(data, se.Offset), err)
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return fmt.Errorf("%s:%s: %w", path, position(data, te.Offset), err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s: %w", path, errJSONEmpty)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s:%s: %w", path, position(data, int64(len(data))+1), errJSONTruncated)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// position is "line:column" of the byte at offset in data, both from 1. The decoder's offsets
// point just past the byte it refused, so the column is that byte's.
func position(data []byte, offset int64) string {
	offset = min(max(offset, 1), int64(len(data))+1)
	before := data[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%d:%d", line, col)
}
