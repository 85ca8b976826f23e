//go:build !unix

package regfile

import "io/fs"

const nonBlock = 0

// Links is 1 where the platform does not report hard links.
func Links(fs.FileInfo) uint64 { return 1 }
