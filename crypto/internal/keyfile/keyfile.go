// Package keyfile writes key material to disk the way the reference node lays it out: directories
// 0750, files 0400 (node-api.md §4.2, §4.3), and never a truncated file.
package keyfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Permissions of key directories and key files.
const (
	DirPerm  fs.FileMode = 0o750
	FilePerm fs.FileMode = 0o400
)

// Write writes b to path, mode FilePerm, creating missing directories with DirPerm. It writes a
// temporary file in the same directory, syncs it and renames it into place, so a crash leaves
// either no file or the whole file.
func Write(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(FilePerm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
