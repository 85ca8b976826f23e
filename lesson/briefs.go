package lesson

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
)

// ChildBriefs are the briefs of the new slide's children by kind; see
// modality.Briefed.
func (in AddSlide) ChildBriefs() map[string]string { return in.Briefs }

// addSlideJSON is AddSlide without its methods, for encoding/json.
type addSlideJSON AddSlide

// addSlideKeys are the JSON names of AddSlide's own fields: every other
// key of a call is a child kind's brief (the schema the bridge checked the
// call against names only registered kinds).
var addSlideKeys = func() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeFor[AddSlide]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "-" && name != "" {
			keys[name] = true
		}
	}
	return keys
}()

// UnmarshalJSON reads AddSlide's fields, and each other key as the brief
// of the child kind it names.
func (in *AddSlide) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	own := map[string]json.RawMessage{}
	briefs := map[string]string{}
	for k, v := range raw {
		if addSlideKeys[k] {
			own[k] = v
			continue
		}
		var brief string
		if err := json.Unmarshal(v, &brief); err != nil {
			return fmt.Errorf("%s: a child's brief is text: %w", k, err)
		}
		briefs[k] = brief
	}
	b, _ := json.Marshal(own)
	var out addSlideJSON
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	*in = AddSlide(out)
	if len(briefs) > 0 {
		in.Briefs = briefs
	}
	return nil
}

// MarshalJSON writes AddSlide as a call gives it: its fields and one key
// per child brief.
func (in AddSlide) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(addSlideJSON(in))
	if err != nil || len(in.Briefs) == 0 {
		return b, err
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	for k, v := range maps.All(in.Briefs) {
		obj[k] = v
	}
	return json.Marshal(obj)
}
