package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/lessongen/lessongen/render"
)

// firstScreenMark marks the README's code block(s) a teacher runs first.
const firstScreenMark = "<!-- first-screen -->"

// TestReadmeFirstScreen runs every command of the README's first-screen
// block as written, in order, through the real command, on a copy of the
// example as a fresh clone has it, with no key, server or config: the
// first five minutes must work offline. A /tmp/ path is taken inside the
// test's own temporary folder. A PDF is skipped without Chromium.
func TestReadmeFirstScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("renders PDFs")
	}
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := firstScreenCommands(t, readme)
	cleanEnv(t)
	dir := inExampleTree(t, repo)
	before := treeFiles(t, filepath.Join(dir, exampleDir))
	for _, line := range lines {
		args := strings.Fields(strings.TrimPrefix(line, "go run . "))
		for i, a := range args {
			if strings.HasPrefix(a, "/tmp/") {
				args[i] = filepath.Join(dir, a)
			}
		}
		if slices.Contains(args, "pdf") && !haveChromium() {
			t.Logf("skipped, no Chromium on this machine: %s", line)
			continue
		}
		code, stdout, stderr := runLessongen(t, args...)
		if code != 0 {
			t.Errorf("the README's first screen: %s\nexit %d\n%s%s", line, code, stdout, stderr)
		}
	}
	if got := treeFiles(t, filepath.Join(dir, exampleDir)); !slices.Equal(got, before) {
		t.Errorf("the first screen's commands changed the example's folder:\n%v\nwant:\n%v", got, before)
	}
}

// firstScreenCommands are the commands of the sh blocks that follow a
// firstScreenMark: each must be "go run . ..." without shell syntax, so
// the test runs exactly what the reader types (comments are skipped).
func firstScreenCommands(t *testing.T, readme []byte) []string {
	t.Helper()
	var cmds []string
	sc := bufio.NewScanner(bytes.NewReader(readme))
	marked, in := false, false
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == firstScreenMark:
			marked = true
		case marked && !in && l == "```sh":
			in = true
		case in && l == "```":
			in, marked = false, false
		case in && (l == "" || strings.HasPrefix(l, "#")):
		case in:
			if c, _, ok := strings.Cut(l, " # "); ok { // a comment after the command
				l = strings.TrimSpace(c)
			}
			if !strings.HasPrefix(l, "go run . ") || strings.ContainsAny(l, `"'$\|;&<>#`+"`") {
				t.Fatalf("the README's first screen has a line this test cannot run as written: %s\nfix: only go run . commands, without shell syntax, in a block marked %s", l, firstScreenMark)
			}
			cmds = append(cmds, l)
		}
	}
	if len(cmds) == 0 {
		t.Fatalf("the README has no sh block marked %s with commands in it", firstScreenMark)
	}
	return cmds
}

// haveChromium says whether render --format pdf finds a browser, by
// render's own lookup.
func haveChromium() bool {
	_, err := render.FindBrowser(os.Getenv("LESSONGEN_CHROMIUM"))
	return err == nil
}

// TestReadmeLinks: every relative link of the README and the reference
// names a file that exists and, for a Markdown file, a heading it has, so
// what the README leaves to docs/ stays reachable from it.
func TestReadmeLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)|src="([^"]+)"`)
	for _, doc := range []string{"README.md", "docs/reference.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1] + m[2]
			if strings.Contains(target, "://") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s: %v", doc, target, err)
				continue
			}
			if anchor != "" && !slices.Contains(headingAnchors(t, path), anchor) {
				t.Errorf("%s links to %s: %s has no heading #%s", doc, target, path, anchor)
			}
		}
	}
}

// headingAnchors are the anchors GitHub makes of a Markdown file's
// headings: lower case, punctuation dropped, spaces as hyphens.
func headingAnchors(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var anchors []string
	fence := false
	for l := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchors = append(anchors, b.String())
	}
	return anchors
}
