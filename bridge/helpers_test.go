package bridge

import (
	"encoding/json"
	"reflect"

	"github.com/lessongen/lessongen/session"
)

// duplicateKey finds the first key that occurs twice in one object of a
// valid JSON text and returns its path ("x", "style.color", "terms[1].term"):
// what decodeArgs finds, for the tests.
func duplicateKey(raw string) (string, bool) {
	a := decodeArgs(raw)
	return a.dup, a.hasDup
}

// Encode turns an intent back into a tool call, the inverse of Parse.
func Encode(in session.Intent) (name string, args json.RawMessage, err error) {
	args, err = json.Marshal(in)
	return ToolName(reflect.TypeOf(in)), args, err
}
