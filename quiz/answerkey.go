package quiz

// AnswerKey lists the right answers of the quiz's written questions: what
// students must not see before they answer (on the slide's board, say).
func (q *Quiz) AnswerKey() []string {
	var out []string
	for _, qu := range q.questions() {
		if qu.IsPlaceholder {
			continue
		}
		// A true/false answer ("true") or an order's items would be
		// found on any board; these give the task away word for word.
		out = append(out, texts(qu.Answers.Value)...)
		if qu.kind() == TypeNumeric && qu.Answer.Set {
			out = append(out, qu.Answer.Value.Raw)
		}
		if qu.ModelAnswer.Set {
			out = append(out, qu.ModelAnswer.Value)
		}
	}
	return out
}
