//go:build unix

package compose

import "syscall"

// nonBlock opens a FIFO without waiting for a writer, so readFile can see
// what it is and refuse it.
const nonBlock = syscall.O_NONBLOCK
