package textfit

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A corpus of text boxes for the browser agreement test and the benchmarks:
// varied scripts, lengths, font sizes and weights, and boxes that are loose,
// tight (the widest line a fraction of a pixel inside) or a quarter line too
// short.

type script struct {
	name  string
	words []string
	glue  string // between words; "" for scripts written without spaces
}

var scripts = []script{
	{"latin", strings.Fields("the light reactions happen in thylakoid membranes where chlorophyll absorbs photons and splits water into oxygen protons and electrons; glucose is built later in the Calvin cycle (stroma) from CO2, ATP and NADPH. Plants, algae & cyanobacteria do it: 6CO2 + 6H2O -> C6H12O6 + 6O2! Why? \"Energy\" - 42% efficiency, WAVE AVATAR Type; fly off."), " "},
	{"accented", strings.Fields("café naïve façade über Größe élève Ångström señor déjà crème brûlée São Paulo Łódź Dvořák Čeština Ærøskøbing smörgåsbord jalapeño Citroën Zürich Ülkü İstanbul ğüşöç"), " "},
	{"greek", strings.Fields("η φωτοσύνθεση είναι η διαδικασία με την οποία τα φυτά μετατρέπουν το φως σε χημική ενέργεια ΦΩΤΟΣΎΝΘΕΣΗ χλωροφύλλη οξυγόνο"), " "},
	{"cyrillic", strings.Fields("фотосинтез это процесс в котором растения превращают свет в химическую энергию ФОТОСИНТЕЗ хлорофилл кислород углекислый газ Щука Ёж"), " "},
	{"cjk", strings.Fields("光合作用 是 植物 利用 光能 把 二氧化碳 和 水 转化 为 葡萄糖 的 过程 光合成は 植物が 光 エネルギーを 使う 葉緑体 엽록체 광합성"), ""},
	{"arabic", strings.Fields("التمثيل الضوئي هو عملية تحويل الطاقة الضوئية إلى طاقة كيميائية في النباتات الخضراء"), " "},
	{"hebrew", strings.Fields("פוטוסינתזה היא תהליך שבו צמחים הופכים אור לאנרגיה כימית בעלים הירוקים"), " "},
	{"emoji", strings.Fields("🌱 sun ☀️ water 💧 leaf 🍃 earth 🌍 scientist 👩‍🔬 flag 🇫🇷 ok 👍🏽 spark ✨ idea 💡"), " "},
	{"mixed", strings.Fields("Photosynthesis фотосинтез φωτοσύνθεση 光合作用 التمثيل פוטוסינתזה café → ✓ 🌱 x² ½ €5 — «quoted» “curly” naïve"), " "},
}

var fontSizes = []float64{8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40, 48, 64, 96}

type corpusCase struct {
	script string
	kind   string // loose, tight-width, short-height, random
	align  string
	text   string
	style  Style
	box    Box
}

func (c corpusCase) String() string {
	return fmt.Sprintf("%s/%s size %g bold %v %s box %gx%g: %q", c.script, c.kind, c.style.FontSize, c.style.Bold, c.align, c.box.W, c.box.H, c.text)
}

// corpus returns n cases, the same ones for the same seed.
func corpus(n int, seed uint64) []corpusCase {
	rng := rand.New(rand.NewPCG(seed, 0x7e47f17))
	cases := make([]corpusCase, 0, n)
	for i := range n {
		sc := scripts[i%len(scripts)]
		words := make([]string, 1+rng.IntN(rng.IntN(60)+1))
		for j := range words {
			words[j] = sc.words[rng.IntN(len(sc.words))]
		}
		text := strings.Join(words, sc.glue)
		if rng.IntN(8) == 0 { // an explicit line break, sometimes a blank line
			k := rng.IntN(len(words))
			text = strings.Join(words[:k], sc.glue) + strings.Repeat("\n", 1+rng.IntN(2)) + strings.Join(words[k:], sc.glue)
		}
		st := Style{FontSize: fontSizes[rng.IntN(len(fontSizes))], Bold: rng.IntN(3) == 0}
		c := corpusCase{script: sc.name, text: text, style: st, align: []string{"left", "center", "right"}[rng.IntN(3)]}
		w := min(st.FontSize*(2+rng.Float64()*28), 900) // 2 to 30 em wide
		lh := LineHeight * st.FontSize
		switch i % 4 {
		case 0: // loose: room to spare in both directions
			l := Wrap(text, st, w)
			c.kind, c.box = "loose", Box{W: w, H: l.Height + rng.Float64()*lh}
		case 1: // tight width: the widest line a fraction of a pixel inside
			l := Wrap(text, st, w)
			c.kind, c.box = "tight-width", Box{W: l.Width + []float64{0.1, 0.25, 0.5, 1}[rng.IntN(4)], H: l.Height + 0.5*lh}
		case 2: // a quarter line too short, or just enough
			l := Wrap(text, st, w)
			c.kind, c.box = "short-height", Box{W: w, H: l.Height - 0.25*lh}
			if rng.IntN(2) == 0 {
				c.kind, c.box.H = "exact-height", l.Height
			}
		default: // anything, including boxes narrower than a character
			c.kind, c.box = "random", Box{W: 4 + rng.Float64()*400, H: 10 + rng.Float64()*300}
		}
		cases = append(cases, c)
	}
	return cases
}
