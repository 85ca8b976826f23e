//go:build !unix

package compose

const nonBlock = 0
