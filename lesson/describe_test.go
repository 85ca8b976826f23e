package lesson

import "testing"

// Grade is free text; the description reads naturally whatever its shape.
func TestLessonPhrase(t *testing.T) {
	tests := []struct{ grade, subject, want string }{
		{"7", "biology", "A grade 7 biology lesson"},
		{"8", "physics", "A grade 8 physics lesson"},
		{"K", "art", "A kindergarten art lesson"},
		{"k", "", "A kindergarten lesson"},
		{"KS1", "history", "A KS1 history lesson"},
		{"Year 3", "history", "A Year 3 history lesson"},
		{"7th grade", "science", "A 7th grade science lesson"},
		{"8th grade", "science", "An 8th grade science lesson"},
		{"11", "", "A grade 11 lesson"},
		{"9-10", "chemistry", "A grade 9-10 chemistry lesson"},
		{"Key Stage 2", "maths", "A Key Stage 2 maths lesson"},
		{"S2", "geography", "An S2 geography lesson"},
		{"adult learners", "biology", "A biology lesson for adult learners"},
		{"adults", "", "A lesson for adults"},
		{"university", "economics", "A university economics lesson"},
		{"", "art", "An art lesson"},
		{"", "", "A lesson"},
		{" 7 ", " biology ", "A grade 7 biology lesson"},
	}
	for _, tt := range tests {
		if got := lessonPhrase(tt.grade, tt.subject); got != tt.want {
			t.Errorf("lessonPhrase(%q, %q) = %q, want %q", tt.grade, tt.subject, got, tt.want)
		}
	}
}
