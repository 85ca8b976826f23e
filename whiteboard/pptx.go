package whiteboard

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"sync"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/internal/textfit"
	"github.com/lessongen/lessongen/modality"
)

// RenderPPTX draws the whiteboard as native PowerPoint shapes in frame:
// the canvas scaled to fit (centred), one shape per element named by its
// id — text boxes, rectangles, ellipses and lines with their fill and
// outline, arrows as connectors glued to the shapes they join, images as
// pictures with their alt text, equations as Office Math with the LaTeX as
// alt text — and pending spots as dashed placeholders with their hints, as
// the HTML render draws them.
func RenderPPTX(b *Board, bound map[string]string, frame pptx.Box) modality.PPTXRendered {
	c := b.CanvasSize()
	m := newMapper(c, frame)
	var out modality.PPTXRendered
	add := func(s pptx.Shape) { out.Shapes = append(out.Shapes, s) }
	if bg, ok := pptxColor(c.Background); ok && c.Background != "" {
		add(&pptx.Sp{Name: "canvas", Box: m.box(textfit.Box{W: float64(c.Width), H: float64(c.Height)}), Fill: bg})
	}
	g := b.Geometry()
	heading := b.Heading.Value
	if !b.Heading.Set && bound["heading"] != "" {
		heading = bound["heading"]
	}
	switch {
	case heading != "":
		out.Title = &pptx.Sp{Name: "heading", Box: m.box(g.Heading), Anchor: "t", Inset: 1,
			Paras: []pptx.Para{{Runs: []pptx.Run{{Text: heading, Size: m.pt(g.HeadingFontSize), Bold: true, Color: pptx.RGB("1B1F24")}}}}}
		add(out.Title)
	case b.Heading.Pending:
		add(m.placeholder("heading", g.Heading, "heading", b.Heading.Hint))
	}
	if b.Elements.Pending {
		top := 20.0
		if b.hasHeading() {
			top = g.ContentTop
		}
		add(m.placeholder("elements", textfit.Box{X: 20, Y: top, W: float64(c.Width) - 40, H: float64(c.Height) - top - 20}, "elements", b.Elements.Hint))
	}
	// Shapes first, arrows after (over them), as the HTML draws them; an
	// arrow is glued to the shapes it joins.
	drawn := map[string]glued{}
	below := 0
	for _, e := range b.elements() {
		if e.IsPlaceholder {
			box, ok := b.placeholderBox(e, c)
			if !ok {
				// No room on the canvas: a strip along its foot, one per
				// pending element, so none is hidden.
				below++
				box = textfit.Box{X: g.Margin, Y: float64(c.Height) - 8 - 40*float64(below), W: float64(c.Width) - 2*g.Margin, H: 36}
			}
			name := e.ID
			if name == "" {
				name = "pending element"
			}
			add(m.placeholder(name, box, "element", e.Hint))
			continue
		}
		if e.Type == KindArrow {
			continue
		}
		s := m.element(e)
		switch sh := s.(type) {
		case *pptx.Sp:
			drawn[e.ID] = glued{sh, sh.Geom}
		case *pptx.Math:
			drawn[e.ID] = glued{sh, "rect"}
		case *pptx.Group:
			// A picture with its credit, code with its output: an arrow
			// is glued to the first, the picture or the code panel.
			switch first := sh.Shapes[0].(type) {
			case *pptx.Pic:
				drawn[e.ID] = glued{first, "rect"}
			case *pptx.Sp:
				drawn[e.ID] = glued{first, first.Geom}
			}
		}
		add(s)
	}
	for _, e := range b.elements() {
		if !e.IsPlaceholder && e.Type == KindArrow {
			for _, s := range b.arrowPPTX(m, e, drawn) {
				add(s)
			}
		}
	}
	for _, e := range b.elements() {
		if !e.IsPlaceholder && len(e.Sources) > 0 {
			out.Notes = append(out.Notes, pptx.Text("Whiteboard sources: "+string(e.Type)+" "+e.ID+": "+strings.Join(e.Sources, ", "), 0, false, pptx.Color{}))
		}
	}
	return out
}

// mapper maps canvas pixels into the frame: one scale for both axes,
// centred.
type mapper struct {
	scale  float64 // EMU per px
	ox, oy float64
}

func newMapper(c Canvas, f pptx.Box) mapper {
	w, h := float64(max(c.Width, 1)), float64(max(c.Height, 1))
	s := math.Min(float64(f.W)/w, float64(f.H)/h)
	return mapper{scale: s, ox: float64(f.X) + (float64(f.W)-w*s)/2, oy: float64(f.Y) + (float64(f.H)-h*s)/2}
}

func (m mapper) x(v float64) int64 { return int64(math.Round(m.ox + v*m.scale)) }
func (m mapper) y(v float64) int64 { return int64(math.Round(m.oy + v*m.scale)) }

func (m mapper) box(b textfit.Box) pptx.Box {
	x, y := m.x(b.X), m.y(b.Y)
	return pptx.Box{X: x, Y: y, W: m.x(b.X+b.W) - x, H: m.y(b.Y+b.H) - y}
}

// pt is a font size in canvas px as points on the slide.
func (m mapper) pt(px float64) float64 {
	if px <= 0 {
		px = textfit.DefaultFontSize
	}
	return math.Round(px*m.scale/pptx.EMUPerPoint*10) / 10
}

// pptxColor is a CSS colour as DrawingML's; false for none or transparent.
func pptxColor(c Color) (pptx.Color, bool) {
	if c == "" {
		return pptx.Color{}, false
	}
	v, ok := c.parse()
	if !ok || v.a == 0 {
		return pptx.Color{}, false
	}
	out := pptx.Color{Hex: strings.TrimPrefix(string(v.hex()), "#")}
	if v.a < 1 {
		out.Alpha = v.a
	}
	return out, true
}

// line is an outline of colour c, width w px.
func (m mapper) line(c Color, w float64) *pptx.Line {
	col, ok := pptxColor(c)
	if !ok {
		return nil
	}
	return &pptx.Line{Color: col, Width: math.Max(w*m.scale/pptx.EMUPerPoint, 0.5)}
}

func align(a string) string {
	switch a {
	case "center":
		return "ctr"
	case "right":
		return "r"
	case "left":
		return "l"
	}
	return ""
}

// text is a paragraph of e's text in its style.
func (m mapper) text(e *Element, s string, def string) []pptx.Para {
	text, _, _ := e.inks()
	col, _ := pptxColor(text)
	st := e.renderStyle()
	a := def
	if e.Style != nil && e.Style.Align != "" {
		a = align(e.Style.Align)
	}
	return []pptx.Para{{Runs: []pptx.Run{{Text: s, Size: m.pt(st.FontSize), Bold: st.Bold, Color: col}}, Align: a}}
}

func (m mapper) element(e *Element) pptx.Shape {
	_, stroke, fillInk := e.inks()
	fill, _ := pptxColor(fillInk)
	box := e.box()
	switch e.Type {
	case KindText:
		if e.Text.Pending {
			return m.placeholder(e.ID, box, "text", e.Text.Hint)
		}
		sp := &pptx.Sp{Name: e.ID, Box: m.box(box), Fill: fill, Paras: m.text(e, e.Text.Value, ""), Inset: 1}
		if e.Style != nil && e.Style.Stroke != "" {
			sp.Line = m.line(stroke, e.strokeWidth(2))
		}
		return sp
	case KindShape:
		sp := &pptx.Sp{Name: e.ID, Box: m.box(box), Fill: fill, Line: m.line(stroke, e.strokeWidth(3)), Anchor: "ctr", Geom: "roundRect"}
		switch e.Shape {
		case "ellipse", "circle":
			sp.Geom = "ellipse"
		case "line":
			sp.Geom, sp.Fill = "line", pptx.Color{}
		}
		switch {
		case e.Label.Pending:
			sp.Paras = m.text(e, PendingLabel+e.Label.Hint, "ctr")
		case e.Label.Value != "":
			sp.Paras = m.text(e, e.Label.Value, "ctr")
		}
		return sp
	case KindEquation:
		if e.Latex.Pending {
			return m.placeholder(e.ID, box, "equation", e.Latex.Hint)
		}
		text, _, _ := e.inks()
		col, _ := pptxColor(text)
		size := m.pt(math.Min(48, box.H*0.6))
		if e.Style != nil && e.Style.FontSize > 0 {
			size = m.pt(e.Style.FontSize)
		}
		a := "ctr"
		if e.Style != nil && e.Style.Align != "" {
			a = align(e.Style.Align)
		}
		pic, at := equationPicture(e.Latex.Value, box, e.renderStyle(), text, pictureDPI*m.scale/(72*pptx.EMUPerPoint))
		return &pptx.Math{Name: e.ID, Descr: e.Latex.Value, Box: m.box(box), Math: latexMath(e.Latex.Value), Size: size, Color: col, Align: a,
			Picture: pic, PictureBox: m.box(at)}
	case KindCode:
		return m.codePPTX(e)
	case KindTable:
		return m.tablePPTX(e)
	case KindBlank:
		return m.blankPPTX(e)
	case KindImage:
		if sh := e.picturePPTX(m, box); sh != nil {
			return sh
		}
		description, alt := e.imageText()
		caption := "Image: " + fieldText(description.Value, description.Pending, description.Hint)
		inner := textfit.Box{X: box.X + 10, Y: box.Y + 10, W: max(box.W-20, 0), H: max(box.H-20, 0)}
		return &pptx.Group{Name: e.ID, Shapes: []pptx.Shape{
			&pptx.Pic{Name: e.ID + " picture", Descr: fieldText(alt.Value, alt.Pending, alt.Hint), Title: description.Value, Box: m.box(box), PNG: placeholderPNG()},
			&pptx.Sp{Name: e.ID + " caption", Box: m.box(inner), Paras: []pptx.Para{pptx.Text(caption, m.pt(min(20, max(box.H/6, 10))), false, pptx.RGB("3D4852"))}},
		}}
	}
	return &pptx.Sp{Name: e.ID, Box: m.box(box)}
}

// arrowPPTX draws an arrow where the HTML draws it (arrowLine), as a
// connector glued to the shapes at its ends, with its label at the
// midpoint; an arrow naming a missing element is a note in red.
// glued is a shape an arrow can be glued to, with its preset geometry.
type glued struct {
	shape pptx.Target
	geom  string
}

func (b *Board) arrowPPTX(m mapper, e *Element, drawn map[string]glued) []pptx.Shape {
	_, stroke, _ := e.inks()
	x1, y1, x2, y2, ok := b.arrowLine(e)
	if !ok {
		return []pptx.Shape{&pptx.Sp{Name: e.ID, Box: m.box(textfit.Box{X: 10, Y: 4, W: 800, H: 28}),
			Paras: []pptx.Para{pptx.Text("arrow "+e.ID+": "+e.From+" → "+e.To+" (missing element)", m.pt(16), false, pptx.RGB("B42318"))}}}
	}
	ln := m.line(stroke, e.strokeWidth(3))
	if ln == nil {
		ln = &pptx.Line{Color: pptx.RGB("1B1F24"), Width: 1}
	}
	// The heads the page draws (markers): the end unless heads says.
	ln.Head = e.Heads == "start" || e.Heads == "both"
	ln.Tail = e.Heads == "" || e.Heads == "end" || e.Heads == "both"
	cx := &pptx.Connector{Name: e.ID, X1: m.x(x1), Y1: m.y(y1), X2: m.x(x2), Y2: m.y(y2), Line: *ln}
	if e.FromPoint == nil {
		if g, ok := drawn[e.From]; ok {
			cx.From, cx.FromSite = g.shape, site(g.geom, b.byID[e.From].box(), x1, y1)
		}
	}
	if e.ToPoint == nil {
		if g, ok := drawn[e.To]; ok {
			cx.To, cx.ToSite = g.shape, site(g.geom, b.byID[e.To].box(), x2, y2)
		}
	}
	out := []pptx.Shape{cx}
	if e.Label.Set || e.Label.Pending {
		lbl := e.Label.Value
		if e.Label.Pending {
			lbl = PendingLabel + e.Label.Hint
		}
		mx, my := (x1+x2)/2, (y1+y2)/2
		w := max(math.Hypot(x2-x1, y2-y1), 120)
		h := arrowLabelFontSize * 1.6
		text, _, _ := e.inks()
		col, _ := pptxColor(text)
		out = append(out, &pptx.Sp{Name: e.ID + " label", Box: m.box(textfit.Box{X: mx - w/2, Y: my - h - 4, W: w, H: h}), Inset: 1, Anchor: "b",
			Paras: []pptx.Para{{Runs: []pptx.Run{{Text: lbl, Size: m.pt(arrowLabelFontSize), Color: col}}, Align: "ctr"}}})
	}
	return out
}

// site is the connection site of a preset shape nearest to (x, y): the
// sites of rect and roundRect are top, left, bottom, right; an ellipse's
// run anticlockwise from the top in eighths (presetShapeDefinitions.xml).
func site(geom string, b textfit.Box, x, y float64) int {
	cx, cy := b.X+b.W/2, b.Y+b.H/2
	var pts [][2]float64
	if geom == "ellipse" {
		for k := range 8 {
			a := math.Pi/2 + float64(k)*math.Pi/4 // 0 top, 2 left, 4 bottom, 6 right
			pts = append(pts, [2]float64{cx + b.W/2*math.Cos(a), cy - b.H/2*math.Sin(a)})
		}
	} else {
		pts = [][2]float64{{cx, b.Y}, {b.X, cy}, {cx, b.Y + b.H}, {b.X + b.W, cy}}
	}
	best, bd := 0, math.Inf(1)
	for i, p := range pts {
		if d := math.Hypot(p[0]-x, p[1]-y); d < bd {
			best, bd = i, d
		}
	}
	return best
}

// placeholder is a pending spot: a dashed box with what it is and the
// author's hint.
func (m mapper) placeholder(name string, box textfit.Box, what, hint string) *pptx.Sp {
	text := "pending " + what
	if hint != "" {
		text += ": " + hint
	}
	return &pptx.Sp{Name: name, Box: m.box(box), Fill: pptx.RGB("FFF8E6"), Shrink: true,
		Line:  &pptx.Line{Color: pptx.RGB("B7791F"), Width: math.Max(2*m.scale/pptx.EMUPerPoint, 0.75), Dash: true},
		Paras: []pptx.Para{pptx.Text(text, m.pt(min(22, max(box.H/4, 10))), false, pptx.RGB("7A4A00"))}}
}

// placeholderPNG is the picture an image element shows until a real one
// is put in: the HTML render's light panel with a cross, made once.
var placeholderPNG = sync.OnceValue(func() []byte {
	const w, h = 160, 90
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg, line, edge := color.RGBA{0xee, 0xf2, 0xf6, 0xff}, color.RGBA{0xc5, 0xcc, 0xd4, 0xff}, color.RGBA{0x8a, 0x96, 0xa3, 0xff}
	for y := range h {
		for x := range w {
			c := bg
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				c = edge
			} else if x*h/w == y || (w-1-x)*h/w == y {
				c = line
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // encoding to memory cannot fail
	return b.Bytes()
})
