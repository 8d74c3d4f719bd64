package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
)

// LoadFile reads a JSON config file into into. The file is one object whose keys are flag names
// and whose values are what the flag would take: a string ("network-id": "local",
// "http-read-timeout": "30s"), a number ("http-port": 9650), a boolean, or, for lists, an array
// or a comma-separated string. Keys absent from the file leave into unchanged; paths are taken
// relative to the working directory, as on the command line.
//
// Every problem is reported at once, each naming the file and key; an unknown key is an
// ErrUnknownKey. On error, into is left unchanged.
func LoadFile(path string, into *Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config file: %w", err)
	}
	if err := CheckJSON(path, data); err != nil {
		return fmt.Errorf("config file %w", err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		return fmt.Errorf("config file %s: %w", path, errConfigNotObject)
	}
	if err := parseFile(data, into); err != nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	return nil
}

// parseFile applies the JSON object in data to into, or reports every problem and leaves into
// unchanged.
func parseFile(data []byte, into *Config) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil || keys == nil {
		return errConfigNotObject
	}

	cfg := *into
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		s, ok := lookupSetting(key)
		if !ok {
			errs = append(errs, unknownKeyError(key))
			continue
		}
		if err := setJSON(s.Bind(&cfg), keys[key]); err != nil {
			errs = append(errs, keyError(key, err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	*into = cfg
	return nil
}

// replacer is a list Value that can take a JSON array whole.
type replacer interface {
	Replace(items []string) error
}

// setJSON sets v from one JSON value, turning it into the text a flag would take.
func setJSON(v Value, raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return errors.New("missing value")
	}
	switch raw[0] {
	case '[':
		r, ok := v.(replacer)
		if !ok {
			return errors.New("expected a single value, not a list")
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return fmt.Errorf("decode list: %w", err)
		}
		texts := make([]string, len(items))
		for i, item := range items {
			text, err := scalarText(item)
			if err != nil {
				return err
			}
			texts[i] = text
		}
		return r.Replace(texts)
	default:
		text, err := scalarText(raw)
		if err != nil {
			return err
		}
		return v.Set(text)
	}
}

// scalarText returns the flag text of a JSON string, number or boolean.
func scalarText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0:
		return "", errors.New("missing value")
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("decode string: %w", err)
		}
		return s, nil
	case raw[0] == '{':
		return "", errors.New("expected a value, not an object")
	case raw[0] == '[':
		return "", errors.New("expected a value, not a list")
	case string(raw) == "null":
		return "", errors.New("expected a value, not null")
	default:
		// A number or a boolean: the decoder has checked it is valid JSON, and its text is what
		// a flag would take.
		return string(raw), nil
	}
}
