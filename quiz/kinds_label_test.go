package quiz

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestKindsTableMatchesTheToolsEnum: the kinds a slide heads and a
// description names are those set_kind offers, no more, no fewer.
func TestKindsTableMatchesTheToolsEnum(t *testing.T) {
	f, _ := reflect.TypeFor[SetKind]().FieldByName("Kind")
	offered := strings.Split(f.Tag.Get("enum"), ",")
	var named []string
	for k := range kinds {
		named = append(named, k)
	}
	slices.Sort(offered)
	slices.Sort(named)
	if !slices.Equal(offered, named) {
		t.Fatalf("set_kind offers %v; the kinds table names %v", offered, named)
	}
	if got := kindLabel("exit"); got != "Exit quiz" {
		t.Errorf("an exit quiz is headed %q", got)
	}
}
