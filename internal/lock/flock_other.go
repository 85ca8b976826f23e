//go:build !unix

package lock

import "os"

// TryLock has no advisory lock to take on this platform: runs on one lesson
// are not kept apart here (documented in docs/reference.md).
func TryLock(*os.File) (bool, error) { return true, nil }

func readOnlyFS(error) bool { return false }

// noFollow is not available here; the Lstat before the open stands alone.
const noFollow = 0
