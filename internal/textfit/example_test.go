package textfit_test

import (
	"fmt"

	"github.com/lessongen/lessongen/internal/textfit"
)

func ExampleFit() {
	text := "The light reactions happen in the thylakoid membranes of the chloroplast"
	v := textfit.Fit(text, textfit.Style{FontSize: 24}, textfit.Box{W: 300, H: 80})
	fmt.Printf("fits %v, lines %q\n", v.Fits, v.Lines)
	fmt.Println(v.Hint)
	// Output:
	// fits false, lines ["The light reactions happen" "in the thylakoid membranes" "of the chloroplast"]
	// text needs 90 px of height, the box has 80: shorten it to about 50 characters, make the box 10 px taller (or 122 px wider), or use font size 21
}

func ExampleLayout_SVG() {
	box := textfit.Box{X: 40, Y: 20, W: 200, H: 60}
	v := textfit.Fit("Chlorophyll absorbs light", textfit.Style{FontSize: 20, Bold: true}, box)
	fmt.Println(v.SVG(box, "center", "darkgreen"))
	// Output:
	// <text font-family="'Lessongen Go'" font-size="20" font-weight="bold" text-anchor="middle" fill="darkgreen" text-rendering="geometricPrecision"><tspan x="140" y="39.84">Chlorophyll absorbs</tspan><tspan x="140" y="64.84">light</tspan></text>
}
