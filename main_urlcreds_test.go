package main

import (
	"net/url"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdURLCreds puts credentials into the URL held by an environment
// variable (a fake server's address is known only once it runs):
//
//	urlcreds LESSONGEN_BASE_URL user:password
func cmdURLCreds(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: urlcreds VAR USER:PASSWORD")
	}
	u, err := url.Parse(ts.Getenv(args[0]))
	ts.Check(err)
	name, pw, _ := strings.Cut(args[1], ":")
	u.User = url.UserPassword(name, pw)
	ts.Setenv(args[0], u.String())
}
