package lesson

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/atomicfile"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

// Document is a loaded lesson file: the lesson's session, its whiteboards as
// child sessions (loaded when first needed), and the sources they came from.
type Document struct {
	Path string
	// Warnings found while loading (layout defects, ignored bindings).
	Warnings yamlsrc.Problems

	src  *yamlsrc.Source
	root *session.Session

	mu     sync.Mutex
	inline map[string]*whiteboard.Board // decoded at load, handed to the child session on warm
	files  map[string]*yamlsrc.Source   // file-backed whiteboards, by slide id, once loaded
	// checkedOut is the last output CheckOutput passed, so checkpoints
	// do not stat every file again (see paths.go).
	checkedOut string
	// base is the lesson's folder as a real path (see folder in paths.go).
	base string
	// During Load only: folders seen not to be symlinks, and the lesson
	// file's info, so checking many whiteboard files stats less.
	realDirs   map[string]bool
	lessonInfo fs.FileInfo
}

// Load reads and checks a lesson file. Any problem found makes it fail with
// yamlsrc.Problems listing every one, each with file, line and column.
// Whiteboards in their own files are checked for existence now and read
// when first needed (see Board and LoadAll).
func Load(path string) (*Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the lesson: %w", path, unwrapPath(err))
	}
	src, err := yamlsrc.Parse(path, data)
	if err != nil {
		return nil, err
	}
	r := &yamlsrc.Reporter{File: path}
	d := &Document{Path: path, src: src, inline: map[string]*whiteboard.Board{}, files: map[string]*yamlsrc.Source{}}
	d.realDirs = map[string]bool{}
	d.lessonInfo, _ = os.Stat(path)
	plan := d.decode(src.Root, r)
	d.realDirs, d.lessonInfo = nil, nil // later reads and writes look again
	problems := r.Problems
	problems.Sort()
	if problems.Err() != nil {
		return nil, problems
	}
	d.Warnings = problems.Warnings()
	plan.boardLoader = d.boardLoader
	d.root = session.New("lesson", plan)
	d.root.ReconcileChildren()
	return d, nil
}

func (d *Document) decode(n *yaml.Node, r *yamlsrc.Reporter) *Plan {
	p := &Plan{Protect: true, bindCache: newBindingCache()}
	if n.Kind != yaml.MappingNode {
		r.At(n, "a lesson file is a mapping with version, metadata and slides")
		return p
	}
	yamlsrc.Decode(n, p, r, "")
	p.Src = n
	if p.Version != FormatVersion && hasKey(n, "version") {
		r.At(valueNode(n, "version"), "version %d is not supported; this lessongen reads version %d", p.Version, FormatVersion)
	}
	seen := map[string]*yaml.Node{}
	files := map[string]*yaml.Node{}
	for i, s := range p.slides() {
		if s.IsPlaceholder {
			continue
		}
		s.authored = true
		path := fmt.Sprintf("slides[%d]", i)
		idNode := valueNode(s.Src, "id")
		switch first, dup := seen[s.ID]; {
		case s.Src == nil:
		case !idPattern.MatchString(s.ID):
			r.At(idNode, "%s.id %q must use only letters, digits, - and _", path, s.ID)
		case dup:
			r.At(idNode, "duplicate slide id %q (first at line %d); ids must be unique", s.ID, first.Line)
		default:
			seen[s.ID] = idNode
		}
		compiled, err := compileProps(s.Props)
		for _, e := range unjoin(err) {
			r.At(valueNode(s.Src, "props"), "%s.%v", path, e)
		}
		s.compiled = compiled
		d.decodeBoardRef(s, r, path, files)
	}
	p.index()
	// Evaluate bindings once now, so a name that no value has is caught here
	// and not when the slide's whiteboard is generated.
	for _, s := range p.slides() {
		if s.IsPlaceholder || len(s.compiled) == 0 {
			continue
		}
		if _, err := p.evalProps(s); err != nil {
			for _, e := range unjoin(err) {
				if !errors.Is(e, ErrBindingPending) {
					r.At(valueNode(s.Src, "props"), "%v", e)
				}
			}
		}
	}
	return p
}

func (d *Document) decodeBoardRef(s *Slide, r *yamlsrc.Reporter, path string, files map[string]*yaml.Node) {
	ref := s.Whiteboard
	switch {
	case ref.Inline != nil:
		b := whiteboard.Decode(ref.Inline, r, path+".whiteboard")
		d.inline[s.ID] = b
		d.warnShadowedProps(s, b, r, path)
	case ref.File != "":
		d.checkBoardFile(ref, r, path, files)
	}
}

// warnShadowedProps flags bindings that will never apply because the
// whiteboard already has that property written.
func (d *Document) warnShadowedProps(s *Slide, b *whiteboard.Board, r *yamlsrc.Reporter, path string) {
	for _, name := range slices.Sorted(maps.Keys(s.Props)) {
		if boundTargetSet(b, name) {
			r.WarnAt(valueNode(s.Src, "props"), "%s.props.%s is ignored: the whiteboard already sets %s", path, name, name)
		}
	}
}

func boundTargetSet(b *whiteboard.Board, name string) bool {
	switch name {
	case "heading":
		return b.Heading.Set
	case "layout":
		return b.Layout.Set
	}
	return false
}

// unwrapPath drops the "open FILE:" prefix the caller already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func hasKey(m *yaml.Node, key string) bool {
	return valueNode(m, key) != m
}

// valueNode returns the value for key in mapping m, or m itself so a problem
// still has a position.
func valueNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return m
}

// Session is the lesson's session: the one place every change goes through.
func (d *Document) Session() *session.Session { return d.root }

// View runs fn with the lesson plan under the session's read lock.
func (d *Document) View(fn func(p *Plan)) {
	d.root.View(func(st session.State) { fn(st.(*Plan)) })
}

// boardLoader returns how to create slide s's whiteboard session.
func (d *Document) boardLoader(s *Slide) func() (*session.Session, error) {
	id, ref := s.ID, s.Whiteboard
	return func() (*session.Session, error) {
		var b *whiteboard.Board
		switch {
		case ref.File != "":
			var err error
			if b, err = d.loadFile(id, ref.File); err != nil {
				return nil, err
			}
		case ref.Inline != nil:
			d.mu.Lock()
			b = d.inline[id]
			d.mu.Unlock()
		default:
			b = whiteboard.Todo(ref.Hint)
		}
		return session.New("slides/"+id+"/whiteboard", b), nil
	}
}

func (d *Document) loadFile(id, rel string) (*whiteboard.Board, error) {
	full := d.boardFull(rel)
	data, err := d.readBoard(rel)
	if err != nil {
		return nil, fmt.Errorf("whiteboard of slide %q: %w", id, err)
	}
	src, err := yamlsrc.Parse(full, data)
	if err != nil {
		return nil, err
	}
	r := &yamlsrc.Reporter{File: full}
	var b *whiteboard.Board
	if hint, ok := yamlsrc.Pending(src.Root); ok {
		b = whiteboard.Todo(hint)
	} else if checkBoardRoot(src.Root, r) {
		b = whiteboard.Decode(src.Root, r, "whiteboard")
	}
	if err := r.Problems.Err(); err != nil {
		r.Problems.Sort()
		return nil, r.Problems
	}
	d.mu.Lock()
	d.files[id] = src
	d.Warnings = append(d.Warnings, r.Problems.Warnings()...)
	d.mu.Unlock()
	return b, nil
}

// Board returns slide id's whiteboard session, loading it if needed.
func (d *Document) Board(id string) (*session.Session, error) {
	return d.root.WarmChild(id)
}

// LoadAll loads every whiteboard, collecting every problem in every file.
func (d *Document) LoadAll() error {
	var problems yamlsrc.Problems
	var other []error
	for _, id := range d.root.Children() {
		if _, err := d.root.WarmChild(id); err != nil {
			var ps yamlsrc.Problems
			if errors.As(err, &ps) {
				problems = append(problems, ps...)
			} else {
				other = append(other, err)
			}
		}
	}
	if len(other) > 0 {
		return errors.Join(other...)
	}
	if len(problems) > 0 {
		problems.Sort()
		return problems
	}
	return nil
}

// OutFile is one file a save writes.
type OutFile struct {
	Path string
	Data []byte
	// Reformatted is set when the author's layout defeated splicing and the
	// file was written fresh: the data is whole, comments and layout are not.
	Reformatted bool
}

// BoardFiles lists the whiteboard files the lesson names, relative to it.
func (d *Document) BoardFiles() []string {
	var files []string
	d.View(func(p *Plan) {
		for _, s := range p.slides() {
			if s.Whiteboard.File != "" {
				files = append(files, s.Whiteboard.File)
			}
		}
	})
	return files
}

// Render returns the files a save to out would write: whiteboards in their
// own files first, then the lesson. out "" means the lesson's own path.
// Unchanged files in place are skipped; when out is in another folder, every
// whiteboard file is written there too, so the copy is whole.
func (d *Document) Render(out string) ([]OutFile, error) {
	out = d.outPath(out)
	if err := d.checkOutputOnce(out); err != nil {
		return nil, err
	}
	inDir, outDir := filepath.Dir(d.Path), filepath.Dir(out)
	moved := filepath.Clean(inDir) != filepath.Clean(outDir)

	var refs []WhiteboardRef
	var ids []string
	d.View(func(p *Plan) {
		for _, s := range p.slides() {
			refs = append(refs, s.Whiteboard)
			ids = append(ids, s.ID)
		}
	})
	var files []OutFile
	for i, ref := range refs {
		if ref.File == "" {
			continue
		}
		f, err := d.renderFile(ids[i], ref.File, filepath.Join(outDir, ref.File), moved)
		if err == nil && f != nil && !moved {
			err = d.checkBoardTarget(ids[i], ref.File)
		}
		if err != nil {
			return nil, err
		}
		if f != nil {
			files = append(files, *f)
		}
	}
	data, reformatted, err := d.lessonBytes()
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", out, err)
	}
	if moved || !slices.Equal(data, d.src.Data) || filepath.Clean(out) != filepath.Clean(d.Path) {
		files = append(files, OutFile{Path: out, Data: data, Reformatted: reformatted})
	}
	return files, nil
}

// LessonBytes renders the lesson file alone, inline whiteboards included:
// the original bytes with only the changed spots spliced in.
func (d *Document) LessonBytes() ([]byte, error) {
	data, _, err := d.lessonBytes()
	return data, err
}

func (d *Document) lessonBytes() (data []byte, reformatted bool, err error) {
	var tree *yaml.Node
	var ids []string
	var fileBacked []bool
	d.View(func(p *Plan) {
		tree = yamlsrc.Encode(*p)
		for _, s := range p.slides() {
			ids = append(ids, s.ID)
			fileBacked = append(fileBacked, s.Whiteboard.File != "")
		}
	})
	items := valueNode(tree, "slides")
	for i, id := range ids {
		if fileBacked[i] || items == nil || items.Kind != yaml.SequenceNode || i >= len(items.Content) {
			continue
		}
		child, hot := d.root.HotChild(id)
		if !hot {
			continue
		}
		var n *yaml.Node
		child.View(func(st session.State) { n, _ = st.(*whiteboard.Board).EncodeNode() })
		setValue(items.Content[i], "whiteboard", n)
	}
	return patchOrRender(d.src, tree)
}

// patchOrRender splices tree into src; if the author's layout defeats
// splicing it renders the file fresh, keeping the data, and says so.
func patchOrRender(src *yamlsrc.Source, tree *yaml.Node) ([]byte, bool, error) {
	data, err := src.Patch(tree)
	if errors.Is(err, yamlsrc.ErrUnsafePatch) {
		data, err = yamlsrc.Render(tree, 2)
		return data, true, err
	}
	return data, false, err
}

func (d *Document) renderFile(id, rel, dest string, moved bool) (*OutFile, error) {
	child, hot := d.root.HotChild(id)
	if !hot {
		if !moved {
			return nil, nil
		}
		data, err := os.ReadFile(filepath.Join(filepath.Dir(d.Path), rel))
		if err != nil {
			return nil, fmt.Errorf("copy whiteboard of slide %q: %w", id, err)
		}
		return &OutFile{Path: dest, Data: data}, nil
	}
	d.mu.Lock()
	src := d.files[id]
	d.mu.Unlock()
	var n *yaml.Node
	child.View(func(st session.State) { n, _ = st.(*whiteboard.Board).EncodeNode() })
	data, reformatted, err := patchOrRender(src, n)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", dest, err)
	}
	if !moved && slices.Equal(data, src.Data) {
		return nil, nil
	}
	return &OutFile{Path: dest, Data: data, Reformatted: reformatted}, nil
}

func setValue(m *yaml.Node, key string, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
}

// Save writes the document to out ("" = in place), each file atomically,
// whiteboard files before the lesson that refers to them.
func (d *Document) Save(out string) error {
	files, err := d.Render(out)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := atomicfile.Write(f.Path, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
