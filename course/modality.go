package course

import (
	"html"
	"strings"

	"github.com/lessongen/lessongen/internal/pptx"
	"github.com/lessongen/lessongen/modality"
	"github.com/lessongen/lessongen/session"
)

// Modality is the course's registration: the root of a registry of its
// own (modalities.Course), one level above the lesson's.
func Modality() modality.Descriptor {
	return modality.Descriptor{
		Name:     "course",
		Doc:      "a course: its metadata and the list of its lessons",
		Intents:  Intents(),
		Read:     CapRead,
		Metadata: CapMetadata,
		Node:     CapNode,
		MaxNew:   maxNewLessons,
		NewItems: "lessons",
		Close:    Close{},
		Prompts: map[session.Level]string{
			session.LevelMetadata: metadataPrompt,
			session.LevelNode:     nodePrompt,
		},
		Render:  modality.NewRender(render),
		PPTX:    modality.NewPPTX(renderPPTX),
		Content: modality.NewContent((*Course).Content),
	}
}

// maxNewLessons bounds the lessons one subagent names: a term's unit.
const maxNewLessons = 40

const metadataPrompt = `You are writing the metadata of a course: a unit of lessons for teachers.

Outcomes are what pupils can do by the end of the unit: measurable, each starting with a verb, unless the author's brief asks for another form (the brief wins).

{{ template "rules" . }}

{{ template "task" . }}`

const nodePrompt = `You are planning the lessons of a course: a unit of lessons for teachers.

Each pending item of the lesson list is one lesson: name it with add_lesson, giving a short title and a brief of what it teaches. A lesson builds on the lessons before it in the outline: it reuses their vocabulary and does not teach again what they taught. Another assistant writes each lesson from its brief.

{{ template "rules" . }}

{{ template "task" . }}`

// render draws the course's outline: its outcomes and lessons.
func render(c *Course, _ map[string]string) modality.Rendered {
	var b strings.Builder
	if o := c.Outcomes.Value; len(o) > 0 {
		b.WriteString("<ul class=\"outcomes\">")
		for _, s := range o {
			b.WriteString("<li>" + html.EscapeString(s) + "</li>")
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("<ol class=\"lessons\">")
	for _, l := range c.Lessons {
		b.WriteString("<li>" + html.EscapeString(strings.TrimSpace(l.File+" "+l.Title)) + "</li>")
	}
	b.WriteString("</ol>\n")
	return modality.Rendered{Body: b.String()}
}

// renderPPTX draws nothing: a course is rendered as its lessons' decks.
func renderPPTX(*Course, map[string]string, pptx.Box) modality.PPTXRendered {
	return modality.PPTXRendered{}
}
