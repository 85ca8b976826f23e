//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is a finished process's peak resident set in bytes.
func maxRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss, true // bytes there, kilobytes elsewhere
	}
	return ru.Maxrss * 1024, true
}
