package quiz

import (
	"slices"

	"github.com/lessongen/lessongen/internal/suggest"
	"github.com/lessongen/lessongen/internal/yamlsrc"
)

// validateType checks the question's type and that it has no key of
// another type; false when the type is unknown, so its keys mean nothing.
func (qu *Question) validateType(r *yamlsrc.Reporter, qp string) bool {
	if qu.Type != "" && !slices.Contains(Types(), qu.Type) {
		r.At(yamlsrc.ValueAt(qu.Src, "type"), "%s.type must be one of %s, got %q", qp, listWords(Types()), qu.Type)
		return false
	}
	for i := 0; i+1 < len(qu.Src.Content); i += 2 {
		k := qu.Src.Content[i]
		if !qu.OmitKey(k.Value) {
			continue
		}
		// Most often a near miss of this type's key (answer for answers).
		if near := suggest.Nearest(k.Value, typeKeys[qu.kind()], 2); near != "" {
			r.At(k, "unknown key %q in %s; did you mean %q? (%s is a key of %s questions)", k.Value, qp, near, k.Value, listWords(typesWith(k.Value)))
			continue
		}
		r.At(k, "%s: %s is not a key of a %s question; remove it, or set the type whose key it is (%s)", qp, k.Value, qu.kind(), listWords(typesWith(k.Value)))
	}
	return true
}

// typesWith lists the types that have key.
func typesWith(key string) []string {
	var out []string
	for _, t := range Types() {
		if slices.Contains(typeKeys[t], key) {
			out = append(out, t)
		}
	}
	return out
}

// validateKind checks the answer of the question's type, where written.
func (qu *Question) validateKind(r *yamlsrc.Reporter, qp string) {
	at := func(key string) func(p optionProblem) {
		return func(p optionProblem) {
			n := yamlsrc.ValueAt(qu.Src, key)
			if p.index >= 0 {
				n = item(qu.Src, key, p.index)
			}
			r.At(n, "%s.%s: %s; %s", qp, key, p.msg, p.hint)
		}
	}
	switch qu.kind() {
	case TypeChoice:
		qu.validateChoice(r, qp)
	case TypeTrueFalse:
		if _, ok := qu.Answer.Value.Bool(); qu.Answer.Set && !ok {
			r.At(yamlsrc.ValueAt(qu.Src, "answer"), "%s.answer of a true_false question must be true or false, got %s", qp, qu.Answer.Value.shown())
		}
	case TypeShort:
		if msg := checkMarks(qu.Marks.Value); qu.Marks.Set && msg != "" {
			r.At(yamlsrc.ValueAt(qu.Src, "marks"), "%s.%s", qp, msg)
		}
	case TypeNumeric:
		qu.validateNumeric(r, qp)
	case TypeOrder:
		if qu.Items.Set {
			each(checkOrderItems(qu.Items.Value), at("items"))
		}
	case TypeMatch:
		if qu.Pairs.Set {
			each(checkPairs(qu.Pairs.Value), at("pairs"))
		}
	}
}

func (qu *Question) validateNumeric(r *yamlsrc.Reporter, qp string) {
	if _, ok := qu.Answer.Value.Number(); qu.Answer.Set && !ok {
		r.At(yamlsrc.ValueAt(qu.Src, "answer"), "%s.answer of a numeric question must be a number, got %s; write it without quotes or units (the unit goes in unit)", qp, qu.Answer.Value.shown())
	}
	if !qu.Tolerance.Set {
		return
	}
	tol, ok := qu.Tolerance.Value.Number()
	msg := checkTolerance(tol)
	if !ok {
		msg = "tolerance must be a number, got " + qu.Tolerance.Value.shown() + "; write how far from the answer still counts as right, 0 for exactly"
	}
	if msg != "" {
		r.At(yamlsrc.ValueAt(qu.Src, "tolerance"), "%s.%s", qp, msg)
	}
}

func each[T any](xs []T, fn func(T)) {
	for _, x := range xs {
		fn(x)
	}
}
