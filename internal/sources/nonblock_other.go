//go:build !unix

package sources

import "io/fs"

const nonblock = 0

// links is 1 where the platform does not report hard links.
func links(fs.FileInfo) uint64 { return 1 }
