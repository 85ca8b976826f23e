package cmd

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// configKind is the schema command's name for the config file.
const configKind = "config"

// durationPattern is Go's duration syntax (time.ParseDuration), which a
// duration setting takes; 0 alone needs no unit.
const durationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// schema is the JSON Schema of a config file value of the type: what
// checkConfigFile accepts in its ordinary form.
func (t settingType) schema() map[string]any {
	switch t {
	case intType:
		return map[string]any{"type": "integer"}
	case floatType:
		return map[string]any{"type": "number"}
	case durationType:
		return map[string]any{"anyOf": []any{
			map[string]any{"type": "string", "pattern": durationPattern},
			map[string]any{"const": 0},
		}}
	case boolType:
		return map[string]any{"type": "boolean"}
	case foldersType:
		return map[string]any{"anyOf": []any{
			map[string]any{"type": "string"},
			map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		}}
	case pricesType:
		return pricesSchema()
	case modelsType:
		return modelsSchema()
	}
	return map[string]any{"type": []any{"string", "number", "boolean"}}
}

// configSchema is `lessongen schema config`: the JSON Schema (draft
// 2020-12) of lessongen.yaml, from settingTable.
func configSchema() map[string]any {
	props := map[string]any{}
	for _, s := range settingTable {
		p := s.typ.schema()
		p["description"] = s.help + " " + s.envNote()
		// A zero default is "none" or the server's, said by the help.
		if !s.setOnly && !reflect.ValueOf(s.def).IsZero() {
			p["default"] = s.def
			if dur, ok := s.def.(time.Duration); ok {
				p["default"] = dur.String()
			}
		}
		props[s.key] = p
	}
	return map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"title":                "lessongen config",
		"description":          "lessongen.yaml: settings below flags and LESSONGEN_* environment variables",
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
}

// docName is the type in the settings table (docs/reference.md).
func (t settingType) docName() string {
	return [...]string{
		textType:     "text",
		intType:      "whole number",
		floatType:    "number",
		durationType: "duration (`90s`, `2m`)",
		boolType:     "`true`/`false`",
		foldersType:  "folders",
		pricesType:   "list of prices",
		modelsType:   "list of models",
	}[t]
}

// settingsMarkdown is the settings table (docs/reference.md) of settings.
func settingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| setting (config file) | flag | environment | type | default |\n| --- | --- | --- | --- | --- |\n")
	for _, s := range settingTable {
		flag := "— (never a flag)"
		if s.flag() != "" {
			flag = "`--" + strings.TrimSpace(s.flag()+" "+s.arg) + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s | %s |\n",
			s.key, flag, strings.Join(s.envs(), "`, `"), s.typ.docName(), s.doc)
	}
	return b.String()
}
