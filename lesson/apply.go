package lesson

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lessongen/lessongen/internal/rule"
	"github.com/lessongen/lessongen/internal/yamlsrc"
	"github.com/lessongen/lessongen/session"
)

// One apply per intent: Plan.Reduce dispatches each intent to its own
// applyTo, which changes the plan and returns the exact inverse of its
// change, or refuses and changes nothing.

func (in DescribeLesson) applyTo(p *Plan, rc *session.Context) (func(), error) {
	rc.Report(p.Describe() + "\n" + p.Outline())
	return nil, nil
}

func (in ListPending) applyTo(p *Plan, rc *session.Context) (func(), error) {
	rc.Report(p.Pending())
	return nil, nil
}

func (in SetTitle) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return setText(p, rc, &p.Metadata.Title, "title", in.Title)
}

func (in SetSubject) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return setText(p, rc, &p.Metadata.Subject, "subject", in.Subject)
}

func (in SetGrade) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return setText(p, rc, &p.Metadata.Grade, "grade", in.Grade)
}

func (in SetLanguage) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return setText(p, rc, &p.Metadata.Language, "language", in.Language)
}

func (in SetDuration) applyTo(p *Plan, rc *session.Context) (func(), error) {
	if r := lessonMinutes(); !r.In(float64(in.Minutes)) {
		return nil, session.Reject(session.KindInvalidArgs, "minutes", "a lesson lasts "+r.Range()+" minutes", "%d minutes is out of range", in.Minutes)
	}
	return setField(p, rc, &p.Metadata.DurationMinutes, "duration_minutes", in.Minutes)
}

func (in SetObjectives) applyTo(p *Plan, rc *session.Context) (func(), error) {
	items, err := cleanItems("objectives", in.Objectives, rule.Of[SetObjectives]("objectives"))
	if err != nil {
		return nil, err
	}
	return setList(p, rc, &p.Metadata.Objectives, "objectives", in.PendingID, items)
}

func (in SetPrerequisites) applyTo(p *Plan, rc *session.Context) (func(), error) {
	items, err := cleanList("prerequisites", in.Prerequisites, rule.Of[SetPrerequisites]("prerequisites"))
	if err != nil {
		return nil, err
	}
	return setField(p, rc, &p.Metadata.Prerequisites, "prerequisites", items)
}

func (in SetStandards) applyTo(p *Plan, rc *session.Context) (func(), error) {
	items, err := cleanList("standards", in.Standards, rule.Of[SetStandards]("standards"))
	if err != nil {
		return nil, err
	}
	return setField(p, rc, &p.Metadata.Standards, "standards", items)
}

func (in SetVocabulary) applyTo(p *Plan, rc *session.Context) (func(), error) {
	if v := p.Metadata.Vocabulary; in.PendingID == "" && len(yamlsrc.OpenSpots(v.Value)) == 0 && p.Protect && v.Set && !p.generated["vocabulary"] && len(undefined(v.Value)) > 0 {
		return nil, session.Reject(session.KindPrecondition, "terms", "the author listed the terms; write each pending definition with define_term ("+awaiting(v.Value)+")", "vocabulary is already set")
	}
	if r := rule.Of[SetVocabulary]("terms"); len(in.Terms) == 0 || !r.Count(len(in.Terms)) {
		return nil, session.Reject(session.KindInvalidArgs, "terms", "give "+r.Items()+" terms", "%d terms", len(in.Terms))
	}
	terms := make([]Term, len(in.Terms))
	for i, t := range in.Terms {
		terms[i] = Term{Term: strings.TrimSpace(t.Term), Definition: strings.TrimSpace(t.Definition), Sources: slices.Clone(t.Sources)}
		if terms[i].Term == "" || terms[i].Definition == "" {
			return nil, session.Reject(session.KindInvalidArgs, fmt.Sprintf("terms[%d]", i), "every term needs a word and a definition", "term %d is incomplete", i)
		}
		if err := citesAt(fmt.Sprintf("terms[%d].sources", i), t.Sources); err != nil {
			return nil, err
		}
	}
	return setList(p, rc, &p.Metadata.Vocabulary, "vocabulary", in.PendingID, terms)
}

func (in SetKeyLearningPoints) applyTo(p *Plan, rc *session.Context) (func(), error) {
	items, err := cleanItems("points", in.Points, rule.Of[SetKeyLearningPoints]("points"))
	if err != nil {
		return nil, err
	}
	return setList(p, rc, &p.Metadata.KeyLearningPoints, "key_learning_points", in.PendingID, items)
}

func (in SetMaterials) applyTo(p *Plan, rc *session.Context) (func(), error) {
	items, err := cleanItems("materials", in.Materials, rule.Of[SetMaterials]("materials"))
	if err != nil {
		return nil, err
	}
	return setList(p, rc, &p.Metadata.Materials, "materials", in.PendingID, items)
}

func (in SetMisconceptions) applyTo(p *Plan, rc *session.Context) (func(), error) {
	if mc := p.Metadata.Misconceptions; in.PendingID == "" && len(yamlsrc.OpenSpots(mc.Value)) == 0 && p.Protect && mc.Set && !p.generated["misconceptions"] && len(unanswered(mc.Value)) > 0 {
		return nil, session.Reject(session.KindPrecondition, "misconceptions", "the author listed the misconceptions; write each pending response with respond_to_misconception ("+awaitingResponse(mc.Value)+")", "misconceptions are already set")
	}
	if r := rule.Of[SetMisconceptions]("misconceptions"); len(in.Misconceptions) == 0 || !r.Count(len(in.Misconceptions)) {
		return nil, session.Reject(session.KindInvalidArgs, "misconceptions", "give "+r.Items()+" misconceptions", "%d misconceptions", len(in.Misconceptions))
	}
	items := make([]Misconception, len(in.Misconceptions))
	for i, c := range in.Misconceptions {
		items[i] = Misconception{Misconception: strings.TrimSpace(c.Misconception), Response: strings.TrimSpace(c.Response), Sources: slices.Clone(c.Sources)}
		if items[i].Misconception == "" || items[i].Response == "" {
			return nil, session.Reject(session.KindInvalidArgs, fmt.Sprintf("misconceptions[%d]", i), "every misconception needs the mistaken idea and the teacher's response", "misconception %d is incomplete", i)
		}
		if err := citesAt(fmt.Sprintf("misconceptions[%d].sources", i), c.Sources); err != nil {
			return nil, err
		}
	}
	return setList(p, rc, &p.Metadata.Misconceptions, "misconceptions", in.PendingID, items)
}

func (in DefineTerm) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.defineTerm(rc, in)
}

func (in RespondToMisconception) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.respond(rc, in)
}

func (in SetOutcome) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return setText(p, rc, &p.Metadata.Outcome, "outcome", in.Outcome)
}

func (in SetKeyQuestions) applyTo(p *Plan, rc *session.Context) (func(), error) {
	items, err := cleanItems("questions", in.Questions, rule.Of[SetKeyQuestions]("questions"))
	if err != nil {
		return nil, err
	}
	return setList(p, rc, &p.Metadata.KeyQuestions, "key_questions", in.PendingID, items)
}

func (in SetSections) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.setSections(rc, in)
}

func (in FillSection) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.fillSection(rc, in)
}

func (in SetLicence) applyTo(p *Plan, rc *session.Context) (func(), error) {
	id, ok := LicenceID(in.Licence)
	if !ok {
		return nil, session.Reject(session.KindInvalidArgs, "licence", "give the licence's SPDX id or expression, e.g. CC-BY-4.0 or MIT", "%q %s", in.Licence, licenceWarning(in.Licence))
	}
	return setField(p, rc, &p.Metadata.Licence, "licence", id)
}

func (in SetAttribution) applyTo(p *Plan, rc *session.Context) (func(), error) {
	a := Attribution{Text: strings.TrimSpace(in.Text), URL: strings.TrimSpace(in.URL)}
	if a.Text == "" {
		return nil, session.Reject(session.KindInvalidArgs, "text", "say who made the original work and what it is", "text is empty")
	}
	if msg := checkURL(a.URL); a.URL != "" && msg != "" {
		return nil, session.Reject(session.KindInvalidArgs, "url", "give the original's web address, or omit url", "url %s", msg)
	}
	return setField(p, rc, &p.Metadata.Attribution, "attribution", a)
}

func (in AddSlide) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.addSlide(rc, in)
}

func (in UpdateSlide) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.updateSlide(rc, in)
}

func (in MoveSlide) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.moveSlide(rc, in)
}

func (in RemoveSlide) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.removeSlide(rc, in)
}

func (in SetSlideProps) applyTo(p *Plan, rc *session.Context) (func(), error) {
	s, ok := p.list().Get(in.ID)
	if !ok {
		return nil, p.list().NotFound("id", in.ID)
	}
	compiled, err := compileProps(in.Props, p.kinds, p.bindable)
	if err != nil {
		return nil, session.Reject(session.KindInvalidArgs, "props", "props bind heading or layout to Go templates such as {{ .lesson.title }}", "%v", err)
	}
	oldProps, oldCompiled := s.Props, s.compiled
	s.Props, s.compiled = in.Props, compiled
	return func() { s.Props, s.compiled = oldProps, oldCompiled }, nil
}

func (in ClosePlaceholders) applyTo(p *Plan, rc *session.Context) (func(), error) {
	return p.closePlaceholders(rc)
}
