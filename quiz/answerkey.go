package quiz

// AnswerKey lists the right answers of the quiz's written questions: what
// students must not see before they answer (on the slide's board, say).
func (q *Quiz) AnswerKey() []string {
	var out []string
	for _, qu := range q.questions() {
		if !qu.IsPlaceholder {
			out = append(out, qu.Answers.Value...)
		}
	}
	return out
}
