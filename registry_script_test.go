package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lessongen/lessongen/cmd"
)

// registryLevels is the level names of the registry lessongen runs with, in
// its order, so a scenario checks the program against the program's own
// list instead of a copy of it.
func registryLevels() ([]string, error) {
	reg, err := cmd.Registry()
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	return reg.LevelNames(), nil
}

// setupRegistry sets LEVELS to the levels of the registry lessongen runs
// with, as the program lists them ("lesson.metadata, lesson.node, ..."), for
// messages that name them all:
//
//	stderr 'levels: \Q'$LEVELS'\E$'
func setupRegistry(env *testscript.Env) error {
	levels, err := registryLevels()
	if err != nil {
		return err
	}
	env.Setenv("LEVELS", strings.Join(levels, ", "))
	return nil
}

// cmdEachLevel checks that the last command's stdout (or stderr) matches
// PATTERN once for every registered level, in the registry's order, with
// {level} in PATTERN standing for the level's name (matched literally):
//
//	exec lessongen tools
//	eachlevel stdout '^{level} \(\d+ tools\)$'
func cmdEachLevel(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[0] != "stdout" && args[0] != "stderr") {
		ts.Fatalf("usage: eachlevel stdout|stderr PATTERN")
	}
	if !strings.Contains(args[1], "{level}") {
		ts.Fatalf("eachlevel: PATTERN has no {level}")
	}
	levels, err := registryLevels()
	ts.Check(err)
	text := ts.ReadFile(args[0])
	rest := text
	for _, level := range levels {
		re, err := regexp.Compile("(?m)" + strings.ReplaceAll(args[1], "{level}", regexp.QuoteMeta(level)))
		ts.Check(err)
		loc := re.FindStringIndex(rest)
		if loc == nil {
			ts.Fatalf("eachlevel: no match for %s after the levels before it in %s:\n%s", re, args[0], text)
		}
		rest = rest[loc[1]:]
	}
}
