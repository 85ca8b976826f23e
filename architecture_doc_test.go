package main

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const architectureDoc = "docs/architecture.md"

// docs/architecture.md has a paragraph for every package of the module and
// none for a package that is gone: its "## Packages" section holds one
// "### `DIR/`" heading per package directory (`main.go` for the module
// root).
func TestArchitectureDocNamesEveryPackage(t *testing.T) {
	doc := readDoc(t)
	documented := packageHeadings(t, doc)
	var packages []string
	for p := range modulePackages(t) {
		packages = append(packages, p)
	}
	slices.Sort(packages)
	for _, p := range packages {
		if !slices.Contains(documented, p) {
			t.Errorf("%s: no paragraph for package %s (a \"### `%s`\" heading under \"## Packages\")", architectureDoc, p, p)
		}
	}
	for _, d := range documented {
		if !slices.Contains(packages, d) {
			t.Errorf("%s: a paragraph for %s, which is not a package of the module", architectureDoc, d)
		}
	}
}

// The page lists the packages in layer order, and says imports point down
// the list: every package the program is built from imports only packages
// listed below it. Test helpers (packages the program is not built from)
// are left out.
func TestArchitectureDocLayerOrder(t *testing.T) {
	order := packageHeadings(t, readDoc(t))
	imports := modulePackages(t)
	// The program: main.go and what it imports, transitively.
	program := map[string]bool{}
	for next := []string{"main.go"}; len(next) > 0; next = next[1:] {
		if !program[next[0]] {
			program[next[0]] = true
			next = append(next, imports[next[0]]...)
		}
	}
	for i, p := range order {
		if !program[p] {
			continue
		}
		for _, imp := range imports[p] {
			if j := slices.Index(order, imp); j >= 0 && j < i {
				t.Errorf("%s: %s imports %s, which is listed above it", architectureDoc, p, imp)
			}
		}
	}
}

// Every file or folder of the repository the page names in backticks
// (`compose/paths.go`) exists, and a Go file is named with its folder, so
// that this test can check it. Links to other pages resolve too.
func TestArchitectureDocPathsExist(t *testing.T) {
	doc := withoutFences(readDoc(t))
	top := map[string]bool{}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		top[e.Name()] = true
	}
	checked := 0
	for _, m := range regexp.MustCompile("`([^`\\s]+)`").FindAllStringSubmatch(doc, -1) {
		p := m[1]
		first, _, nested := strings.Cut(p, "/")
		switch {
		case nested && top[first] && !strings.HasPrefix(first, "."):
			checked++
			if _, err := os.Stat(filepath.FromSlash(p)); err != nil {
				t.Errorf("%s names %s, which does not exist", architectureDoc, p)
			}
		case !nested && strings.HasSuffix(p, ".go") && !top[p]:
			t.Errorf("%s names %s without its folder", architectureDoc, p)
		}
	}
	prose := regexp.MustCompile("`[^`]*`").ReplaceAllString(doc, "")
	for _, m := range regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`).FindAllStringSubmatch(prose, -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		checked++
		if _, err := os.Stat(filepath.Join(filepath.Dir(architectureDoc), filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("%s links to %s, which does not exist", architectureDoc, m[1])
		}
	}
	if checked == 0 {
		t.Errorf("%s names no file of the repository; is the test reading it right?", architectureDoc)
	}
}

func readDoc(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// packageHeadings are the "### `X`" headings of the "## Packages" section.
func packageHeadings(t *testing.T, doc string) []string {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Packages\n")
	if !ok {
		t.Fatalf("%s has no \"## Packages\" section", architectureDoc)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var out []string
	for _, m := range regexp.MustCompile("(?m)^### `([^`]+)`").FindAllStringSubmatch(section, -1) {
		out = append(out, m[1])
	}
	return out
}

// modulePackages maps the module's package directories, as "DIR/" and the
// module root as "main.go", to the module packages they import (outside
// their tests), named the same way; testdata and hidden folders hold none.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	mod := modulePath(t)
	name := func(importPath string) string {
		if importPath == mod {
			return "main.go"
		}
		return strings.TrimPrefix(importPath, mod+"/") + "/"
	}
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		} else if err != nil {
			return err
		}
		var imports []string
		for _, imp := range pkg.Imports {
			if imp == mod || strings.HasPrefix(imp, mod+"/") {
				imports = append(imports, name(imp))
			}
		}
		out[name(path2import(mod, path))] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 2 {
		t.Fatalf("found packages %v; is the test run from the module root?", out)
	}
	return out
}

func path2import(mod, dir string) string {
	if dir == "." {
		return mod
	}
	return mod + "/" + filepath.ToSlash(dir)
}

func modulePath(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(mod)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

// withoutFences drops fenced code blocks: the data-flow picture names
// files as a run sees them, not as the repository holds them.
func withoutFences(doc string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}
