package cmd

import (
	"github.com/lessongen/lessongen/internal/price"

	"encoding/json"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/viper"
	"gopkg.in/yaml.v3"
)

var updateREADME = flag.Bool("update", false, "rewrite docs/reference.md's settings table from settingTable")

const (
	tableStart = "<!-- settings table: made from cmd/settings.go by go test ./cmd -run TestSettingsTableInReference -update -->\n"
	tableEnd   = "<!-- end of settings table -->\n"
)

// The reference's table of settings is settingTable's; -update rewrites it.
func TestSettingsTableInReference(t *testing.T) {
	data, err := os.ReadFile("../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	head, rest, ok1 := strings.Cut(readme, tableStart)
	_, tail, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("docs/reference.md lacks the settings table's markers %q … %q", tableStart, tableEnd)
	}
	want := head + tableStart + settingsMarkdown() + tableEnd + tail
	if *updateREADME {
		if err := os.WriteFile("../docs/reference.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if readme != want {
		t.Errorf("docs/reference.md's settings table is stale\nfix: go test ./cmd -run TestSettingsTableInReference -update")
	}
}

// A sample value of each type, not its zero.
var sampleValues = map[settingType]any{
	textType: "x", intType: int64(7), floatType: 0.5, durationType: 3 * time.Second,
	boolType: true, foldersType: []string{"d"},
	pricesType: price.Table{"m": {Input: 1, Output: 2}},
	modelsType: map[string]price.Model{"m": {Context: 1}},
}

// Every field of settings is filled by some row of the table (Browser is
// found from Chromium), so a new field cannot be left out of it.
func TestEverySettingsFieldIsInTheTable(t *testing.T) {
	filled := map[string]bool{"Browser": true}
	typ := reflect.TypeFor[settings]()
	for _, st := range settingTable {
		var s settings
		st.set(&s, sampleValues[st.typ])
		v := reflect.ValueOf(s)
		for i := range typ.NumField() {
			if !v.Field(i).IsZero() {
				filled[typ.Field(i).Name] = true
			}
		}
		if got, err := st.typ.parse(st.def); err != nil || reflect.TypeOf(got) != reflect.TypeOf(sampleValues[st.typ]) {
			t.Errorf("%s: default %#v is not of its type (%v)", st.key, st.def, err)
		}
	}
	for i := range typ.NumField() {
		if name := typ.Field(i).Name; !filled[name] {
			t.Errorf("settings.%s is set by no row of settingTable", name)
		}
	}
}

// A value is parsed as strictly as its flag would parse it, from text
// (flags, environment) and from YAML's types alike.
func TestSettingTypesAreStrict(t *testing.T) {
	for _, c := range []struct {
		typ  settingType
		in   any
		want any // nil: refused
	}{
		{durationType, "90s", 90 * time.Second},
		{durationType, "0", time.Duration(0)},
		{durationType, 0, time.Duration(0)},
		{durationType, "5", nil},
		{durationType, 5, nil},
		{durationType, 2.5, nil},
		{durationType, "soon", nil},
		{intType, "12", int64(12)},
		{intType, 12, int64(12)},
		{intType, 4.0, int64(4)}, // a JSON config file's numbers
		{intType, 2.5, nil},
		{intType, "2.5", nil},
		{intType, true, nil},
		{floatType, "0.7", 0.7},
		{floatType, 1, 1.0},
		{floatType, false, nil},
		{boolType, "true", true},
		{boolType, false, false},
		{boolType, 1, nil},
		{boolType, "yes", nil},
		{textType, "gpt", "gpt"},
		{textType, 4, "4"},
		{textType, []any{"a"}, nil},
		{foldersType, []any{"a", "b"}, []string{"a", "b"}},
		{foldersType, []any{map[string]any{"a": 1}}, nil},
	} {
		got, err := c.typ.parse(c.in)
		switch {
		case c.want == nil && err == nil:
			t.Errorf("%s: %#v accepted as %#v", c.typ.want(), c.in, got)
		case c.want != nil && (err != nil || !reflect.DeepEqual(got, c.want)):
			t.Errorf("%s: %#v = %#v, %v; want %#v", c.typ.want(), c.in, got, err, c.want)
		}
	}
}

// `lessongen schema config` accepts exactly the config files the check
// accepts, for files a person writes; and every default passes both.
func TestConfigSchemaAgreesWithCheck(t *testing.T) {
	raw, err := json.Marshal(configSchema())
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	defaults := map[string]any{}
	for _, st := range settingTable {
		if d := st.def; !reflect.ValueOf(d).IsZero() {
			if dur, ok := d.(time.Duration); ok {
				d = dur.String()
			}
			defaults[st.key] = d
		}
	}
	all, _ := yaml.Marshal(defaults)
	for _, c := range []struct {
		src string
		ok  bool
	}{
		{string(all), true},
		{"# every setting commented out\n", true},
		{"model: gpt-4.1\ntimeout: 90s\nattempt_timeout: 0\nsources: [a, b]\nstream: true\nrps: 1.5\n", true},
		{"sources: notes\ncheckpoint_interval: 1m30s\n", true},
		{"timeout: 5\n", false},
		{"checkpoint_interval: soon\n", false},
		{"concurrency: lots\n", false},
		{"concurrency: 2.5\n", false},
		{"stream: 1\n", false},
		{"api_key: [a, b]\n", false},
		{"sources: [{a: 1}]\n", false},
		{"modle: gpt-4.1\n", false},
		{"base_url:\n", false},
	} {
		fv := viper.New()
		fv.SetConfigType("yaml")
		if err := fv.ReadConfig(strings.NewReader(c.src)); err != nil {
			t.Fatal(err)
		}
		checkErr := checkConfigFile("c.yaml", []byte(c.src), fv)
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &n); err != nil {
			t.Fatal(err)
		}
		value := any(map[string]any{})
		if len(n.Content) > 0 {
			value = editorValue(&n)
		}
		schemaErr := rs.Validate(value)
		if (checkErr == nil) != c.ok || (schemaErr == nil) != c.ok {
			t.Errorf("%q: check says %v, schema says %v; want ok=%v", c.src, checkErr, schemaErr, c.ok)
		}
	}
}
