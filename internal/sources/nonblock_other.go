//go:build !unix

package sources

const nonblock = 0
