package cmd

import (
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/lessongen/lessongen/bridge"
	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/session"
)

// unifiedDiff is the one diff the commands print (--dry-run, the approval
// prompt): unified, three lines of context; "" when nothing differs. The
// text quotes model output: callers show it through termsafe.
func unifiedDiff(oldName string, old []byte, newName string, new []byte) string {
	return string(diff.Diff(oldName, old, newName, new))
}

// changeDiff shows a change awaiting approval as the diff it makes to the
// file that holds its node, encoded as saving would (compose.Stage). cmd
// passes it down because the bridge knows no file and must not import
// compose (it would bring the lesson modality in: see docs/architecture.md).
func changeDiff(doc *compose.Document) bridge.FileDiff {
	return func(sess *session.Session, st session.State) func() (string, error) {
		stage := doc.Stage(sess, st)
		return func() (string, error) {
			fc, err := stage()
			if err != nil {
				return "", err
			}
			name := fc.Path + " · " + sess.Name()
			d := unifiedDiff(name, fc.Before, name+" (with this change)", fc.After)
			// The first line, "diff OLD NEW", repeats the two below it.
			_, d, _ = strings.Cut(d, "\n")
			return d, nil
		}
	}
}
