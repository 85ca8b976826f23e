package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
