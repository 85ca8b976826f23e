//go:build unix

package lock

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes an exclusive flock on f without waiting; false means
// another open file holds it.
func TryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}

func readOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }

// noFollow opens a lock file only if it is not a link: a planted link
// must not have the run truncate and write its target.
const noFollow = syscall.O_NOFOLLOW
