package rule

import (
	"math"
	"testing"
)

type box struct {
	W     float64 `json:"w" minimum:"1" maximum:"10000"`
	Align string  `json:"align,omitempty" enum:"left,center,right"`
}

type add struct {
	box
	Items []string `json:"items" minItems:"1" maxItems:"3"`
}

func TestOf(t *testing.T) {
	w := Of[add]("w") // found through the embedded struct
	for _, tc := range []struct {
		v  float64
		ok bool
	}{{1, true}, {10000, true}, {0.5, false}, {10001, false}, {math.NaN(), false}, {math.Inf(1), false}} {
		if w.In(tc.v) != tc.ok {
			t.Errorf("In(%g) = %v", tc.v, !tc.ok)
		}
	}
	if got := w.Range(); got != "between 1 and 10000" {
		t.Errorf("Range %q", got)
	}
	a := Of[box]("align")
	if !a.Allows("center") || a.Allows("justify") || a.Options() != "left, center or right" {
		t.Errorf("enum %+v", a)
	}
	items := Of[add]("items")
	if items.Count(0) || !items.Count(3) || items.Count(4) || items.Items() != "between 1 and 3" {
		t.Errorf("items %+v", items)
	}
}

func TestOfMissingFieldPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a field that does not exist")
		}
	}()
	Of[box]("h")
}
