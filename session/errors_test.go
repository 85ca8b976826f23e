package session

import (
	"fmt"
	"strings"
	"testing"
)

func TestRejectUnknownHint(t *testing.T) {
	if e := RejectUnknown("id", "element", "x", nil, "existing ids", "no elements yet"); e.Hint != "no elements yet" || e.Message != `no element "x"` || e.Kind != KindNotFound {
		t.Errorf("empty: %+v", e)
	}
	var ids []string
	for i := range 2000 {
		ids = append(ids, fmt.Sprintf("e%d", i))
	}
	e := RejectUnknown("id", "element", "x", ids, "existing ids", "")
	if n := strings.Count(e.Hint, ","); n != maxIDsInHint || !strings.HasSuffix(e.Hint, "…") || !strings.HasPrefix(e.Hint, "existing ids: e0, e1") {
		t.Errorf("2,000 ids give a hint with %d commas: %.80s…", n, e.Hint)
	}
	if len(ids) != 2000 || ids[maxIDsInHint] != "e30" {
		t.Error("RejectUnknown changed the caller's slice")
	}
}
