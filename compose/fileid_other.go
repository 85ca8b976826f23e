//go:build !unix

package compose

import "os"

// fileID gives no identity here; fileSet falls back to os.SameFile.
func fileID(os.FileInfo) any { return nil }
