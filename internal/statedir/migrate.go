package statedir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Old returns the state folder of the layout before one folder per
// lesson, .lessongen beside lessonFile, when it holds state (a history
// folder or a notes file); else "". Its entries are laid out as a
// lesson's state folder's are, so it can be read as one.
func Old(lessonFile string) string {
	dir := filepath.Join(filepath.Dir(lessonFile), Name)
	for _, e := range []string{oldHistory, oldNotes} {
		if _, err := os.Lstat(filepath.Join(dir, e)); err == nil {
			return dir
		}
	}
	return ""
}

// ReadDir is the state folder a command that only reads uses for
// lessonFile: its own, else the old shared one while it is not migrated.
func ReadDir(lessonFile string) string {
	dir := For(lessonFile)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if old := Old(lessonFile); old != "" {
			return old
		}
	}
	return dir
}

// Migrate gives lessonFile its own state folder from the old layout, once
// (a lesson that has its own folder is left alone). When the lesson is
// the only one in its folder (shared false), the old state is its: the
// history folder and notes file are moved. When other lessons share the
// folder, the old files do not say whose they are, so each lesson gets a
// copy on its first run and the old files stay for the others; a copied
// conversation is continued only for a node whose content still matches
// it (see docs/history.md), so another lesson's does no harm. It returns
// what it did, for a note, or "".
func Migrate(lessonFile string, shared bool) (string, error) {
	old := Old(lessonFile)
	dir := For(lessonFile)
	if old == "" {
		return "", nil
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if !shared {
		for _, e := range []string{oldHistory, oldNotes} {
			if _, err := os.Lstat(filepath.Join(old, e)); err != nil {
				continue
			}
			if err := Rename(old, e, filepath.Join(filepath.Base(dir), e)); err != nil {
				return "", fmt.Errorf("move the saved state to %s: %w", dir, err)
			}
		}
		return fmt.Sprintf("moved the saved state in %s to %s, the lesson's own state folder", old, dir), nil
	}
	if err := Copy(old, dir, oldHistory, oldNotes); err != nil {
		return "", fmt.Errorf("copy the saved state to %s: %w", dir, err)
	}
	return fmt.Sprintf("copied the saved state in %s, which other lessons in the folder share, to %s, this lesson's own state folder; delete %s and %s once each lesson there has run", old, dir, filepath.Join(old, oldHistory), filepath.Join(old, oldNotes)), nil
}

// Copy copies entries (all when none are named) of state folder src into
// dst, which must not exist yet: the state an -o run starts from. Only
// plain files and folders are copied; a link is a *LinkError.
func Copy(src, dst string, entries ...string) error {
	if len(entries) == 0 {
		des, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, d := range des {
			entries = append(entries, d.Name())
		}
	}
	for _, e := range entries {
		err := walkPlain(filepath.Join(src, e), func(p string, fi fs.FileInfo) error {
			if fi.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			return copyFile(p, dst, filepath.ToSlash(rel))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, dst, rel string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := OpenFile(dst, rel, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
