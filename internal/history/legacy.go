package history

// The earlier layout, format 1: one file per node and level,
// history/<node>/<level>.jsonl in the state folder, its first line the
// header. It is read, never written: a conversation continued from it
// is copied into the log first (Log.Reopen), and from then on the log's
// copy is the one read.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/lessongen/lessongen/internal/statedir"
)

// legacyFormat is the format version of the earlier layout's headers.
const legacyFormat = 1

// legacyPath is where the earlier layout kept node at level, inside the
// state folder, slash-separated.
func legacyPath(node, level string) string {
	return statedir.HistoryDir + "/" + node + "/" + level + ".jsonl"
}

// loadLegacy reads node at level from the earlier layout: ErrNone when
// there is no such file, a *CorruptError when it cannot be read as one.
// It also returns the header as the file began and the records after it.
func loadLegacy(dir, node, level string) (Conversation, Header, []numbered, error) {
	rel := legacyPath(node, level)
	path := filepath.Join(dir, filepath.FromSlash(rel))
	// Most nodes have none: one stat says so, where the walk that refuses
	// links costs a dozen system calls. A path that seems to exist only
	// through a link is refused by that walk.
	// A file where one of its folders would be (ENOTDIR) holds none
	// either: the earlier layout is never written, so it is only read past.
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return Conversation{}, Header{}, nil, ErrNone
	}
	data, err := statedir.ReadFile(dir, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return Conversation{}, Header{}, nil, ErrNone
	}
	if err != nil {
		return Conversation{}, Header{}, nil, fmt.Errorf("history: %w", err)
	}
	all := lines(data, 1)
	if len(all) == 0 {
		return Conversation{}, Header{}, nil, &CorruptError{Path: path, Err: errors.New("empty history file")}
	}
	var h Header
	if err := json.Unmarshal(all[0].data, &h); err != nil {
		return Conversation{}, Header{}, nil, &CorruptError{Path: path, Line: 1, Err: fmt.Errorf("history header: %w", err)}
	}
	if h.Format != legacyFormat {
		return Conversation{}, Header{}, nil, &CorruptError{Path: path, Line: 1, Err: fmt.Errorf("history format %d; this lessongen reads format %d (and %d in the log)", h.Format, legacyFormat, FormatVersion)}
	}
	c, err := build(path, h, all[1:])
	return c, h, all[1:], err
}

// setAsideLegacy renames the earlier layout's file of node at level to
// NAME.broken-<time> beside it and returns the new path.
func setAsideLegacy(dir, node, level string, now time.Time) (string, error) {
	rel := legacyPath(node, level)
	aside := rel + brokenSuffix(now)
	if err := statedir.Rename(dir, rel, aside); err != nil {
		return "", fmt.Errorf("history: set aside: %w", err)
	}
	return filepath.Join(dir, filepath.FromSlash(aside)), nil
}

// brokenSuffix names a set-aside copy by when it was set aside.
func brokenSuffix(now time.Time) string {
	return ".broken-" + now.UTC().Format("20060102T150405.000000000Z")
}
