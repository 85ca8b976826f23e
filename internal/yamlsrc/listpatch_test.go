package yamlsrc

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// listKey is the first key of the root mapping whose value is a non-empty
// list, or "".
func listKey(root *yaml.Node) string {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if v := root.Content[i+1]; v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
			return root.Content[i].Value
		}
	}
	return ""
}

// anyDuplicateKeys reports whether a mapping in n names a key twice.
func anyDuplicateKeys(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode && duplicateKeys(n) {
		return true
	}
	for _, c := range n.Content {
		if anyDuplicateKeys(c) {
			return true
		}
	}
	return false
}

// checkSame fails unless the ListPatcher's answer is Patch's: the same
// bytes, or both refused.
func checkSame(t *testing.T, s *Source, cur *yaml.Node, got []byte, gotErr error, what string) {
	t.Helper()
	want, wantErr := s.Patch(cur)
	if (gotErr == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("%s: ListPatcher gave %v\n%s\n--- Patch gave %v\n%s\n--- in\n%s", what, gotErr, got, wantErr, want, s.Data)
	}
}

// FuzzListPatch checks that patching a list item by item gives exactly
// what Patch gives: after any change, and then after changes to a few items
// only, named to PatchItems.
func FuzzListPatch(f *testing.F) {
	f.Add([]byte(lessonSrc), uint64(1))
	f.Add([]byte("a: 1\nb:\n- x\n- y\n"), uint64(2))
	f.Add([]byte("s:\n  - id: a\n    k: |\n      one\n  # between\n  - id: b\n    k: v\n\n  - id: c\n    k: [1, 2]\nt: 1\n"), uint64(3))
	f.Add([]byte("s:\n- id: a\n  v: 1\n- id: b\n  v: 2   # two\nz: end"), uint64(4))
	f.Add([]byte("\ufeffs:\r\n  - id: a\r\n    v: !pending\r\n  - id: b\r\n    v: x\r\n"), uint64(5))
	f.Add([]byte("0:\n  - 0: \n0:\n- 0:"), uint64(2))                  // a key named twice
	f.Add([]byte("\ufeff0:\n  - !0000\n   00: 000000\r1:"), uint64(2)) // a lone CR
	f.Add([]byte("s:\n  - id: a\n    w:\n      elements:\n        - {id: e, x: 1}\n        - !pending \"more\"\n  - id: b\n    w: !pending\n    # trailing\n"), uint64(6))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		s, err := Parse("f.yaml", data)
		if err != nil || s.Root.Kind != yaml.MappingNode || hasAliasOrMerge(s.Root) || anyDuplicateKeys(s.Root) {
			// Patch itself cannot tell a key named twice apart (no lesson
			// loads with one).
			return
		}
		key := listKey(s.Root)
		if key == "" {
			return
		}
		r := rand.New(rand.NewPCG(seed, seed))
		lp := s.NewListPatcher(key)
		cur := clone(s.Root)
		switch r.IntN(3) {
		case 0:
			mutate(cur, r)
			fallthrough
		case 1:
			out, err := lp.Patch(cur)
			checkSame(t, s, cur, out, err, "Patch")
		default:
			lp.Seed() // the file as it is
		}

		// Change a few items of the list, and only those.
		next := clone(cur)
		items := get(next, key)
		if items == nil || items.Kind != yaml.SequenceNode || len(items.Content) == 0 {
			return
		}
		changed := map[int]*yaml.Node{}
		for range 1 + r.IntN(3) {
			i := r.IntN(len(items.Content))
			item := clone(items.Content[i])
			mutate(item, r)
			items.Content[i] = item
			changed[i] = item
		}
		out, err := lp.PatchItems(changed)
		if errors.Is(err, ErrWhole) {
			out, err = lp.Patch(next)
		}
		checkSame(t, s, next, out, err, "PatchItems")
		if err == nil {
			back, perr := Parse("out.yaml", out)
			if perr != nil || !Equal(back.Root, next) {
				t.Fatalf("PatchItems output does not read back as the tree: %v\n%s", perr, out)
			}
		}
	})
}

// A change inside one item of a long list is patched and checked in that
// item alone, and gives what Patch gives, from the file as it is (Seed)
// and after a whole Patch.
func TestListPatcherItems(t *testing.T) {
	var b strings.Builder
	b.WriteString("# top\nmeta:\n  title: T\nslides:\n")
	for i := range 50 {
		b.WriteString("  - id: s" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + "\n    board: !pending \"b\"\n    # after\n\n")
	}
	b.WriteString("tail: 1\n")
	s := mustParse(t, b.String())
	lp := s.NewListPatcher("slides")
	cur := clone(s.Root)
	lp.Seed()
	set(get(cur, "slides").Content[7], "board", mapping("heading", "H\nwith a second line", "layout", "L"))
	out, err := lp.PatchItems(map[int]*yaml.Node{7: get(cur, "slides").Content[7]})
	checkSame(t, s, cur, out, err, "one item")
	if !strings.Contains(string(out), "  - id: sh\n    board:\n      heading: |-\n        H\n        with a second line\n      layout: L\n    # after\n") {
		t.Errorf("item 7 not patched in place:\n%s", out)
	}
	// The head changes too: patched and checked whole.
	set(get(cur, "meta"), "title", scalar("New"))
	out, err = lp.Patch(cur)
	checkSame(t, s, cur, out, err, "head")
	// A second item after that.
	set(get(cur, "slides").Content[40], "board", scalar("done"))
	out, err = lp.PatchItems(map[int]*yaml.Node{40: get(cur, "slides").Content[40]})
	checkSame(t, s, cur, out, err, "second item")
}

// Text spliced into an item that would run into the next (here a block
// scalar swallowing the indented comment after the item) fails the check
// of the item alone; the whole-file Patch decides.
func TestListPatcherItemCheckCatchesSpill(t *testing.T) {
	src := "s:\n  - id: a\n    v: x\n      # indented comment\n  - id: b\n"
	s := mustParse(t, src)
	lp := s.NewListPatcher("s")
	cur := clone(s.Root)
	if _, err := lp.Patch(cur); err != nil {
		t.Fatal(err)
	}
	get(cur, "s").Content[0].Content[3] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "one\ntwo", Style: yaml.LiteralStyle}
	out, err := lp.PatchItems(map[int]*yaml.Node{0: get(cur, "s").Content[0]})
	if !errors.Is(err, ErrWhole) {
		t.Fatalf("the spilling item passed its check alone:\n%s", out)
	}
	out, err = lp.Patch(cur)
	checkSame(t, s, cur, out, err, "spill")
}
