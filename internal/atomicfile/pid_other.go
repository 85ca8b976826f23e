//go:build !unix

package atomicfile

// processAlive cannot tell here, so it says alive and only age decides.
func processAlive(int) bool { return true }
