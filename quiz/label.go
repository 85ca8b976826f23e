package quiz

// OptionLabel is the label of the i-th option (0-based) as students see
// it: A, B, C … The HTML's and Markdown's option lists (type="A"), their
// answer keys and the PowerPoint deck all take it from here.
func OptionLabel(i int) string { return string(rune('A' + i)) }
