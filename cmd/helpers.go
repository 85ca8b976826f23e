package cmd

import (
	"github.com/lessongen/lessongen/session"
	"github.com/lessongen/lessongen/whiteboard"
)

func boardPending(s *session.Session) []session.Pending {
	var ps []session.Pending
	s.View(func(st session.State) { ps = st.(*whiteboard.Board).Pending() })
	return ps
}
