//go:build !unix

package compose

import (
	"os"
	"time"
)

// fileID gives no identity here; fileSet falls back to os.SameFile.
func fileID(os.FileInfo) any { return nil }

// changeTime is not known here: the modification time stands alone.
func changeTime(os.FileInfo) time.Time { return time.Time{} }
