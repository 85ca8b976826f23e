package cmd

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/spf13/cast"
	"github.com/spf13/viper"

	"github.com/lessongen/lessongen/internal/redact"
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

// settingKinds is what each config file setting must be; settings not
// listed are text.
var settingKinds = map[string]string{
	"concurrency": "a whole number", "max_steps": "a whole number", "max_tokens": "a whole number",
	"retries": "a whole number", "seed": "a whole number",
	"max_requests": "a whole number", "max_tokens_total": "a whole number", "max_answer_bytes": "a whole number",
	"temperature": "a number", "rps": "a number",
	"timeout": "a duration such as 90s or 2m", "attempt_timeout": "a duration such as 90s or 2m",
	"parallel_tool_calls": "true or false", "stream": "true or false", "review": "true or false",
	"sources": "a folder or a list of folders",
}

// secretSettings are never quoted in a message.
var secretSettings = map[string]bool{"api_key": true}

// checkSettingTypes checks every known setting in a config file (unknown
// ones are reported by the caller).
func checkSettingTypes(path string, fv *viper.Viper) error {
	all := fv.AllSettings() // nested maps whole; lines without a value are left out
	for _, k := range slices.Sorted(slices.Values(fv.AllKeys())) {
		key, _, _ := strings.Cut(k, ".")
		if !slices.Contains(settingKeys, key) {
			continue
		}
		if err := checkSettingType(path, key, all[key]); err != nil {
			return err
		}
	}
	return nil
}

// checkSettingType checks one config file value: a list or a map where a
// single value belongs (api_key: [a, b]) is refused, and so is a value that
// does not parse as its kind. The message names the key and the file, and
// quotes the value unless it is a secret.
func checkSettingType(path, key string, value any) error {
	kind, ok := settingKinds[key]
	if !ok {
		kind = "text"
	}
	var err error
	switch value.(type) {
	case nil:
		// "base_url:" with nothing after it would quietly mean the default
		// (OpenAI's, with the key sent there); a line without a value is a
		// mistake, never a setting.
		return usagef("config file %s: %s has no value; give it one or remove the line", path, key)
	case []any:
		if kind == settingKinds["sources"] {
			for _, it := range value.([]any) {
				if _, ok := it.(string); !ok {
					return usagef("config file %s: %s must be %s, got %s", path, key, kind, fmt.Sprint(value))
				}
			}
			return nil
		}
		return usagef("config file %s: %s must be %s, not a list or a map", path, key, kind)
	case map[string]any:
		return usagef("config file %s: %s must be %s, not a list or a map", path, key, kind)
	}
	switch kind {
	case "a whole number":
		_, err = cast.ToInt64E(value)
	case "a number":
		_, err = cast.ToFloat64E(value)
	case "a duration such as 90s or 2m":
		_, err = cast.ToDurationE(value)
	case "true or false":
		_, err = cast.ToBoolE(value)
	default:
		_, err = cast.ToStringE(value)
	}
	if err == nil {
		return nil
	}
	if secretSettings[key] {
		return usagef("config file %s: %s must be %s", path, key, kind)
	}
	return usagef("config file %s: %s must be %s, got %s", path, key, kind, fmt.Sprint(value))
}
