package cmd

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cast"
)

// settingType is what a setting's value must be. A value is parsed as
// strictly as its flag would parse it, wherever it was set: viper's own
// getters would quietly turn "abc" into 0, and the number 5 into a
// duration of 5ns.
type settingType int

const (
	textType     settingType = iota // string
	intType                         // int64
	floatType                       // float64
	durationType                    // time.Duration
	boolType                        // bool
	foldersType                     // []string
	pricesType                      // price.Table
	modelsType                      // map[string]price.Model
)

// want is the type as messages name it: "timeout must be …".
func (t settingType) want() string {
	return [...]string{
		textType:     "text",
		intType:      "a whole number",
		floatType:    "a number",
		durationType: "a duration such as 90s or 2m",
		boolType:     "true or false",
		foldersType:  "a folder or a list of folders",
		pricesType:   "a list of {model, input, cached_input, output} (USD per 1M tokens)",
		modelsType:   "a list of {model, context, shutdown_date, parallel_tool_calls, tools_without_reasoning, max_completion_tokens, response_format}",
	}[t]
}

var errSettingType = errors.New("wrong type")

// missingUnitError is a duration written as a bare number.
type missingUnitError struct{ n string }

func (e missingUnitError) Error() string { return "missing unit in duration " + e.n }

// fix says what to write instead.
func (e missingUnitError) fix() string {
	return fmt.Sprintf("write %ss (or %sm, %sh): a duration needs its unit, as on the command line", e.n, e.n, e.n)
}

// parse reads a value as set by a flag (viper hands over the flag's
// value), an environment variable (text) or a config file (YAML's
// types), into the type's Go type.
func (t settingType) parse(v any) (any, error) {
	switch t {
	case intType:
		return parseInt(v)
	case floatType:
		return parseFloat(v)
	case durationType:
		return parseDuration(v)
	case boolType:
		if s, ok := v.(string); ok {
			return strconv.ParseBool(s)
		}
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, errSettingType
	case foldersType:
		return parseFolders(v)
	case pricesType:
		return parsePrices(v)
	case modelsType:
		return parseModels(v)
	}
	switch v.(type) {
	case string, bool, int, int64, uint64, float64:
		return cast.ToString(v), nil
	}
	return nil, errSettingType
}

func parseInt(v any) (int64, error) {
	switch n := v.(type) {
	case string:
		return strconv.ParseInt(n, 0, 64)
	case int, int32, int64, uint, uint32, uint64:
		return cast.ToInt64E(n)
	case float64:
		// A JSON config file's numbers are all floats.
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n), nil
		}
	}
	return 0, errSettingType
}

// parseFloat refuses NaN and the infinities: NaN compares false with
// everything, so a --max-cost of NaN would cap nothing.
func parseFloat(v any) (float64, error) {
	var f float64
	var err error
	switch n := v.(type) {
	case string:
		f, err = strconv.ParseFloat(n, 64)
	case int, int32, int64, uint, uint32, uint64, float32, float64:
		f, err = cast.ToFloat64E(n)
	default:
		return 0, errSettingType
	}
	if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		err = errSettingType
	}
	return f, err
}

// parseDuration takes Go's duration syntax; a number alone is refused
// (but 0), as time.ParseDuration and so --timeout refuse it.
func parseDuration(v any) (time.Duration, error) {
	switch d := v.(type) {
	case time.Duration:
		return d, nil
	case string:
		parsed, err := time.ParseDuration(d)
		if _, nerr := strconv.ParseFloat(d, 64); err != nil && nerr == nil {
			return 0, missingUnitError{d}
		}
		return parsed, err
	case int, int32, int64, uint, uint32, uint64, float64:
		if f, _ := cast.ToFloat64E(d); f == 0 {
			return 0, nil
		}
		return 0, missingUnitError{fmt.Sprint(d)}
	}
	return 0, errSettingType
}

// parseFolders reads a list from a flag or the config file, one folder
// from the config file, or a path list (a:b) from the environment.
func parseFolders(v any) ([]string, error) {
	switch l := v.(type) {
	case string:
		return filepath.SplitList(l), nil
	case []string:
		return l, nil
	case []any:
		out := make([]string, len(l))
		for i, it := range l {
			s, ok := it.(string)
			if !ok {
				return nil, errSettingType
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, errSettingType
}
