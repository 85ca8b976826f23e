package orchestrate

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Source lines a subagent read are carried to the subagents after it as
// citable context, so a later one need not read the same file again
// before citing it. What a subagent is shown is fixed by the tree, not
// by the clock: the lesson's levels (which run before any slide's
// children) carry to everyone, and a slide's children carry to the ones
// after them on that slide; another slide's reads, made at the same time,
// never.
const (
	// maxCarriedLines and maxCarriedBytes bound what one prompt carries;
	// the earliest lines (by file, then line) are kept.
	maxCarriedLines = 80
	maxCarriedBytes = 6000
)

// readLog collects the lines read in one scope: path → line → text.
type readLog struct {
	mu    sync.Mutex
	lines map[string]map[int]string
}

// add records the numbered lines ("12: text") a read_source call returned.
func (l *readLog) add(path, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lines == nil {
		l.lines = map[string]map[int]string{}
	}
	for _, line := range strings.Split(text, "\n") {
		num, rest, ok := strings.Cut(line, ": ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue // the note of a cut read
		}
		if l.lines[path] == nil {
			l.lines[path] = map[int]string{}
		}
		l.lines[path][n] = rest
	}
}

// carried is the text a prompt carries for the logs given: each file's
// lines, numbered as read_source numbers them, within the bounds.
func carried(logs ...*readLog) string {
	all := map[string]map[int]string{}
	for _, l := range logs {
		if l == nil {
			continue
		}
		l.mu.Lock()
		for p, lines := range l.lines {
			if all[p] == nil {
				all[p] = map[int]string{}
			}
			maps.Copy(all[p], lines)
		}
		l.mu.Unlock()
	}
	if len(all) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Source lines already read in this run (cite them as path:line as if you had read them; read_source for more):")
	shown, total := 0, 0
	for _, p := range slices.SortedFunc(maps.Keys(all), cmp.Compare) {
		nums := slices.Sorted(maps.Keys(all[p]))
		total += len(nums)
		head := "\n" + p + ":"
		for _, n := range nums {
			line := fmt.Sprintf("\n%d: %s", n, all[p][n])
			if shown >= maxCarriedLines || b.Len()+len(head)+len(line) > maxCarriedBytes {
				continue
			}
			b.WriteString(head + line)
			head = ""
			shown++
		}
	}
	if shown < total {
		fmt.Fprintf(&b, "\n[%d more lines read are not repeated here]", total-shown)
	}
	return b.String()
}

// reads is the run's read logs: the lesson's, and one per slide.
type reads struct {
	mu     sync.Mutex
	root   readLog
	slides map[string]*readLog
}

func (r *reads) slide(id string) *readLog {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.slides == nil {
		r.slides = map[string]*readLog{}
	}
	if r.slides[id] == nil {
		r.slides[id] = &readLog{}
	}
	return r.slides[id]
}
