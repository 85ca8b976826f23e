//go:build unix

package regfile

import "syscall"

// nonBlock opens a named pipe without waiting for its other end, so the
// file can be checked and refused.
const nonBlock = syscall.O_NONBLOCK
