package modality

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
