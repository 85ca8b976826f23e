package course

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Waits lists, for each lesson of sel (indexes into all, in order), the
// earlier lesson of sel it waits for: the last one whose summary a run
// will still write (Summary.Pending), since what it is told of it would
// change. That one waited in turn for the pending one before it, so
// being ready is passed down the course and one wait each is enough
// (the cost per lesson stays flat). A lesson after only finished ones
// starts at once; a lesson not in sel is not run, so nothing waits for it.
func Waits(all []Summary, sel []int) map[int][]int {
	out := map[int][]int{}
	last := -1
	for _, i := range sel {
		if last >= 0 {
			out[i] = []int{last}
		}
		if all[i].Pending {
			last = i
		}
	}
	return out
}

// Schedule runs run for every lesson of sel side by side, each once the
// lessons it waits for (Waits) are ready: when their run calls ready
// (its summary is written: the lesson's metadata level ended) or ends,
// however it ended. A lesson whose turn comes after ctx ended is not
// started: its error is the cause. It returns each lesson's error by
// index.
func Schedule(ctx context.Context, sel []int, waits map[int][]int, run func(ctx context.Context, i int, ready func()) error) map[int]error {
	ready := map[int]func(){}
	readyCh := map[int]chan struct{}{}
	for _, i := range sel {
		ch := make(chan struct{})
		readyCh[i], ready[i] = ch, sync.OnceFunc(func() { close(ch) })
	}
	var mu sync.Mutex
	errs := map[int]error{}
	var wg sync.WaitGroup
	for _, i := range sel {
		wg.Go(func() {
			defer ready[i]()
			for _, k := range waits[i] {
				<-readyCh[k]
			}
			err := context.Cause(ctx)
			if err == nil {
				err = run(ctx, i, ready[i])
			}
			mu.Lock()
			errs[i] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	return errs
}

// Select reads --lessons: a comma-separated list of 1-based positions and
// names (a lesson file's path as the course writes it, its base name with
// or without .yaml, or its title), in course order; "" selects all.
func Select(spec string, all []Summary) ([]int, error) {
	if strings.TrimSpace(spec) == "" {
		sel := make([]int, len(all))
		for i := range sel {
			sel[i] = i
		}
		return sel, nil
	}
	var sel []int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		i, err := lookup(part, all)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(sel, i) {
			sel = append(sel, i)
		}
	}
	slices.Sort(sel)
	return sel, nil
}

func lookup(name string, all []Summary) (int, error) {
	if n, err := strconv.Atoi(name); err == nil {
		if n < 1 || n > len(all) {
			return 0, fmt.Errorf("--lessons %d: the course has lessons 1 to %d", n, len(all))
		}
		return n - 1, nil
	}
	for i, s := range all {
		base := path.Base(s.File)
		if s.File != "" && (name == s.File || name == base || name == strings.TrimSuffix(base, path.Ext(base))) ||
			s.Title != "" && strings.EqualFold(name, s.Title) {
			return i, nil
		}
	}
	var names []string
	for i, s := range all {
		names = append(names, fmt.Sprintf("%d %s", i+1, s.File))
	}
	return 0, fmt.Errorf("--lessons %q names no lesson of the course; give positions or names: %s", name, strings.Join(names, ", "))
}
