package compose

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/session"
)

// FileChange is the file that holds a node, as saving would write it now
// and with a previewed change.
type FileChange struct {
	Path          string
	Before, After []byte
}

// Stage is the approval prompt's half of the save path, in two steps to
// fit session.Preview. Stage itself runs under sess's lock with st, the
// state a previewed change leaves sess in, and only encodes st. The
// function it returns runs once the change is reversed and the lock
// released: it encodes the rest of the file as it stands, once, and
// splices both versions into the file's bytes as a save would, so the
// two differ by this change only.
func (d *Document) Stage(sess *session.Session, st session.State) func() (FileChange, error) {
	if sess == d.root {
		p, ok := st.(*lesson.Plan)
		if !ok {
			return stageErr(fmt.Errorf("the lesson's state is a %T", st))
		}
		after, afterInline := lessonTree(p)
		return func() (FileChange, error) {
			var before *yaml.Node
			var beforeInline []inlineChild
			d.View(func(p *lesson.Plan) { before, beforeInline = lessonTree(p) })
			nodes := d.inlineNodes(beforeInline, afterInline)
			d.splice(before, beforeInline, nodes)
			d.splice(after, afterInline, nodes)
			return pair(d.Path, d.src, before, after)
		}
	}
	// The kind ends the child's name; which slide holds it is looked up
	// after the lock is released, as that reads the lesson.
	name := sess.Name()
	desc, ok := d.reg.Child(name[strings.LastIndex(name, "/")+1:])
	if !ok || desc.Codec == nil {
		return stageErr(fmt.Errorf("%s is not a child of %s", name, d.Path))
	}
	node := desc.Codec.Encode(st)
	return func() (FileChange, error) {
		key, file, ok := d.childOf(name)
		if !ok {
			return FileChange{}, fmt.Errorf("%s is not a child of %s", name, d.Path)
		}
		if file != "" {
			d.mu.Lock()
			src := d.files[key]
			_, missing := d.missing[key]
			d.mu.Unlock()
			if missing {
				// A file that did not exist at load is written whole,
				// as renderNew does; while untouched it is still absent.
				return pairNew(d.childFull(file), d.encode(key.Kind, sess), node)
			}
			if src == nil {
				return FileChange{}, fmt.Errorf("%s is not loaded", file)
			}
			return pair(d.childFull(file), src, d.encode(key.Kind, sess), node)
		}
		// Inline: the lesson file, with this child as it is and as it
		// would be, and every other child encoded once for both.
		var before, after *yaml.Node
		var inline []inlineChild
		d.View(func(p *lesson.Plan) {
			before, inline = lessonTree(p)
			after, _ = lessonTree(p)
		})
		nodes := d.inlineNodes(inline) // this child's as it is among them
		d.splice(before, inline, nodes)
		nodes[key] = node
		d.splice(after, inline, nodes)
		return pair(d.Path, d.src, before, after)
	}
}

func stageErr(err error) func() (FileChange, error) {
	return func() (FileChange, error) { return FileChange{}, err }
}

// childOf finds the child whose session is named name: its key and, when
// it is kept in its own file, that file (relative to the lesson).
func (d *Document) childOf(name string) (key session.Key, file string, ok bool) {
	d.View(func(p *lesson.Plan) {
		for _, s := range p.Slides.Value {
			for _, ref := range s.Children {
				k := session.Key{Placement: s.ID, Kind: ref.Kind}
				if childName(k) == name {
					key, file, ok = k, ref.File, true
					return
				}
			}
		}
	})
	return key, file, ok
}

// pairNew renders both trees as a new file, as renderNew would: nothing
// while the child is untouched (one pending marker), as no file is made.
func pairNew(path string, before, after *yaml.Node) (FileChange, error) {
	render := func(n *yaml.Node) ([]byte, error) {
		if _, untouched := yamlsrc.Pending(n); untouched {
			return nil, nil
		}
		return yamlsrc.Render(n, 2)
	}
	b, err := render(before)
	var a []byte
	if err == nil {
		a, err = render(after)
	}
	if err != nil {
		return FileChange{}, fmt.Errorf("preview %s: %w", path, err)
	}
	return FileChange{Path: path, Before: b, After: a}, nil
}

// pair splices both trees into src's bytes, as a save would.
func pair(path string, src *yamlsrc.Source, before, after *yaml.Node) (FileChange, error) {
	b, _, err := patchOrRender(before, func() ([]byte, error) { return src.Patch(before) })
	var a []byte
	if err == nil {
		a, _, err = patchOrRender(after, func() ([]byte, error) { return src.Patch(after) })
	}
	if err != nil {
		return FileChange{}, fmt.Errorf("preview %s: %w", path, err)
	}
	return FileChange{Path: path, Before: b, After: a}, nil
}
