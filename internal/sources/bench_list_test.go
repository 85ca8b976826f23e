package sources

func listed(s *Sandbox) int { return len(s.List().Files) }
