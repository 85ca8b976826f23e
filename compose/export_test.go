package compose

// SetBeforeCheck sets the hook run just before a save's last check that
// the file is still the one it merged (nil: none).
func SetBeforeCheck(f func(path string)) { beforeCheck = f }
