package cmd

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/spf13/viper"
	"gopkg.in/yaml.v3"

	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/internal/suggest"
)

// checkBaseURL refuses a base URL that is empty (which would otherwise fall
// back to OpenAI's and send the key there) or not an http(s) URL. Only its
// redacted form is quoted.
func checkBaseURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return usagef("--base-url is empty\nfix: set --base-url, LESSONGEN_BASE_URL or base_url in the config file to the server's URL with /v1 (e.g. http://localhost:11434/v1), or leave it unset for %s", defaultBaseURL)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("--base-url %q is not an http(s) URL\nfix: use the server's URL with /v1, e.g. http://localhost:11434/v1", redact.URL(raw))
	}
	return nil
}

// checkConfigFile checks a config file's keys and values against
// settingTable: unknown keys (a typo would silently do nothing), lines
// without a value, and values that do not parse as their setting's type,
// each named with its file:line:col when the file is YAML.
func checkConfigFile(path string, data []byte, fv *viper.Viper) error {
	at := configPositions(path, data)
	all := fv.AllSettings() // nested maps whole; lines without a value are left out
	for _, k := range slices.Sorted(slices.Values(fv.AllKeys())) {
		key, _, _ := strings.Cut(k, ".")
		st, ok := lookupSetting(key)
		if !ok {
			continue
		}
		if err := checkSettingType(path, st, all[key], at[key]); err != nil {
			return err
		}
	}
	for _, key := range fv.AllKeys() {
		key, _, _ = strings.Cut(key, ".")
		if _, ok := lookupSetting(key); !ok {
			hint := ""
			if near := suggest.Nearest(key, settingKeys, 2); near != "" {
				hint = fmt.Sprintf("; did you mean %q?", near)
			}
			return usagef("config file %s: unknown setting %q%s%s", path, key, hint, at[key].key)
		}
	}
	return nil
}

// configPos is where a config file's key and its value are written, as
// " (file:line:col)" to end a message; "" when unknown.
type configPos struct{ key, value string }

// configPositions finds each top-level key of a YAML (or JSON) config
// file; viper keeps no positions. Keys are lower case, as viper's.
func configPositions(path string, data []byte) map[string]configPos {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	at := func(n *yaml.Node) string { return fmt.Sprintf(" (%s:%d:%d)", path, n.Line, n.Column) }
	m := doc.Content[0]
	out := make(map[string]configPos, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		out[strings.ToLower(m.Content[i].Value)] = configPos{at(m.Content[i]), at(m.Content[i+1])}
	}
	return out
}

// checkSettingType checks one config file value: a list or a map where a
// single value belongs (api_key: [a, b]) is refused, and so is a value that
// does not parse as its setting's type. The message names the key and the
// file, and quotes the value unless it is a secret.
func checkSettingType(path string, st setting, value any, at configPos) error {
	want := st.typ.want()
	switch value.(type) {
	case nil:
		// "base_url:" with nothing after it would quietly mean the default
		// (OpenAI's, with the key sent there); a line without a value is a
		// mistake, never a setting.
		return usagef("config file %s: %s has no value; give it one or remove the line%s", path, st.key, at.key)
	case map[string]any:
		return usagef("config file %s: %s must be %s, not a list or a map%s", path, st.key, want, at.value)
	case []any:
		if st.typ != foldersType && st.typ != pricesType && st.typ != modelsType {
			return usagef("config file %s: %s must be %s, not a list or a map%s", path, st.key, want, at.value)
		}
	}
	_, err := st.typ.parse(value)
	switch {
	case err == nil:
		return nil
	case st.secret:
		return usagef("config file %s: %s must be %s%s", path, st.key, want, at.value)
	}
	msg := fmt.Sprintf("config file %s: %s must be %s, got %s%s", path, st.key, want, fmt.Sprint(value), at.value)
	var mu missingUnitError
	switch {
	case errors.As(err, &mu):
		msg += "\nfix: " + mu.fix()
	case st.typ == modelsType && !errors.Is(err, errSettingType):
		msg += ": " + err.Error() // which entry and field
	}
	return usagef("%s", msg)
}
