// Command lessongen turns partly written lesson plans into finished ones.
package main

import (
	"os"

	"github.com/lessongen/lessongen/cmd"
)

func main() {
	os.Exit(cmd.Main())
}
