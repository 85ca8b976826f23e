// Package rule reads the constraints declared on intent fields by struct
// tags (minimum, maximum, minItems, maxItems, enum). The tag is the one
// declaration: the bridge writes it into the tool schema a model sees, and
// a modality's load check and dispatch check read it back through Of, so
// the three cannot drift apart.
package rule

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Rule is what one field's tags declare.
type Rule struct {
	// Field is the field's json name.
	Field              string
	Min, Max           *float64
	MinItems, MaxItems *int
	Enum               []string
}

// Parse reads the constraint tags of f.
func Parse(f reflect.StructField) (Rule, error) {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	r := Rule{Field: name}
	num := func(tag string) (*float64, error) {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			return nil, nil
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("field %s: %s tag %q: %w", f.Name, tag, v, err)
		}
		return &x, nil
	}
	count := func(tag string) (*int, error) {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			return nil, nil
		}
		x, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("field %s: %s tag %q: %w", f.Name, tag, v, err)
		}
		return &x, nil
	}
	var err error
	if r.Min, err = num("minimum"); err != nil {
		return r, err
	}
	if r.Max, err = num("maximum"); err != nil {
		return r, err
	}
	if r.MinItems, err = count("minItems"); err != nil {
		return r, err
	}
	if r.MaxItems, err = count("maxItems"); err != nil {
		return r, err
	}
	if v, ok := f.Tag.Lookup("enum"); ok {
		r.Enum = strings.Split(v, ",")
	}
	return r, nil
}

// Of returns the rule declared on the field of struct T whose json name is
// field, looking into embedded structs. A field that does not exist or a
// tag that does not parse is a programming error, and panics (every rule a
// modality reads is exercised by its tests).
func Of[T any](field string) Rule {
	f, ok := find(reflect.TypeFor[T](), field)
	if !ok {
		panic(fmt.Sprintf("rule: %s has no field %q", reflect.TypeFor[T](), field))
	}
	r, err := Parse(f)
	if err != nil {
		panic("rule: " + err.Error())
	}
	return r
}

func find(t reflect.Type, name string) (reflect.StructField, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tag == "" {
			if g, ok := find(f.Type, name); ok {
				return g, true
			}
			continue
		}
		if tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// In reports whether v lies in the declared range (NaN never does).
func (r Rule) In(v float64) bool {
	return !(r.Min != nil && !(v >= *r.Min)) && !(r.Max != nil && !(v <= *r.Max)) && v == v
}

// Range says the declared range in words: "between 1 and 10000".
func (r Rule) Range() string {
	switch {
	case r.Min != nil && r.Max != nil:
		return fmt.Sprintf("between %g and %g", *r.Min, *r.Max)
	case r.Min != nil:
		return fmt.Sprintf("at least %g", *r.Min)
	case r.Max != nil:
		return fmt.Sprintf("at most %g", *r.Max)
	}
	return "any number"
}

// Count reports whether n items are allowed.
func (r Rule) Count(n int) bool {
	return !(r.MinItems != nil && n < *r.MinItems) && !(r.MaxItems != nil && n > *r.MaxItems)
}

// Items says the allowed number of items in words: "between 1 and 8".
func (r Rule) Items() string {
	switch {
	case r.MinItems != nil && r.MaxItems != nil:
		return fmt.Sprintf("between %d and %d", *r.MinItems, *r.MaxItems)
	case r.MinItems != nil:
		return fmt.Sprintf("at least %d", *r.MinItems)
	case r.MaxItems != nil:
		return fmt.Sprintf("at most %d", *r.MaxItems)
	}
	return "any number of"
}

// Allows reports whether s is one of the enum's values (any, without one).
func (r Rule) Allows(s string) bool {
	if r.Enum == nil {
		return true
	}
	for _, e := range r.Enum {
		if e == s {
			return true
		}
	}
	return false
}

// Options lists the enum's values for a message: "left, center or right".
func (r Rule) Options() string {
	switch n := len(r.Enum); n {
	case 0:
		return ""
	case 1:
		return r.Enum[0]
	default:
		return strings.Join(r.Enum[:n-1], ", ") + " or " + r.Enum[n-1]
	}
}
