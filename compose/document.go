// Package compose is a lesson file with its children: loading the lesson
// (through lesson.Decode) and each slide's children through their kinds'
// codecs, inline or from their own files and only when first needed; and
// the one save path, which splices what changed into the original bytes.
package compose

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
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Document is a loaded lesson file: the lesson's session, its slides'
// children as child sessions (loaded when first needed), and the sources
// they came from. The children's kinds come from the registry.
type Document struct {
	Path string
	// Warnings found while loading (layout defects, ignored bindings).
	Warnings yamlsrc.Problems

	reg  *modality.Registry
	src  *yamlsrc.Source
	root *session.Session

	mu     sync.Mutex
	inline map[session.Key]session.State   // decoded at load, handed to the child session on warm
	files  map[session.Key]*yamlsrc.Source // file-backed children, once loaded
	// missing holds the children whose file did not exist at load (the
	// path, as the lesson names it): each is pending as a whole, and the
	// first save with something in it creates the file (see Saver.create).
	missing map[session.Key]string
	// decodedAt is where each decoded child's problems were reported: its
	// file and the path its messages start with (BoundWarnings reports
	// there too).
	decodedAt map[session.Key]reportAt
	// checkedOut is the last output CheckOutput passed, so checkpoints
	// do not stat every file again (see paths.go).
	checkedOut string
	// base is the lesson's folder as a real path (see folder in paths.go).
	base string
	// During Load only: folders seen not to be symlinks, and the lesson
	// file's info, so checking many whiteboard files stats less.
	realDirs   map[string]bool
	lessonInfo fs.FileInfo

	// renderMu guards what the last save rendered, kept so the next
	// renders only what changed since (see lessonBytes and renderFile).
	renderMu sync.Mutex
	lp       *yamlsrc.ListPatcher
	last     *lessonRender
	fileLast map[session.Key]fileRender
	kidsMu   sync.Mutex
	kids     *fileChildren
}

// lessonRender is the lesson file as last rendered: the lesson session's
// version it was rendered at, the tree handed to the patcher (its slides
// list is items), each inline child and the version it was encoded at,
// and the bytes (nil: the file's own).
type lessonRender struct {
	version     uint64
	tree, items *yaml.Node
	inline      []inlineChild
	data        []byte
	reformatted bool
	// slides holds the slides encoded on their own, by index, when there
	// is no tree (the lesson as loaded).
	slides map[int]*yaml.Node
}

type inlineChild struct {
	key  session.Key
	item int // the slide's index in items
	// hot is set once the child was encoded from its session, at version.
	hot     bool
	version uint64
}

// fileRender is a child file as last rendered, at the child's version.
type fileRender struct {
	version uint64
	dest    string
	out     *OutFile
}

// Load reads and checks a lesson file. Any problem found makes it fail with
// yamlsrc.Problems listing every one, each with file, line and column.
// Children in their own files are checked for existence now and read when
// first needed (see Child and LoadAll); a child whose file does not exist
// yet is pending as a whole, its file made by the first save.
func Load(path string, reg *modality.Registry) (*Document, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the lesson: %w", path, unwrapPath(err))
	}
	src, err := yamlsrc.Parse(path, data)
	if err != nil {
		return nil, err
	}
	r := &yamlsrc.Reporter{File: path}
	d := newDocument(path, reg, src)
	d.lessonInfo, _ = os.Stat(path)
	plan := d.decode(src.Root, r)
	d.realDirs, d.lessonInfo = nil, nil // later reads and writes look again
	problems := r.Problems
	problems.Sort()
	if problems.Err() != nil {
		return nil, problems
	}
	d.Warnings = problems.Warnings()
	plan.SetLoader(d.loader)
	d.root = session.New("lesson", plan)
	d.root.ReconcileChildren()
	return d, nil
}

func newDocument(path string, reg *modality.Registry, src *yamlsrc.Source) *Document {
	return &Document{Path: path, reg: reg, src: src, inline: map[session.Key]session.State{},
		files: map[session.Key]*yamlsrc.Source{}, missing: map[session.Key]string{}, realDirs: map[string]bool{},
		decodedAt: map[session.Key]reportAt{}}
}

func (d *Document) decode(n *yaml.Node, r *yamlsrc.Reporter) *lesson.Plan {
	var kinds []string
	bindable := map[string][]string{}
	for _, k := range d.reg.Children() {
		kinds = append(kinds, k.Name)
		bindable[k.Name] = k.Bindable
	}
	p := lesson.Decode(n, r, kinds, bindable)
	files := map[string]*yaml.Node{}
	for _, s := range p.Slides.Value {
		for _, ref := range s.Children {
			d.decodeChildRef(s, ref, r, p.Name(s), files)
		}
	}
	return p
}

func (d *Document) decodeChildRef(s *lesson.Slide, ref lesson.ChildRef, r *yamlsrc.Reporter, path string, files map[string]*yaml.Node) {
	kind, _ := d.reg.Child(ref.Kind)
	key := session.Key{Placement: s.ID, Kind: ref.Kind}
	switch {
	case ref.Inline != nil:
		st := kind.Codec.Decode(ref.Inline, r, path+"."+ref.Kind)
		d.inline[key] = st
		d.decodedAt[key] = reportAt{file: r.File, path: path + "." + ref.Kind}
		d.warnShadowedProps(s, kind, st, r, path)
		warnMinutes(s, ref.Kind, st, ref.Inline, r, path)
	case ref.File != "":
		d.checkChildFile(key, ref, r, path, files)
	}
}

// warnShadowedProps flags bindings that will never apply because the child
// already has that property written.
func (d *Document) warnShadowedProps(s *lesson.Slide, kind *modality.Descriptor, st session.State, r *yamlsrc.Reporter, path string) {
	for _, name := range slices.Sorted(maps.Keys(s.Props)) {
		if slices.Contains(kind.Bindable, name) && kind.Codec.Written(st, name) {
			r.WarnAt(mapValue(s.Src, "props"), "%s.props.%s is ignored: the %s already sets %s", path, name, kind.Name, name)
		}
	}
}

// unwrapPath drops the "open FILE:" prefix the caller already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Session is the lesson's session: the one place every change goes through.
func (d *Document) Session() *session.Session { return d.root }

// View runs fn with the lesson plan under the session's read lock.
func (d *Document) View(fn func(p *lesson.Plan)) {
	d.root.View(func(st session.State) { fn(st.(*lesson.Plan)) })
}

// loader returns how to create the session of slide id's child ref.
func (d *Document) loader(id string, ref lesson.ChildRef) func() (*session.Session, error) {
	kind := ref.Kind
	desc, _ := d.reg.Child(kind)
	key := session.Key{Placement: id, Kind: kind}
	return func() (*session.Session, error) {
		var st session.State
		d.mu.Lock()
		_, missing := d.missing[key]
		d.mu.Unlock()
		switch {
		case missing:
			st = desc.Codec.Todo("")
		case ref.File != "":
			var err error
			if st, err = d.loadFile(key, desc, ref.File); err != nil {
				return nil, err
			}
		case ref.Inline != nil:
			d.mu.Lock()
			st = d.inline[key]
			d.mu.Unlock()
		default:
			st = desc.Codec.Todo(ref.Hint)
		}
		return session.New(childName(key), st), nil
	}
}

// childName names a child's session, as the run names its node:
// "slides/<id>/<kind>".
func childName(key session.Key) string { return "slides/" + key.Placement + "/" + key.Kind }

func (d *Document) loadFile(key session.Key, desc *modality.Descriptor, rel string) (session.State, error) {
	full := d.childFull(rel)
	data, err := d.readChild(rel, key.Kind)
	if err != nil {
		return nil, fmt.Errorf("%s of slide %q: %w", key.Kind, key.Placement, err)
	}
	src, err := yamlsrc.Parse(full, data)
	if err != nil {
		return nil, err
	}
	r := &yamlsrc.Reporter{File: full}
	var st session.State
	if hint, ok := yamlsrc.Pending(src.Root); ok {
		st = desc.Codec.Todo(hint)
	} else if checkChildRoot(src.Root, r, desc) {
		st = desc.Codec.Decode(src.Root, r, key.Kind)
	}
	if err := r.Problems.Err(); err != nil {
		r.Problems.Sort()
		return nil, r.Problems
	}
	d.mu.Lock()
	d.files[key] = src
	d.decodedAt[key] = reportAt{file: full, path: key.Kind}
	d.Warnings = append(d.Warnings, r.Problems.Warnings()...)
	d.mu.Unlock()
	return st, nil
}

// Child returns the session of slide id's child of kind, loading it if
// needed; session.ErrUnknownChild when the slide places none.
func (d *Document) Child(id, kind string) (*session.Session, error) {
	return d.root.WarmChild(session.Key{Placement: id, Kind: kind})
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

// ChildFiles lists the files of children the lesson names, relative to it.
func (d *Document) ChildFiles() []string {
	var files []string
	for _, c := range d.fileChildren() {
		files = append(files, c.ref.File)
	}
	return files
}

type fileChild struct {
	key session.Key
	ref lesson.ChildRef
}

// fileChildren lists the children kept in their own files, in order. The
// list is kept while the lesson's version stays, as during a run while its
// children are generated: a checkpoint does not go through every slide.
func (d *Document) fileChildren() []fileChild {
	version := d.root.Version()
	d.kidsMu.Lock()
	defer d.kidsMu.Unlock()
	if d.kids != nil && d.kids.version == version {
		return d.kids.list
	}
	var out []fileChild
	d.View(func(p *lesson.Plan) {
		for _, s := range p.Slides.Value {
			for _, ref := range s.Children {
				if ref.File != "" {
					out = append(out, fileChild{session.Key{Placement: s.ID, Kind: ref.Kind}, ref})
				}
			}
		}
	})
	d.kids = &fileChildren{version: version, list: out}
	return out
}

type fileChildren struct {
	version uint64
	list    []fileChild
}

// Render returns the files a save to out would write: children in their
// own files first, then the lesson. out "" means the lesson's own path.
// Unchanged files in place are skipped; when out is in another folder, every
// child file is written there too, so the copy is whole.
func (d *Document) Render(out string) ([]OutFile, error) {
	files, err := d.RenderChildren(out)
	if err != nil {
		return nil, err
	}
	out = d.outPath(out)
	moved := filepath.Clean(filepath.Dir(d.Path)) != filepath.Clean(filepath.Dir(out))
	data, reformatted, err := d.lessonBytes()
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", out, err)
	}
	if moved || !slices.Equal(data, d.src.Data) || filepath.Clean(out) != filepath.Clean(d.Path) {
		files = append(files, OutFile{Path: out, Data: data, Reformatted: reformatted})
	}
	return files, nil
}

// RenderChildren is Render without the lesson file: the files of children
// kept in their own files.
func (d *Document) RenderChildren(out string) ([]OutFile, error) {
	out = d.outPath(out)
	if err := d.checkOutputOnce(out); err != nil {
		return nil, err
	}
	inDir, outDir := filepath.Dir(d.Path), filepath.Dir(out)
	moved := filepath.Clean(inDir) != filepath.Clean(outDir)

	var files []OutFile
	for _, c := range d.fileChildren() {
		f, err := d.renderFile(c.key, c.ref.File, filepath.Join(outDir, c.ref.File), moved)
		if err == nil && f != nil && !moved {
			err = d.checkChildTarget(c.key, c.ref.File)
		}
		if err != nil {
			return nil, err
		}
		if f != nil {
			files = append(files, *f)
		}
	}
	return files, nil
}

// LessonBytes renders the lesson file alone, inline children included:
// the original bytes with only the changed spots spliced in.
func (d *Document) LessonBytes() ([]byte, error) {
	data, _, err := d.lessonBytes()
	return data, err
}

// lessonBytes renders the lesson file. A render costs what changed since
// the last: while the lesson itself is as it was (as loaded, or as last
// rendered: during a run, while its children are generated), only the
// slides whose inline children changed are encoded, spliced and checked
// (yamlsrc.ListPatcher.PatchItems); a change to the lesson renders it
// whole.
func (d *Document) lessonBytes() (data []byte, reformatted bool, err error) {
	d.renderMu.Lock()
	defer d.renderMu.Unlock()
	// The version is read first: a change made while encoding only makes
	// the next render start over.
	version := d.root.Version()
	if d.lp == nil {
		d.lp = d.src.NewListPatcher("slides")
	}
	if d.last == nil && version == 0 {
		// The lesson as loaded says what its file says: nothing to encode.
		d.last = &lessonRender{slides: map[int]*yaml.Node{}}
		d.View(func(p *lesson.Plan) { d.last.inline = inlineChildren(p) })
		d.lp.Seed()
	}
	last := d.last
	if last == nil || last.version != version {
		return d.renderLesson(version)
	}
	dirty := map[int]*yaml.Node{}
	for i := range last.inline {
		c := &last.inline[i]
		child, hot := d.root.HotChild(c.key)
		if !hot || child.Version() == 0 {
			continue // as loaded
		}
		if v := child.Version(); !c.hot || v != c.version {
			c.hot, c.version = true, v
			item := d.slideNode(last, c.item)
			if item == nil {
				return d.renderLesson(version)
			}
			setValue(item, c.key.Kind, d.encode(c.key.Kind, child))
			dirty[c.item] = item
		}
	}
	if len(dirty) == 0 {
		if last.data == nil {
			return d.src.Data, false, nil
		}
		return last.data, last.reformatted, nil
	}
	data, err = d.lp.PatchItems(dirty)
	if errors.Is(err, yamlsrc.ErrWhole) {
		return d.renderLesson(version)
	}
	if err != nil {
		d.last = nil
		return nil, false, err
	}
	last.data, last.reformatted = data, false
	return data, false, nil
}

// lessonTree encodes the lesson's own fields and lists its inline
// children with their slides' indexes. The caller holds the lesson's lock.
func lessonTree(p *lesson.Plan) (tree *yaml.Node, inline []inlineChild) {
	return yamlsrc.Encode(*p), inlineChildren(p)
}

// inlineNodes encodes the hot inline children among keys, each once, with
// only its own session locked (never inside the lesson's View).
func (d *Document) inlineNodes(lists ...[]inlineChild) map[session.Key]*yaml.Node {
	nodes := map[session.Key]*yaml.Node{}
	for _, list := range lists {
		for _, c := range list {
			if _, done := nodes[c.key]; done {
				continue
			}
			// Loaded but never changed: saved as read (see
			// renderLesson), so the lesson's own bytes stand.
			if child, hot := d.root.HotChild(c.key); hot && child.Version() > 0 {
				nodes[c.key] = d.encode(c.key.Kind, child)
			}
		}
	}
	return nodes
}

// splice puts each inline child's node into the lesson's tree; a child
// with no node (cold) keeps what the lesson holds.
func (d *Document) splice(tree *yaml.Node, inline []inlineChild, nodes map[session.Key]*yaml.Node) {
	items := mapValue(tree, "slides")
	if items == nil || items.Kind != yaml.SequenceNode {
		return
	}
	for _, c := range inline {
		if n, ok := nodes[c.key]; ok && c.item < len(items.Content) {
			setValue(items.Content[c.item], c.key.Kind, n)
		}
	}
}

// slideNode is slide i's node as last rendered: from the whole tree, or
// (the lesson as loaded) encoded once on its own.
func (d *Document) slideNode(r *lessonRender, i int) *yaml.Node {
	if r.items != nil {
		return r.items.Content[i]
	}
	if n, ok := r.slides[i]; ok {
		return n
	}
	var n *yaml.Node
	d.View(func(p *lesson.Plan) {
		if i < len(p.Slides.Value) {
			n = yamlsrc.Encode(p.Slides.Value[i])
		}
	})
	if n != nil && n.Kind == yaml.MappingNode {
		r.slides[i] = n
		return n
	}
	return nil
}

// inlineChildren lists the slides' inline children in order, with their
// slides' indexes.
func inlineChildren(p *lesson.Plan) []inlineChild {
	var out []inlineChild
	for i, s := range p.Slides.Value {
		for _, ref := range s.Children {
			if ref.File == "" {
				out = append(out, inlineChild{key: session.Key{Placement: s.ID, Kind: ref.Kind}, item: i})
			}
		}
	}
	return out
}

// renderLesson renders the lesson whole, at the lesson's version.
func (d *Document) renderLesson(version uint64) ([]byte, bool, error) {
	r := &lessonRender{version: version}
	// One look, so the slides' indexes are the tree's.
	d.View(func(p *lesson.Plan) { r.tree, r.inline = lessonTree(p) })
	r.items = mapValue(r.tree, "slides")
	if r.items == nil || r.items.Kind != yaml.SequenceNode {
		r.items, r.inline = nil, nil
	}
	for i := range r.inline {
		c := &r.inline[i]
		child, hot := d.root.HotChild(c.key)
		if !hot || child.Version() == 0 || c.item >= len(r.items.Content) {
			// Loaded to be looked at (the walk warms every child), never
			// changed: written as it was read, like a cold child.
			continue
		}
		c.hot, c.version = true, child.Version()
		setValue(r.items.Content[c.item], c.key.Kind, d.encode(c.key.Kind, child))
	}
	var err error
	r.data, r.reformatted, err = patchOrRender(r.tree, func() ([]byte, error) { return d.lp.Patch(r.tree) })
	d.last = nil
	if err == nil && r.items != nil {
		d.last = r
	}
	return r.data, r.reformatted, err
}

// patchOrRender splices tree into its file with patch; if the author's
// layout defeats splicing it renders the file fresh, keeping the data, and
// says so.
func patchOrRender(tree *yaml.Node, patch func() ([]byte, error)) ([]byte, bool, error) {
	data, err := patch()
	if errors.Is(err, yamlsrc.ErrUnsafePatch) {
		data, err = yamlsrc.Render(tree, 2)
		return data, true, err
	}
	return data, false, err
}

// encode writes a hot child back as a node, through its kind's codec.
func (d *Document) encode(kind string, child *session.Session) *yaml.Node {
	desc, _ := d.reg.Child(kind)
	var n *yaml.Node
	child.View(func(st session.State) { n = desc.Codec.Encode(st) })
	return n
}

func (d *Document) renderFile(key session.Key, rel, dest string, moved bool) (*OutFile, error) {
	d.mu.Lock()
	_, missing := d.missing[key]
	src := d.files[key]
	d.mu.Unlock()
	child, hot := d.root.HotChild(key)
	if missing {
		return d.renderNew(key, child, hot, dest)
	}
	if !hot || child.Version() == 0 && !moved {
		// Cold, or loaded and never changed: nothing to write in place.
		if !moved {
			return nil, nil
		}
		data, err := os.ReadFile(filepath.Join(filepath.Dir(d.Path), rel))
		if err != nil {
			return nil, fmt.Errorf("copy %s of slide %q: %w", key.Kind, key.Placement, err)
		}
		return &OutFile{Path: dest, Data: data}, nil
	}
	// A child unchanged since the last render renders as it did then.
	version := child.Version()
	d.renderMu.Lock()
	defer d.renderMu.Unlock()
	if last, ok := d.fileLast[key]; ok && last.version == version && last.dest == dest {
		return last.out, nil
	}
	tree := d.encode(key.Kind, child)
	data, reformatted, err := patchOrRender(tree, func() ([]byte, error) { return src.Patch(tree) })
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", dest, err)
	}
	var out *OutFile
	if moved || !slices.Equal(data, src.Data) {
		out = &OutFile{Path: dest, Data: data, Reformatted: reformatted}
	}
	if d.fileLast == nil {
		d.fileLast = map[session.Key]fileRender{}
	}
	d.fileLast[key] = fileRender{version: version, dest: dest, out: out}
	return out, nil
}

// renderNew renders a child whose file did not exist at load as a new
// file, the way its codec encodes it; nothing while the child is untouched
// (still one pending marker), so the file stays missing and pending.
func (d *Document) renderNew(key session.Key, child *session.Session, hot bool, dest string) (*OutFile, error) {
	if !hot {
		return nil, nil
	}
	n := d.encode(key.Kind, child)
	if _, untouched := yamlsrc.Pending(n); untouched {
		return nil, nil
	}
	data, err := yamlsrc.Render(n, 2)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", dest, err)
	}
	return &OutFile{Path: dest, Data: data}, nil
}

// NewFile returns the file, as the lesson names it, that slide id's child
// of kind will be created in: "" unless that file did not exist at load.
func (d *Document) NewFile(id, kind string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.missing[session.Key{Placement: id, Kind: kind}]
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
// child files before the lesson that refers to them.
func (d *Document) Save(out string) error {
	atts, err := d.attachments(out, nil)
	if err != nil {
		return err
	}
	for _, a := range atts {
		if a.file.Path == "" {
			continue
		}
		if _, err := writeAttachment(a.base, a.file); err != nil {
			return err
		}
	}
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

// mapValue returns the value for key in mapping m, or m itself so a problem
// still has a position.
func mapValue(m *yaml.Node, key string) *yaml.Node {
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
