package modality

import "github.com/lessongen/lessongen/session"

// PicturesFolder is the folder, beside the YAML file that holds a state,
// its attachments go in: a run writes nothing else there.
const PicturesFolder = "images"

// Attachment is a file a state keeps beside the YAML file that holds it: a
// picture a run copied from the sources or had generated. Src is its path
// relative to that file's folder, as the state's own field names it.
type Attachment struct {
	Src  string
	Data []byte
}

// Attacher is a state with attachments for the save path to write, before
// the YAML that names them, never over a different file (compose).
type Attacher interface {
	Attachments() []Attachment
}

// Pictured is a state that names picture files beside the YAML file that
// holds it: a save to another folder copies every one (compose), the
// author's own included, so the copy names none that is not there.
type Pictured interface {
	// Pictures lists each picture the state names, once, with the bytes
	// read and checked at load (or brought in by the run).
	Pictures() []Attachment
}

// Unpictured is an image a run described but has no picture for: what
// generate --images asks the server's image endpoint to draw.
type Unpictured struct {
	// ID names the element in its state; Prompt is what to draw.
	ID, Prompt string
}

// Illustrated is a state whose images may be drawn by an image model
// (generate --images): it lists those it generated without a picture,
// and makes the intent that gives one a picture, its prompt recorded
// and credit given to the model that drew it.
type Illustrated interface {
	Unpictured() []Unpictured
	Illustrate(id string, data []byte, prompt, credit string) session.Intent
}
