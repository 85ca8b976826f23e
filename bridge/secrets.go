package bridge

import (
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/tool"
)

// Secrets tells whether text holds a secret of the run: its API key, a
// credential of its base URL, or a masked form of the key. A tool call
// whose arguments hold one is refused, so a key a model echoes never
// reaches a document (or, through it, a saved file).
type Secrets interface {
	Contains(s string) bool
}

// secretIn reports whether text, or any string in it once JSON escapes
// are decoded, holds a secret.
func secretIn(s Secrets, text string) bool {
	return s != nil && decodeArgs(text).holdSecret(s)
}

// holdSecret reports whether the arguments as sent, or any key or string
// of their decoded value, hold a secret.
func (a callArgs) holdSecret(s Secrets) bool {
	if s == nil {
		return false
	}
	return s.Contains(a.sent) || a.value != nil && secretInValue(s, a.value)
}

func secretInValue(s Secrets, v any) bool {
	switch x := v.(type) {
	case string:
		return s.Contains(x)
	case map[string]any:
		for k, it := range x {
			if s.Contains(k) || secretInValue(s, it) {
				return true
			}
		}
	case []any:
		for _, it := range x {
			if secretInValue(s, it) {
				return true
			}
		}
	}
	return false
}

// secretRefused is the envelope error for such a call. Neither the
// arguments nor the tool name are echoed.
func secretRefused() *tool.Error {
	return callErr(session.KindPermission, "",
		"write the value without it: credentials never go into a lesson",
		"this call's arguments hold a secret (the API key, a credential of the server URL, or a masked form of the key); nothing was changed")
}
