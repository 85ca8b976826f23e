package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"

	"github.com/lessongen/lessongen/internal/textfit"
)

// Browsers are the names FindBrowser looks for on the PATH, in order.
var Browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// ErrNoBrowser is FindBrowser's answer when none of Browsers is on the PATH.
var ErrNoBrowser = errors.New("no Chromium on the PATH (looked for " + strings.Join(Browsers, ", ") + ")")

// FindBrowser is the path of the browser named by want (a path or a
// name on the PATH) or, when want is "", of the first of Browsers on the
// PATH.
func FindBrowser(want string) (string, error) {
	if want != "" {
		p, err := exec.LookPath(want)
		if err != nil {
			return "", fmt.Errorf("no browser at %s", want)
		}
		return p, nil
	}
	for _, name := range Browsers {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoBrowser
}

// MaxShotSide bounds a screenshot's longer side in pixels: a board larger
// than this is drawn scaled down (and compactShot bounds its bytes).
const MaxShotSide = 1280

// Shooter draws rendered fragments (a whiteboard's SVG) in headless
// Chromium and screenshots them as PNG, as `render` draws them. One
// browser serves a run; each shot opens its own tab, so shots may run at
// once. The browser starts on the first shot.
type Shooter struct {
	path string

	once    sync.Once
	alloc   context.Context
	cancel  context.CancelFunc
	dir     string
	startEr error
}

// NewShooter returns a Shooter that runs the browser at path.
func NewShooter(path string) *Shooter { return &Shooter{path: path} }

func (s *Shooter) start() error {
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "lessongen-shot-")
		if err != nil {
			s.startEr = err
			return
		}
		s.dir = dir
		s.alloc, s.cancel = chromedp.NewExecAllocator(context.Background(), browserOptions(s.path)...)
	})
	return s.startEr
}

// browserOptions start the headless browser at path (screenshots, PDF).
func browserOptions(path string) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU)
	if len(os.TempDir()) > maxSocketDir {
		// Chromium puts its singleton socket under TMPDIR and will not
		// start when that path passes the socket path limit (108 bytes).
		opts = append(opts, chromedp.Env("TMPDIR=/tmp"))
	}
	return opts
}

// maxSocketDir is the longest TMPDIR under which Chromium's
// "org.chromium.Chromium.XXXXXX/SingletonSocket" fits a socket path.
const maxSocketDir = 60

// Close stops the browser and removes its pages.
func (s *Shooter) Close() {
	if s.cancel != nil {
		s.cancel()
	}
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

var viewBox = regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`)

// ShotSize is the pixel size a fragment is drawn at: its SVG's viewBox
// (the board's canvas), scaled down to fit MaxShotSide; 1280×720 when it
// names none.
func ShotSize(body string) (w, h int) {
	w, h = 1280, 720
	if m := viewBox.FindStringSubmatch(body); m != nil {
		w, _ = strconv.Atoi(m[1])
		h, _ = strconv.Atoi(m[2])
	}
	w, h = max(w, 1), max(h, 1)
	if long := max(w, h); long > MaxShotSide {
		w, h = max(w*MaxShotSide/long, 1), max(h*MaxShotSide/long, 1)
	}
	return w, h
}

// ShotPageWidth is the width a fragment that is not a board (a quiz, an
// activity) is drawn at: a page column, as the handout shows it. Its
// height is the fragment's own, at most MaxShotSide.
const ShotPageWidth = 960

// isBoard reports whether body is a board's SVG, drawn at its canvas's
// size; anything else is drawn as a page column.
func isBoard(body string) bool { return strings.HasPrefix(strings.TrimSpace(body), "<svg") }

// Shot draws body (an HTML fragment, e.g. Rendered.Body) alone on a page
// with render's fonts and styles and returns it as a PNG of at most
// MaxShotBytes (see compactShot): a board fills a viewport of ShotSize;
// anything else (a quiz, an activity) is drawn ShotPageWidth wide and as
// tall as it is, up to MaxShotSide.
func (s *Shooter) Shot(ctx context.Context, body string) ([]byte, error) {
	if err := s.start(); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	w, h := ShotSize(body)
	board := isBoard(body)
	if !board {
		w, h = ShotPageWidth, 200
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><style>\n")
	b.WriteString(textfit.FontFaceCSS())
	if textfit.UsesMono(body) {
		b.WriteString(textfit.MonoFontFaceCSS())
	}
	fmt.Fprintf(&b, ":root{--font:'%s',sans-serif}\n", textfit.FontFamily)
	b.WriteString(pageCSS)
	// The board fills the viewport, without the page's frame.
	b.WriteString("\nhtml,body{margin:0;padding:0;background:#fff;overflow:hidden}\nbody>section{margin:0;padding:24px}\nsvg.whiteboard{position:fixed;left:0;top:0;width:100vw;height:100vh;max-height:none;max-width:none;border:0;border-radius:0}\n</style></head><body>\n")
	b.WriteString(body)
	b.WriteString("\n</body></html>\n")
	f, err := os.CreateTemp(s.dir, "board-*.html")
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	tab, cancel := chromedp.NewContext(s.alloc)
	defer cancel()
	// The run's context ends the shot too.
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(w), int64(h)), chromedp.Navigate("file://"+filepath.ToSlash(f.Name()))); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	if !board {
		// As tall as the fragment, within the bound.
		tall, err := chromedp.Run(tab, chromedp.Evaluate[float64](`document.documentElement.scrollHeight`))
		if err != nil {
			return nil, fmt.Errorf("screenshot: %w", err)
		}
		if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(w), int64(min(max(int(tall), 1), MaxShotSide)))); err != nil {
			return nil, fmt.Errorf("screenshot: %w", err)
		}
	}
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return compactShot(png)
}
