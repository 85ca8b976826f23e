package textfit

import (
	"encoding/binary"
	"fmt"
)

// The Go fonts draw the hyphen-minus (U+002D) as their minus sign: in Go
// Regular and Go Bold its bar is 0.48 em long on a 0.58 em advance, longer
// than the en dash's 0.38 em bar, so "rm -i", "ls -F" and a URL read as
// "rm –i"; in Go Mono it fills the cell as the en dash does. The fonts
// have no other hyphen (U+2010 and U+2011 are missing), so each is
// compiled in with its hyphen narrowed (narrowHyphen), which the page
// embeds and the measurements use alike, so the two still agree.
var (
	// text: a 0.24 em bar on a 0.33 em advance, as Arial's hyphen.
	textHyphen = hyphenShape{x0: 96, x1: 586, advance: 682}
	// code: a 0.29 em bar centred in Go Mono's 0.6 em cell.
	monoHyphen = hyphenShape{x0: 314, x1: 914}
)

// hyphenShape is where the narrowed bar runs (font units) and the advance
// (0 keeps the font's: a monospace cell).
type hyphenShape struct{ x0, x1, advance int }

// narrowHyphen returns a copy of the TrueType font ttf whose glyph gid
// (the hyphen) is its own bar squeezed to run from h.x0 to h.x1, with
// h.advance as its advance. The glyph's outline is rewritten in its own
// space in glyf (without its hinting instructions, so it is shorter),
// its advance in hmtx, and the checksums are made true again.
func narrowHyphen(ttf []byte, gid int, h hyphenShape) ([]byte, error) {
	out := append([]byte(nil), ttf...)
	tables := map[string][2]int{} // offset, length
	dir := map[string]int{}       // the table's directory entry
	n := int(binary.BigEndian.Uint16(out[4:]))
	for i := range n {
		e := 12 + 16*i
		tag := string(out[e : e+4])
		tables[tag] = [2]int{int(binary.BigEndian.Uint32(out[e+8:])), int(binary.BigEndian.Uint32(out[e+12:]))}
		dir[tag] = e
	}
	for _, tag := range []string{"head", "hhea", "hmtx", "loca", "glyf"} {
		if _, ok := tables[tag]; !ok {
			return nil, fmt.Errorf("no %s table", tag)
		}
	}
	head, glyf, loca := tables["head"][0], tables["glyf"][0], tables["loca"][0]
	at := func(i int) int {
		if binary.BigEndian.Uint16(out[head+50:]) == 0 {
			return 2 * int(binary.BigEndian.Uint16(out[loca+2*i:]))
		}
		return int(binary.BigEndian.Uint32(out[loca+4*i:]))
	}
	g := out[glyf+at(gid) : glyf+at(gid+1)]
	if len(g) < 12 || int16(binary.BigEndian.Uint16(g)) < 1 {
		return nil, fmt.Errorf("glyph %d is not a simple glyph", gid)
	}
	xs, ys, on, ends, err := decodeGlyph(g)
	if err != nil {
		return nil, err
	}
	ox0, ox1 := int(int16(binary.BigEndian.Uint16(g[2:]))), int(int16(binary.BigEndian.Uint16(g[6:])))
	if ox1 <= ox0 {
		return nil, fmt.Errorf("glyph %d has no width", gid)
	}
	for i, x := range xs {
		xs[i] = h.x0 + (x-ox0)*(h.x1-h.x0)/(ox1-ox0)
	}
	ng := encodeGlyph(xs, ys, on, ends, g[4:6], g[8:10])
	if len(ng) > len(g) {
		return nil, fmt.Errorf("glyph %d: the new outline is longer", gid)
	}
	clear(g)
	copy(g, ng)
	// hmtx: the advance and left side bearing.
	nh := int(binary.BigEndian.Uint16(out[tables["hhea"][0]+34:]))
	hm := tables["hmtx"][0]
	if gid < nh {
		if h.advance > 0 {
			binary.BigEndian.PutUint16(out[hm+4*gid:], uint16(h.advance))
		}
		binary.BigEndian.PutUint16(out[hm+4*gid+2:], uint16(int16(h.x0)))
	} else {
		binary.BigEndian.PutUint16(out[hm+4*nh+2*(gid-nh):], uint16(int16(h.x0)))
	}
	// Checksums: each changed table's, then the whole font's.
	binary.BigEndian.PutUint32(out[head+8:], 0)
	for _, tag := range []string{"glyf", "hmtx", "head"} {
		t := tables[tag]
		binary.BigEndian.PutUint32(out[dir[tag]+4:], checksum(out[t[0]:t[0]+t[1]]))
	}
	binary.BigEndian.PutUint32(out[head+8:], 0xB1B0AFBA-checksum(out))
	return out, nil
}

// decodeGlyph reads a simple glyph's points: x, y (absolute), on-curve
// flags and the contours' last points.
func decodeGlyph(g []byte) (xs, ys []int, on []bool, ends []uint16, err error) {
	defer func() {
		if recover() != nil {
			err = fmt.Errorf("glyph cut short")
		}
	}()
	nc := int(binary.BigEndian.Uint16(g))
	p := 10
	for range nc {
		ends = append(ends, binary.BigEndian.Uint16(g[p:]))
		p += 2
	}
	n := int(ends[nc-1]) + 1
	p += 2 + int(binary.BigEndian.Uint16(g[p:])) // instructions
	flags := make([]byte, 0, n)
	for len(flags) < n {
		f := g[p]
		p++
		flags = append(flags, f)
		if f&0x08 != 0 {
			for range g[p] {
				flags = append(flags, f)
			}
			p++
		}
	}
	coords := func(short, same byte) []int {
		out := make([]int, n)
		v := 0
		for i, f := range flags[:n] {
			switch {
			case f&short != 0:
				d := int(g[p])
				p++
				if f&same == 0 {
					d = -d
				}
				v += d
			case f&same == 0:
				v += int(int16(binary.BigEndian.Uint16(g[p:])))
				p += 2
			}
			out[i] = v
		}
		return out
	}
	xs = coords(0x02, 0x10)
	ys = coords(0x04, 0x20)
	for _, f := range flags[:n] {
		on = append(on, f&0x01 != 0)
	}
	return xs, ys, on, ends, nil
}

// encodeGlyph writes a simple glyph with no instructions, every
// coordinate as a 16-bit delta; yMin and yMax are kept as they were.
func encodeGlyph(xs, ys []int, on []bool, ends []uint16, yMin, yMax []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(len(ends)))
	x0, x1 := xs[0], xs[0]
	for _, x := range xs {
		x0, x1 = min(x0, x), max(x1, x)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(int16(x0)))
	b = append(b, yMin...)
	b = binary.BigEndian.AppendUint16(b, uint16(int16(x1)))
	b = append(b, yMax...)
	for _, e := range ends {
		b = binary.BigEndian.AppendUint16(b, e)
	}
	b = binary.BigEndian.AppendUint16(b, 0) // no instructions
	for _, o := range on {
		if o {
			b = append(b, 0x01)
		} else {
			b = append(b, 0x00)
		}
	}
	for _, vs := range [][]int{xs, ys} {
		prev := 0
		for _, v := range vs {
			b = binary.BigEndian.AppendUint16(b, uint16(int16(v-prev)))
			prev = v
		}
	}
	return b
}

// checksum is a TrueType table checksum: the sum of its big-endian 32-bit
// words, the last padded with zeros.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
