package compose

import (
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/lesson"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// FileRefs are the citations one file holds.
type FileRefs struct {
	File string
	Refs []sources.Ref
}

// Citations lists every citation in the lesson and its children, by the
// file each is written in: the lesson's first, then each child's in slide
// order. Children not loaded yet are loaded (call LoadAll first to see
// their problems).
func (d *Document) Citations() []FileRefs {
	var lessonRefs []sources.Ref
	d.View(func(p *lesson.Plan) { lessonRefs = p.Citations() })
	out := []FileRefs{{File: d.Path, Refs: lessonRefs}}
	for _, key := range d.root.Children() {
		child, err := d.root.WarmChild(key)
		if err != nil {
			continue
		}
		var refs []sources.Ref
		child.View(func(st session.State) {
			if c, ok := st.(modality.Citer); ok {
				refs = c.Citations()
			}
		})
		if len(refs) == 0 {
			continue
		}
		// The child names its items; the slide and kind say whose they
		// are, as its load problems do.
		d.mu.Lock()
		at := d.decodedAt[key]
		d.mu.Unlock()
		for i := range refs {
			refs[i].Where = at.path + ": " + refs[i].Where
		}
		file := at.file
		out = append(out, FileRefs{File: file, Refs: refs})
	}
	return out
}
