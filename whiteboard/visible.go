package whiteboard

// VisibleText lists the text the board shows, by where it is: "heading"
// and each element id (its text, label, LaTeX, code and output, or a
// table's written cells), for checks that look
// across a slide (a quiz's answers must not be on its board).
func (b *Board) VisibleText() map[string]string {
	out := map[string]string{}
	if h, ok := b.Heading.Get(); ok {
		out["heading"] = h
	}
	for _, e := range b.Elements.Value {
		if e.IsPlaceholder {
			continue
		}
		for _, f := range []interface{ Get() (string, bool) }{e.Text, e.Label, e.Latex, e.Code, e.Output} {
			if v, ok := f.Get(); ok && v != "" {
				out[e.ID] += v + " "
			}
		}
		if e.Header.Set {
			for _, row := range e.tableRows() {
				for _, c := range row {
					if c != "" {
						out[e.ID] += c + " "
					}
				}
			}
		}
	}
	return out
}
