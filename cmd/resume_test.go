package cmd

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/termsafe"
)

// A file name is quoted so that a shell reads it back byte for byte and a
// terminal shows it as text: escape sequences, bidirectional overrides,
// newlines and bytes that are not UTF-8 are written as \xNN inside $'…'.
func TestShellQuote(t *testing.T) {
	names := map[string]string{
		"lesson.yaml":              "lesson.yaml",
		"":                         "''",
		"my lesson.yaml":           "'my lesson.yaml'",
		"it's.yaml":                `'it'\''s.yaml'`,
		"$(rm -rf ~).yaml":         "'$(rm -rf ~).yaml'",
		"a\x1b[2Jb.yaml":           `$'a\x1b[2Jb.yaml'`,
		"line\nbreak's\\.yaml":     `$'line\x0abreak\'s\\.yaml'`,
		"evil\u202egpj.yaml":       `$'evil\xe2\x80\xaegpj.yaml'`,
		"bad\xffbyte.yaml":         `$'bad\xffbyte.yaml'`,
		"tab\there.yaml":           `$'tab\x09here.yaml'`,
		"élève.yaml":               "'élève.yaml'",
		"-o":                       "-o",
		"semi;colon|pipe&amp.yaml": "'semi;colon|pipe&amp.yaml'",
	}
	bash, _ := exec.LookPath("bash")
	for name, want := range names {
		got := shellQuote(name)
		if got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", name, got, want)
		}
		if termsafe.Line(got) != got {
			t.Errorf("shellQuote(%q) = %q is not safe to print", name, got)
		}
		if bash == "" {
			continue
		}
		out, err := exec.Command(bash, "-c", "printf %s "+got).Output()
		if err != nil || string(out) != name {
			t.Errorf("bash reads %s back as %q (%v), want %q", got, out, err, name)
		}
	}
}

// A password in --base-url is hidden before the argument is quoted: the
// quotes a shell needs would split it where the stream's redactor looks
// for it whole.
func TestResumeCommandRedacts(t *testing.T) {
	const url = "http://teacher:pa'ss$word@127.0.0.1:8080/v1"
	red := redact.New("", url)
	ctx := withArgs(context.Background(), []string{"generate", "in/lesson.yaml", "--base-url", url})
	got := red.String(resumeCommand(ctx, red.String))
	for _, part := range []string{"pa'", "ss$word", "word"} {
		if strings.Contains(got, part) {
			t.Errorf("the command shows %q of the password: %s", part, got)
		}
	}
	if !strings.HasPrefix(got, "lessongen generate in/lesson.yaml --base-url ") {
		t.Errorf("the command: %s", got)
	}
	if resumeCommand(context.Background(), red.String) != "" {
		t.Error("a command from no arguments")
	}
}
