// Package pptxtest checks decks for tests: the package's structure (every
// part well-formed XML with a content type, every relationship's target
// present) and, where LibreOffice is installed, what Impress makes of it.
package pptxtest

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Parts opens a .pptx and returns its parts by name.
func Parts(t testing.TB, data []byte) map[string][]byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b
	}
	return out
}

// Check reports every structural defect of a deck: a part that is not
// well-formed XML (or holds a character XML 1.0 forbids), a part without a
// content type, a relationship whose target is missing, a slide the
// presentation does not list.
func Check(t testing.TB, data []byte) {
	t.Helper()
	for _, err := range Problems(Parts(t, data)) {
		t.Error(err)
	}
}

// Problems is Check's list.
func Problems(parts map[string][]byte) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	type override struct {
		PartName string `xml:"PartName,attr"`
	}
	type deflt struct {
		Extension string `xml:"Extension,attr"`
	}
	var ct struct {
		Default  []deflt    `xml:"Default"`
		Override []override `xml:"Override"`
	}
	if err := xml.Unmarshal(parts["[Content_Types].xml"], &ct); err != nil {
		bad("[Content_Types].xml: %v", err)
	}
	typed := map[string]bool{}
	for _, o := range ct.Override {
		typed[strings.TrimPrefix(o.PartName, "/")] = true
		if _, ok := parts[strings.TrimPrefix(o.PartName, "/")]; !ok {
			bad("[Content_Types].xml names %s, which is missing", o.PartName)
		}
	}
	exts := map[string]bool{}
	for _, d := range ct.Default {
		exts[d.Extension] = true
	}
	for name, b := range parts {
		if name == "[Content_Types].xml" {
			continue
		}
		ext := strings.TrimPrefix(path.Ext(name), ".")
		if !typed[name] && !exts[ext] {
			bad("%s has no content type", name)
		}
		if ext == "xml" || ext == "rels" {
			if err := wellFormed(b); err != nil {
				bad("%s: %v", name, err)
			}
		}
		if ext == "rels" {
			type relationship struct {
				ID, Target, TargetMode string `xml:",attr"`
			}
			var rs struct {
				Rel []struct {
					ID         string `xml:"Id,attr"`
					Target     string `xml:"Target,attr"`
					TargetMode string `xml:"TargetMode,attr"`
				} `xml:"Relationship"`
			}
			if err := xml.Unmarshal(b, &rs); err != nil {
				continue
			}
			// _rels/x.xml.rels is about x.xml, in the folder above.
			dir := path.Dir(path.Dir(name))
			for _, r := range rs.Rel {
				if r.TargetMode == "External" {
					continue
				}
				target := path.Join(dir, r.Target)
				if dir == "." {
					target = path.Clean(r.Target)
				}
				if _, ok := parts[target]; !ok {
					bad("%s: %s points at %s, which is missing", name, r.ID, target)
				}
			}
		}
	}
	for _, need := range []string{"_rels/.rels", "ppt/presentation.xml", "ppt/_rels/presentation.xml.rels", "docProps/core.xml", "docProps/app.xml"} {
		if _, ok := parts[need]; !ok {
			bad("%s is missing", need)
		}
	}
	listed := strings.Count(string(parts["ppt/presentation.xml"]), "<p:sldId ")
	if n := len(Slides(parts)); n != listed {
		bad("%d slide parts, %d listed in presentation.xml", n, listed)
	}
	return errs
}

// wellFormed reads every token, which also rejects characters XML 1.0
// does not allow.
func wellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Slides are the slide parts in order.
func Slides(parts map[string][]byte) [][]byte {
	var out [][]byte
	for i := 1; ; i++ {
		b, ok := parts[fmt.Sprintf("ppt/slides/slide%d.xml", i)]
		if !ok {
			return out
		}
		out = append(out, b)
	}
}

// Notes is slide n's notes page (from 1), nil when it has none.
func Notes(parts map[string][]byte, n int) []byte {
	return parts[fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", n)]
}

// Texts are the text runs of a part (a:t and m:t), in order.
func Texts(part []byte) []string {
	d := xml.NewDecoder(bytes.NewReader(part))
	var out []string
	in := false
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			in = tok.Name.Local == "t"
		case xml.EndElement:
			in = false
		case xml.CharData:
			if in {
				out = append(out, string(tok))
			}
		}
	}
}

// PDF is a deck as LibreOffice Impress exports it: the text of each page.
type PDF struct {
	Path  string
	Pages []string
}

// Impress converts the decks to PDF in one soffice run (it is heavy) and
// returns their pages' text, by deck path. It skips the test, saying why,
// when soffice or pdftotext is not installed.
func Impress(t testing.TB, decks ...string) map[string]PDF {
	t.Helper()
	return impress(t, false, decks)
}

// ImpressWithoutMath is Impress as installed without its Math module
// (Debian's libreoffice-impress without libreoffice-math), which draws
// Office Math blank: the same installation, run with a configuration that
// leaves out Math's (share/registry/math.xcd) and a service registry
// without Math's components (libsmlo, libsmdlo), so Impress finds no
// formula editor, as where the package is missing. Where Math is not
// installed it is Impress; it skips where Math cannot be hidden, saying why.
func ImpressWithoutMath(t testing.TB, decks ...string) map[string]PDF {
	t.Helper()
	return impress(t, true, decks)
}

func impress(t testing.TB, noMath bool, decks []string) map[string]PDF {
	t.Helper()
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("LibreOffice (soffice) is not installed: the Impress check is skipped; apt-get install libreoffice-impress")
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext is not installed: the Impress check is skipped; apt-get install poppler-utils")
	}
	out := t.TempDir()
	// A private profile: parallel runs would otherwise fight over the
	// user's profile lock.
	profileDir := filepath.Join(t.TempDir(), "profile")
	profile := fileURL(profileDir)
	args := []string{"-env:UserInstallation=" + profile}
	if noMath {
		args = append(args, withoutMath(t, soffice, profile)...)
	}
	args = append(append(args, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", out), decks...)
	cmd := exec.Command(soffice, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, msg)
	}
	res := map[string]PDF{}
	for _, deck := range decks {
		pdf := filepath.Join(out, strings.TrimSuffix(filepath.Base(deck), filepath.Ext(deck))+".pdf")
		if _, err := os.Stat(pdf); err != nil {
			t.Fatalf("Impress could not open %s (no PDF written): %s", deck, msg)
		}
		txt, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", pdf, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext %s: %v", pdf, err)
		}
		// pdftotext ends every page with a form feed.
		pages := strings.Split(strings.TrimSuffix(string(txt), "\f"), "\f")
		res[deck] = PDF{Path: pdf, Pages: pages}
	}
	return res
}

func fileURL(path string) string { return "file://" + filepath.ToSlash(path) }

// mathComponent is a service registry's entry for a library of Math.
var mathComponent = regexp.MustCompile(`(?s)<component [^>]*/libsmd?lo\.so"[^>]*>.*?</component>`)

// withoutMath returns soffice's arguments that hide Math. LibreOffice
// reads its configuration layers and service registries from bootstrap
// variables, which -env: on the command line overrides (CONFIGURATION_LAYERS
// and URE_MORE_SERVICES in program/fundamentalrc): the layers become the
// installation's registry without math.xcd plus the private profile, the
// services a copy without Math's components.
func withoutMath(t testing.TB, soffice, profile string) []string {
	t.Helper()
	bin, err := filepath.EvalSymlinks(soffice)
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Dir(bin)
	registry, err := filepath.EvalSymlinks(filepath.Join(program, "..", "share", "registry"))
	if err != nil {
		t.Skipf("no share/registry beside %s: cannot run Impress without Math here", program)
	}
	entries, err := os.ReadDir(registry)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(registry, "math.xcd")); err != nil {
		return nil // Math is not installed: Impress as it is runs without it
	}
	dir := t.TempDir()
	reg, svc := filepath.Join(dir, "registry"), filepath.Join(dir, "services")
	for _, d := range []string{reg, svc} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range entries {
		if e.Name() == "math.xcd" {
			continue
		}
		if err := os.Symlink(filepath.Join(registry, e.Name()), filepath.Join(reg, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	rdbs, _ := filepath.Glob(filepath.Join(program, "services", "*.rdb"))
	found := false
	for _, rdb := range rdbs {
		b, err := os.ReadFile(rdb)
		if err != nil {
			t.Fatal(err)
		}
		found = found || mathComponent.Match(b)
		if err := os.WriteFile(filepath.Join(svc, filepath.Base(rdb)), mathComponent.ReplaceAll(b, nil), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Skipf("no Math component in %s/services/*.rdb: cannot run Impress without Math here", program)
	}
	return []string{
		"-env:CONFIGURATION_LAYERS=xcsxcu:" + fileURL(reg) + " res:" + fileURL(reg) + " user:!" + profile + "/user/registrymodifications.xcu",
		"-env:URE_MORE_SERVICES=<" + fileURL(svc) + ">*",
	}
}
