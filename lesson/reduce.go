package lesson

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/lessongen/lessongen/internal/itemlist"
	"github.com/lessongen/lessongen/internal/nodemeta"
	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/sources"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// Reports: what a reduce tells whoever dispatched the intent.
type (
	Set          = nodemeta.Set
	SlideAdded   = itemlist.Added
	SlideChanged = itemlist.Changed
	SlideMoved   = itemlist.Moved
	SlideRemoved = itemlist.Removed
	Closed       = itemlist.Closed
)

// Reduce applies one intent. Every applyTo builds an exact inverse that
// touches only what it changed, so undo (like dispatch) costs the same for a
// lesson of 20 slides as for one of 2,000.
func (p *Plan) Reduce(rc *session.Context, in session.Intent) (func(), error) {
	if a, ok := in.(planIntent); ok {
		return a.applyTo(p, rc)
	}
	return nil, session.Reject(session.KindInvalidArgs, "", "", "a lesson cannot apply %T", in)
}

// planIntent is an intent a plan applies, each by its own applyTo
// (apply.go).
type planIntent interface {
	applyTo(p *Plan, rc *session.Context) (func(), error)
}

// Recompile marks bindings stale: all of them when metadata or the slide
// order changed (an O(1) epoch bump), else only the slide that changed.
func (p *Plan) Recompile(_ *session.Context, in session.Intent) {
	switch in := in.(type) {
	case UpdateSlide:
		p.bindCache.forget(in.ID)
	case SetSlideProps:
		p.bindCache.forget(in.ID)
	default:
		p.metaEpoch++
	}
}

func setText(p *Plan, rc *session.Context, f *yamlsrc.Field[string], name, v string) (func(), error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, session.Reject(session.KindInvalidArgs, name, "give a non-empty value", "%s is empty", name)
	}
	return setField(p, rc, f, name, v)
}

// setField sets a metadata field. What the author wrote stays; what
// generation set in this session may be set again.
func setField[T any](p *Plan, rc *session.Context, f *yamlsrc.Field[T], name string, v T) (func(), error) {
	if p.Protect && f.Set && !p.generated[name] {
		return nil, session.Reject(session.KindPrecondition, name, "the author wrote it; leave it as it is", "%s is already set", name)
	}
	old, wasGenerated := *f, p.generated[name]
	*f = yamlsrc.Val(v)
	if p.generated == nil {
		p.generated = map[string]bool{}
	}
	p.generated[name] = true
	rc.Report(Set{Field: name, Value: v})
	return func() { *f, p.generated[name] = old, wasGenerated }, nil
}

// defineTerm fills one pending definition, leaving every other term (and
// so every byte the author wrote) as it was.
func (p *Plan) defineTerm(rc *session.Context, in DefineTerm) (func(), error) {
	v := &p.Metadata.Vocabulary
	if !v.Set {
		return nil, session.Reject(session.KindPrecondition, "term", "the vocabulary has no list yet; use set_vocabulary", "no vocabulary to define %q in", in.Term)
	}
	name := strings.TrimSpace(in.Term)
	named := func(t Term) bool { return !t.IsPlaceholder && strings.EqualFold(strings.TrimSpace(t.Term), name) }
	// A term listed twice is defined where a definition is wanted.
	i := slices.IndexFunc(v.Value, func(t Term) bool { return named(t) && (t.definitionPending || t.defined) })
	if i < 0 {
		i = slices.IndexFunc(v.Value, named)
	}
	if i < 0 {
		return nil, session.Reject(session.KindNotFound, "term", awaiting(v.Value), "no term %q in the vocabulary", in.Term)
	}
	t := v.Value[i]
	if p.Protect && !t.definitionPending && !t.defined {
		hint := "the author wrote its definition; leave it"
		if t.bare || t.noDefinition {
			hint = "the author listed it without a definition on purpose; leave it"
		}
		return nil, session.Reject(session.KindPrecondition, "term", hint+"; "+awaiting(v.Value), "%q needs no definition", t.Term)
	}
	def := strings.TrimSpace(in.Definition)
	if def == "" {
		return nil, session.Reject(session.KindInvalidArgs, "definition", "give a non-empty value", "definition is empty")
	}
	if err := p.newCitations(t.Sources, t.defined, in.Sources); err != nil {
		return nil, err
	}
	old := v.Value
	t.Definition, t.definitionPending, t.definitionHint, t.defined = def, false, "", true
	if in.Sources != nil {
		t.Sources = slices.Clone(in.Sources)
	}
	v.Value = slices.Clone(old)
	v.Value[i] = t
	rc.Report(Set{Field: fmt.Sprintf("vocabulary[%s].definition", t.Term), Value: def})
	return func() { v.Value = old }, nil
}

// respond fills one pending response, leaving every other byte as it was.
func (p *Plan) respond(rc *session.Context, in RespondToMisconception) (func(), error) {
	mc := &p.Metadata.Misconceptions
	if !mc.Set {
		return nil, session.Reject(session.KindPrecondition, "misconception", "the lesson lists no misconceptions yet; use set_misconceptions", "no misconceptions to respond to")
	}
	name := sameText(in.Misconception)
	i := slices.IndexFunc(mc.Value, func(c Misconception) bool {
		return !c.IsPlaceholder && sameText(c.Misconception) == name && (c.responsePending || c.answered)
	})
	if i < 0 {
		i = slices.IndexFunc(mc.Value, func(c Misconception) bool { return !c.IsPlaceholder && sameText(c.Misconception) == name })
	}
	if i < 0 {
		return nil, session.Reject(session.KindNotFound, "misconception", awaitingResponse(mc.Value), "no misconception %q in the lesson", in.Misconception)
	}
	c := mc.Value[i]
	if p.Protect && !c.responsePending && !c.answered {
		return nil, session.Reject(session.KindPrecondition, "misconception", "the author wrote its response; leave it; "+awaitingResponse(mc.Value), "%q has a response", c.Misconception)
	}
	resp := strings.TrimSpace(in.Response)
	if resp == "" {
		return nil, session.Reject(session.KindInvalidArgs, "response", "give a non-empty value", "response is empty")
	}
	if err := p.newCitations(c.Sources, c.answered, in.Sources); err != nil {
		return nil, err
	}
	old := mc.Value
	c.Response, c.responsePending, c.responseHint, c.answered = resp, false, "", true
	if in.Sources != nil {
		c.Sources = slices.Clone(in.Sources)
	}
	mc.Value = slices.Clone(old)
	mc.Value[i] = c
	rc.Report(Set{Field: fmt.Sprintf("misconceptions[%d].response", i), Value: resp})
	return func() { mc.Value = old }, nil
}

// newCitations checks the citations given with a filled item: the
// author's own citations stay as written (ours, from an earlier fill in
// this session, may be replaced).
func (p *Plan) newCitations(had []string, ours bool, given []string) error {
	if given == nil {
		return nil
	}
	if p.Protect && len(had) > 0 && !ours {
		return session.Reject(session.KindPrecondition, "sources", "the author's citations stay as written; pass no sources", "the author cited its sources")
	}
	return sources.CheckList(given)
}

// sameText compares sentences as a person would: case, spacing and a
// final full stop aside.
func sameText(s string) string {
	return strings.ToLower(strings.TrimSuffix(strings.Join(strings.Fields(s), " "), "."))
}

func unanswered(items []Misconception) []string {
	var out []string
	for _, c := range items {
		if c.responsePending {
			out = append(out, fmt.Sprintf("%q", c.Misconception))
		}
	}
	return out
}

func awaitingResponse(items []Misconception) string {
	names := unanswered(items)
	if len(names) == 0 {
		return "no response is pending"
	}
	return "misconceptions awaiting a response: " + strings.Join(names, ", ")
}

// undefined lists the terms whose definitions are still to be written.
func undefined(terms []Term) []string {
	var names []string
	for _, t := range terms {
		if t.definitionPending {
			names = append(names, t.Term)
		}
	}
	return names
}

// awaiting says which terms await a definition, as a hint.
func awaiting(terms []Term) string {
	names := undefined(terms)
	if len(names) == 0 {
		return "no definition is pending"
	}
	return "terms awaiting a definition: " + strings.Join(names, ", ")
}

// cleanList is cleanItems for a list of plain text.
func cleanList(name string, items []string, r rule.Rule) ([]string, error) {
	out, err := cleanItems(name, Items(items...), r)
	if err != nil {
		return nil, err
	}
	return Texts(out), nil
}

// citesAt checks the sources list of one item of a list argument.
func citesAt(path string, list []string) error {
	err := sources.CheckList(list)
	if e, ok := session.AsError(err); ok {
		e.Path = path
	}
	return err
}

// cleanItems trims a list argument's items, drops empty ones, checks
// each item's citations and the count r allows.
func cleanItems(name string, items []Item, r rule.Rule) ([]Item, error) {
	var out []Item
	for i, it := range items {
		if it.Text = strings.TrimSpace(it.Text); it.Text == "" {
			continue
		}
		if err := citesAt(fmt.Sprintf("%s[%d].sources", name, i), it.Sources); err != nil {
			return nil, err
		}
		it.Sources = slices.Clone(it.Sources)
		out = append(out, it)
	}
	if len(out) == 0 || !r.Count(len(out)) {
		return nil, session.Reject(session.KindInvalidArgs, name, "give "+r.Items()+" non-empty items", "%d items", len(out))
	}
	return out, nil
}

func (p *Plan) addSlide(rc *session.Context, in AddSlide) (func(), error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return nil, session.Reject(session.KindInvalidArgs, "title", "give the slide a title", "title is empty")
	}
	children := p.briefs(in.Briefs)
	if len(children) == 0 && len(p.kinds) > 0 {
		first := p.kinds[0]
		return nil, session.Reject(session.KindInvalidArgs, first, fmt.Sprintf("say in a sentence what the %s should show", first), "%s brief is empty", first)
	}
	if r := slideMinutes(); !r.In(float64(in.DurationMinutes)) {
		return nil, session.Reject(session.KindInvalidArgs, "duration_minutes", "a slide takes "+r.Range()+" minutes", "%d minutes is out of range", in.DurationMinutes)
	}
	if in.ID != "" {
		if err := session.CheckChosenID(in.ID, p.list().Taken); err != nil {
			return nil, err
		}
	}
	if err := sources.CheckList(in.Sources); err != nil {
		return nil, err
	}
	section, err := p.checkSlideSection(in.Section)
	if err != nil {
		return nil, err
	}
	id := in.ID
	if id == "" {
		id = p.newID(title)
	}
	s := &Slide{
		ID:              id,
		Title:           yamlsrc.Val(title),
		Section:         optional(section),
		DurationMinutes: yamlsrc.Val(in.DurationMinutes),
		Notes:           optional(in.Notes),
		Sources:         slices.Clone(in.Sources),
		Children:        children,
	}
	// A pending slide list becomes a list holding one placeholder, so that
	// partial work and the remaining hint can both be saved.
	ph, undo, err := p.list().Add(s, in.PendingID, in.Position)
	if err != nil {
		return nil, err
	}
	rep := SlideAdded{ID: s.ID}
	rep.Position, _ = p.Position(s.ID)
	if ph != nil {
		rep.PendingID = ph.PlaceholderID
	}
	rc.Report(rep)
	return undo, nil
}

// briefs places the new slide's children, pending with their briefs, in
// the order kinds are registered: each kind given a brief that is
// registered.
func (p *Plan) briefs(briefs map[string]string) Children {
	var c Children
	for _, kind := range p.kinds {
		if hint := strings.TrimSpace(briefs[kind]); hint != "" {
			c = append(c, ChildRef{Kind: kind, Hint: hint, Pending: true})
		}
	}
	return c
}

func optional(v string) yamlsrc.Field[string] {
	if v = strings.TrimSpace(v); v != "" {
		return yamlsrc.Val(v)
	}
	return yamlsrc.Field[string]{}
}

// maxSlugID is about where a slide id made from a title stops: it ends at
// the last whole word that fits, never mid-word.
const maxSlugID = 32

// newID derives a readable, unique id from the title: "Light reactions" →
// "light-reactions", then "light-reactions-2".
func (p *Plan) newID(title string) string {
	base := slug(title)
	if base == "" {
		base = "slide"
	}
	return p.list().Free(base)
}

// slug makes an id of a title, "" when it has no letters or digits. It
// keeps whole words: the first always (up to twice maxSlugID), then each
// next one while the id stays within maxSlugID.
func slug(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	})
	base := ""
	for i, w := range words {
		if i > 0 && len(base)+1+len(w) > maxSlugID {
			break
		}
		// A single word this long is no word; bound the id anyway.
		w = w[:min(len(w), 2*maxSlugID)]
		if base != "" {
			base += "-"
		}
		base += w
	}
	// An id starts with a letter, as a chosen one must (session.CheckChosenID):
	// a slide titled "1969" is slide-1969, so its id never reads as the
	// position fill --slide also accepts.
	if base != "" && !unicode.IsLetter(rune(base[0])) {
		base = "slide-" + base
	}
	return base
}

func (p *Plan) updateSlide(rc *session.Context, in UpdateSlide) (func(), error) {
	s, ok := p.list().Get(in.ID)
	if !ok {
		return nil, p.list().NotFound("id", in.ID)
	}
	before := *s
	var fields []string
	restore := func() { *s = before }
	check := func(name string, pending bool) error {
		if s.Authored && p.Protect && !pending {
			return session.Reject(session.KindPrecondition, name, "only the author's pending fields can be filled", "%s of slide %q was written by the author", name, s.ID)
		}
		return nil
	}
	for _, f := range []struct {
		name  string
		value *string
		field *yamlsrc.Field[string]
	}{{"title", in.Title, &s.Title}, {"section", in.Section, &s.Section}, {"notes", in.Notes, &s.Notes}} {
		if f.value == nil {
			continue
		}
		if err := check(f.name, f.field.Pending); err != nil {
			restore()
			return nil, err
		}
		v := strings.TrimSpace(*f.value)
		if v == "" {
			restore()
			return nil, session.Reject(session.KindInvalidArgs, f.name, "give a non-empty value", "%s is empty", f.name)
		}
		if f.name == "section" {
			var err error
			if v, err = p.checkSlideSection(v); err != nil {
				restore()
				return nil, err
			}
		}
		*f.field = yamlsrc.Val(v)
		fields = append(fields, f.name)
	}
	if in.DurationMinutes != nil {
		if err := check("duration_minutes", s.DurationMinutes.Pending); err != nil {
			restore()
			return nil, err
		}
		if r := slideMinutes(); !r.In(float64(*in.DurationMinutes)) {
			restore()
			return nil, session.Reject(session.KindInvalidArgs, "duration_minutes", "a slide takes "+r.Range()+" minutes", "%d minutes is out of range", *in.DurationMinutes)
		}
		s.DurationMinutes = yamlsrc.Val(*in.DurationMinutes)
		fields = append(fields, "duration_minutes")
	}
	if len(fields) > 0 {
		s.wrote = true
	}
	if in.Sources != nil {
		// Citations of what the model wrote are the model's: on an
		// author's slide it may cite once it filled a field there.
		switch {
		case !s.Authored || !p.Protect:
		case s.Cited:
			restore()
			return nil, session.Reject(session.KindPrecondition, "sources", "the author's citations stay as written; pass no sources", "sources of slide %q were written by the author", s.ID)
		case !s.wrote:
			restore()
			return nil, session.Reject(session.KindPrecondition, "sources", "cite what you write: fill the slide's pending fields in this call and give their sources with them", "slide %q was written by the author and you filled none of it, so there is nothing of yours to cite", s.ID)
		}
		if err := sources.CheckList(in.Sources); err != nil {
			restore()
			return nil, err
		}
		s.Sources = slices.Clone(in.Sources)
		fields = append(fields, "sources")
	}
	if len(fields) == 0 {
		return nil, session.Reject(session.KindInvalidArgs, "", "set at least one of title, section, duration_minutes, notes, sources", "nothing to change")
	}
	rc.Report(SlideChanged{ID: s.ID, Fields: fields})
	return restore, nil
}

func (p *Plan) moveSlide(rc *session.Context, in MoveSlide) (func(), error) {
	s, err := p.list().Editable(in.ID, p.Protect)
	if err != nil {
		return nil, err
	}
	undo, err := p.list().Move(s, in.Position)
	if err != nil {
		return nil, err
	}
	rc.Report(SlideMoved{ID: s.ID, Position: in.Position})
	return undo, nil
}

func (p *Plan) removeSlide(rc *session.Context, in RemoveSlide) (func(), error) {
	s, err := p.list().Editable(in.ID, p.Protect)
	if err != nil {
		return nil, err
	}
	undo := p.list().Remove(s)
	rc.Report(SlideRemoved{ID: s.ID})
	return undo, nil
}

func (p *Plan) closePlaceholders(rc *session.Context) (func(), error) {
	closed, undo := p.list().Close()
	rc.Report(Closed{Placeholders: closed})
	return undo, nil
}
