package cmd

import "testing"

func TestAsYAML(t *testing.T) {
	got, ok := asYAML([]byte(`{"z":1,"a":{"text":"true","items":["x: y","plain"]},"n":null}`), "  ")
	want := "  z: 1\n  a:\n    text: \"true\"\n    items:\n      - 'x: y'\n      - plain\n  n: null"
	if !ok || got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, ok := asYAML([]byte(`{"a":`), ""); ok {
		t.Error("broken JSON shown as YAML")
	}
}
