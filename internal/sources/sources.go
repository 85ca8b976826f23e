// Package sources is the read-only sandbox over the author's source
// folders (--sources). Every path a model names is opened through an
// os.Root, so "..", absolute paths and symlinks that lead outside a folder
// cannot reach a byte beyond it; only regular text files are read. A file
// with several hard links is refused too: one of them may be outside the
// folder, and nothing on the file says which name is the original.
package sources

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lessongen/lessongen/internal/regfile"
	"github.com/lessongen/lessongen/session"
)

// Limits. A source is a chapter or a standards list, not a corpus: a file
// past MaxFileBytes is refused, not skimmed, and one read returns at most
// MaxReadLines lines or MaxReadBytes so a tool result stays small in every
// later request.
const (
	MaxFileBytes   = 2_000_000
	MaxReadLines   = 200
	MaxReadBytes   = 16_000
	MaxLineBytes   = 500
	MaxResults     = 50
	DefaultResults = 20
	MaxFiles       = 500
	// MaxSearchBytes bounds what one search scans, so a search over a
	// large folder stays quick; the result says when it stopped early.
	MaxSearchBytes = 32_000_000
)

// textExts are the formats a source may be in: text a model can cite by line.
var textExts = []string{".md", ".markdown", ".txt", ".text", ".yaml", ".yml", ".json", ".csv", ".tsv"}

// Sandbox is a set of source folders opened read-only.
type Sandbox struct {
	roots []root
}

type root struct {
	name string // the prefix paths carry when there are several folders
	dir  string
	r    *os.Root
}

// Open opens each folder as a sandbox root. With several folders a path
// starts with the folder's base name ("notes/ch1.md").
func Open(dirs []string) (*Sandbox, error) {
	s := &Sandbox{}
	seen := map[string]bool{}
	for _, d := range dirs {
		r, err := os.OpenRoot(d)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("--sources %s: %w", d, err)
		}
		name := filepath.Base(filepath.Clean(d))
		if len(dirs) > 1 && seen[name] {
			r.Close()
			s.Close()
			return nil, fmt.Errorf("--sources %s: two source folders are named %q; rename one", d, name)
		}
		seen[name] = true
		s.roots = append(s.roots, root{name: name, dir: d, r: r})
	}
	return s, nil
}

// Close releases the roots.
func (s *Sandbox) Close() {
	if s == nil {
		return
	}
	for _, r := range s.roots {
		r.r.Close()
	}
}

// Error is a refusal a model can act on.
type Error struct {
	Kind    session.ErrorKind
	Message string
	Hint    string
}

func (e *Error) Error() string { return e.Message }

func refuse(kind session.ErrorKind, hint, format string, a ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, a...), Hint: hint}
}

const listHint = "call list_sources for the paths you may read"

// linkedHint says why a hard-linked file is refused: a hard link to a file
// outside the folder looks exactly like a file inside it.
const linkedHint = "a file with more than one hard link may be a link to a file outside the sources folder, which cannot be told apart; ask the author to copy the file into the folder (a copy, not a hard link)"

// resolve checks a model-given path and names the root and the path
// inside it. It refuses before opening anything; os.Root then refuses any
// symlink that leads outside.
func (s *Sandbox) resolve(p string) (*root, string, *Error) {
	switch {
	case p == "":
		return nil, "", refuse(session.KindInvalidArgs, listHint, "path is empty")
	case strings.ContainsRune(p, 0):
		return nil, "", refuse(session.KindInvalidArgs, listHint, "path holds a NUL byte")
	case path.IsAbs(p) || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
		return nil, "", refuse(session.KindPermission, listHint, "%q is absolute: only paths inside the sources folder can be read", p)
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." {
			return nil, "", refuse(session.KindPermission, listHint, "%q leaves the sources folder", p)
		}
	}
	clean := path.Clean(filepath.ToSlash(p))
	if len(s.roots) == 1 {
		return &s.roots[0], clean, nil
	}
	first, rest, _ := strings.Cut(clean, "/")
	for i := range s.roots {
		if s.roots[i].name == first && rest != "" {
			return &s.roots[i], rest, nil
		}
	}
	return nil, "", refuse(session.KindNotFound, listHint, "no source %q", p)
}

// read returns the bytes of a source: a regular text file of acceptable
// size inside the sandbox. Text is decided from the bytes as well as the
// name: a ".md" holding a NUL byte or bytes that are not UTF-8 is refused
// as a whole, so no tool shows a model a part of it.
func (s *Sandbox) read(p string) ([]byte, *Error) {
	f, e := s.open(p)
	if e != nil {
		return nil, e
	}
	defer f.Close()
	data, over, err := regfile.ReadAtMost(f, MaxFileBytes)
	if err != nil {
		return nil, refuse(session.KindInvalidArgs, "", "%q could not be read: %v", p, err)
	}
	if over {
		return nil, refuse(session.KindPermission, "ask the author to split it", "%q grew past %d bytes while it was read", p, MaxFileBytes)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, refuse(session.KindInvalidArgs, textHint, "%q is not text: it holds a NUL byte (line %d)", p, lineOf(data, i))
	}
	if !utf8.Valid(data) {
		i := invalidAt(data)
		return nil, refuse(session.KindInvalidArgs, textHint, "%q line %d is not UTF-8 text", p, lineOf(data, i))
	}
	return data, nil
}

const textHint = "sources are read as UTF-8 text without NUL bytes"

// lineOf is the 1-based line of byte i.
func lineOf(data []byte, i int) int { return bytes.Count(data[:i], []byte("\n")) + 1 }

// invalidAt is the offset of the first byte that is not UTF-8.
func invalidAt(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// open opens a regular text file of acceptable size inside the sandbox.
func (s *Sandbox) open(p string) (*os.File, *Error) {
	r, rel, e := s.resolve(p)
	if e != nil {
		return nil, e
	}
	if !slices.Contains(textExts, strings.ToLower(path.Ext(rel))) {
		return nil, refuse(session.KindInvalidArgs, "sources are read as text: "+strings.Join(textExts, " "),
			"%q is not a text format lessongen reads", p)
	}
	return r.openRegular(p, rel, MaxFileBytes)
}

// openRegular opens rel inside r: a regular file of at most max bytes
// with one link; p is the path as the model gave it, for messages.
func (r *root) openRegular(p, rel string, max int64) (*os.File, *Error) {
	// Stat through the root first (it follows links only inside the root):
	// a FIFO or device is refused before an
	// open that could block or read one.
	fi, err := r.r.Stat(rel)
	if err != nil {
		return nil, fsRefusal(p, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse(session.KindPermission, listHint, "%q is not a regular file", p)
	}
	if regfile.Links(fi) > 1 {
		return nil, refuse(session.KindPermission, linkedHint, "%q has %d hard links and is not read", p, regfile.Links(fi))
	}
	if fi.Size() > max {
		return nil, refuse(session.KindPermission, "ask the author to make it smaller", "%q is %d bytes; sources over %d bytes are not read", p, fi.Size(), max)
	}
	f, err := r.r.OpenFile(rel, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, fsRefusal(p, err)
	}
	// The file may have been swapped between Stat and Open.
	if fi2, err := f.Stat(); err != nil || !fi2.Mode().IsRegular() || fi2.Size() > max || regfile.Links(fi2) > 1 {
		f.Close()
		return nil, refuse(session.KindPermission, listHint, "%q is not a regular file of at most %d bytes", p, max)
	}
	return f, nil
}

func fsRefusal(p string, err error) *Error {
	if errors.Is(err, fs.ErrNotExist) {
		return refuse(session.KindNotFound, listHint, "no source %q", p)
	}
	// os.Root reports a path escaping the root (via symlink or otherwise).
	return refuse(session.KindPermission, listHint, "%q cannot be read: it leads outside the sources folder or is not readable", p)
}

// File is one listed source.
type File struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Listing is what List finds.
type Listing struct {
	Files []File
	// More counts the readable files past MaxFiles.
	More int
	// Linked names the text files left out because they have several hard
	// links (see linkedHint).
	Linked []string
}

// Note says what the listing leaves out and why, "" when nothing.
func (l Listing) Note() string {
	var notes []string
	if l.More > 0 {
		notes = append(notes, fmt.Sprintf("%d more files not listed (at most %d are); use search_sources", l.More, MaxFiles))
	}
	if len(l.Linked) > 0 {
		notes = append(notes, fmt.Sprintf("not listed, as they have more than one hard link: %s; %s", strings.Join(l.Linked, ", "), linkedHint))
	}
	return strings.Join(notes, ". ")
}

// List lists the readable text files, at most MaxFiles. Directories behind
// symlinks are not walked; a symlink to a file is listed when it resolves
// inside its folder (os.Root refuses the rest), as Read reads it.
func (s *Sandbox) List() Listing {
	var l Listing
	for i := range s.roots {
		r := &s.roots[i]
		_ = fs.WalkDir(r.r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if !slices.Contains(textExts, strings.ToLower(path.Ext(p))) {
				return nil
			}
			// A symlink is stat'ed through the root, so one leading outside
			// fails here; a regular file's own entry says enough.
			var fi fs.FileInfo
			if d.Type().IsRegular() {
				fi, err = d.Info()
			} else {
				fi, err = r.r.Stat(p)
			}
			if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileBytes {
				return nil
			}
			name := p
			if len(s.roots) > 1 {
				name = r.name + "/" + p
			}
			if regfile.Links(fi) > 1 {
				l.Linked = append(l.Linked, name)
				return nil
			}
			if len(l.Files) >= MaxFiles {
				l.More++
				return nil
			}
			l.Files = append(l.Files, File{Path: name, Size: fi.Size()})
			return nil
		})
	}
	return l
}

// Read returns lines start..end (1-based, inclusive; 0 means from the
// start or to the end) numbered "12: text", and a note when cut.
func (s *Sandbox) Read(p string, start, end int) (string, *Error) {
	if start < 0 || end < 0 || (end != 0 && end < start) {
		return "", refuse(session.KindInvalidArgs, "lines count from 1; end_line is at least start_line", "bad line range %d-%d", start, end)
	}
	data, e := s.read(p)
	if e != nil {
		return "", e
	}
	if start == 0 {
		start = 1
	}
	var b strings.Builder
	n, shown, total := 0, 0, 0
	cut := ""
	sc := scanner(bytes.NewReader(data))
	for sc.Scan() {
		n++
		total = n
		if n < start || (end != 0 && n > end) || cut != "" {
			continue
		}
		line := fmt.Sprintf("%d: %s\n", n, clipLine(sc.Text()))
		if shown >= MaxReadLines || b.Len()+len(line) > MaxReadBytes {
			cut = fmt.Sprintf("[cut at line %d: one read returns at most %d lines or %d bytes; read on with start_line %d]", n-1, MaxReadLines, MaxReadBytes, n)
			continue
		}
		b.WriteString(line)
		shown++
	}
	if err := sc.Err(); err != nil {
		return "", refuse(session.KindInvalidArgs, "", "%q could not be read as text: %v", p, err)
	}
	if start > total && total > 0 {
		return "", refuse(session.KindInvalidArgs, fmt.Sprintf("%q has %d lines", p, total), "start_line %d is past the end", start)
	}
	if cut != "" {
		b.WriteString(cut + fmt.Sprintf(" (%d lines in all)\n", total))
	}
	return b.String(), nil
}

// Search finds lines matching query (a regular expression, or the word as
// written when it is not one), case-insensitively, as "path:line: text".
func (s *Sandbox) Search(query string, max int) ([]string, int, *Error) {
	if strings.TrimSpace(query) == "" {
		return nil, 0, refuse(session.KindInvalidArgs, "give a word or a regular expression", "query is empty")
	}
	if max <= 0 {
		max = DefaultResults
	}
	max = min(max, MaxResults)
	re, err := regexp.Compile("(?i)" + query)
	if err != nil {
		re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(query))
	}
	listing := s.List()
	files := listing.Files
	var hits []string
	more, scanned := 0, int64(0)
	for _, fl := range files {
		if scanned += fl.Size; scanned > MaxSearchBytes {
			hits = append(hits, fmt.Sprintf("[search stopped before %s: one search scans at most %d bytes; narrow it with read_source]", fl.Path, MaxSearchBytes))
			break
		}
		data, e := s.read(fl.Path)
		if e != nil {
			continue
		}
		sc := scanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			if re.MatchString(sc.Text()) {
				if len(hits) >= max {
					more++
					continue
				}
				hits = append(hits, fmt.Sprintf("%s:%d: %s", fl.Path, n, clipLine(strings.TrimSpace(sc.Text()))))
			}
		}
	}
	if len(listing.Linked) > 0 {
		hits = append(hits, fmt.Sprintf("[not searched, as they have more than one hard link: %s; %s]", strings.Join(listing.Linked, ", "), linkedHint))
	}
	return hits, more, nil
}

// Lines counts the lines of a source, for checking citations.
func (s *Sandbox) Lines(p string) (int, *Error) {
	data, e := s.read(p)
	if e != nil {
		return 0, e
	}
	n := 0
	sc := scanner(bytes.NewReader(data))
	for sc.Scan() {
		n++
	}
	return n, nil
}

func scanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), MaxFileBytes)
	return sc
}

func clipLine(s string) string {
	if len(s) <= MaxLineBytes {
		return s
	}
	i := MaxLineBytes
	for i > 0 && !isRuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
