package embedded

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// writeFileAtomic replaces path with data, mode 0600: it writes a temp file
// in the same directory, syncs it, renames it over path and syncs the
// directory, so a crash leaves either the old content or the new one.
func writeFileAtomic(path string, data []byte) error {
	return writeFileAtomicFrom(path, bytes.NewReader(data))
}

// writeFileAtomicFrom is writeFileAtomic with the content read from r.
func writeFileAtomicFrom(path string, r io.Reader) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err = f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
