//go:build unix

package sources

import "syscall"

// nonblock keeps an open of a FIFO swapped in after Stat from hanging.
const nonblock = syscall.O_NONBLOCK
