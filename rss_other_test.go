//go:build !unix

package main

import "os"

func maxRSS(*os.ProcessState) (int64, bool) { return 0, false }
