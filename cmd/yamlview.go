package cmd

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// asYAML shows a JSON value as block YAML, keys in their JSON order, each
// line indented by indent; ok is false when data is not JSON. JSON is
// YAML, so the node tree keeps order; clearing the flow and quote styles
// lets the encoder write the block form, quoting only where YAML needs it.
func asYAML(data []byte, indent string) (string, bool) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil || len(n.Content) == 0 {
		return "", false
	}
	var plain func(*yaml.Node)
	plain = func(n *yaml.Node) {
		n.Style = 0
		for _, c := range n.Content {
			plain(c)
		}
	}
	plain(&n)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return "", false
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	return indent + strings.Join(lines, "\n"+indent), true
}
