package fakellm

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestCmd(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: Setup,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakellm": Cmd,
			"chat":    chatCmd,
		},
	})
}

// chatCmd stands in for the program under test: `chat TEXT` posts one user
// message to $LESSONGEN_BASE_URL and prints the answer's status and body.
func chatCmd(ts *testscript.TestScript, neg bool, args []string) {
	body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":%q}]}`, strings.Join(args, " "))
	req, err := http.NewRequest(http.MethodPost, ts.Getenv("LESSONGEN_BASE_URL")+"/chat/completions", strings.NewReader(body))
	ts.Check(err)
	req.Header.Set("Authorization", "Bearer "+ts.Getenv("LESSONGEN_API_KEY"))
	res, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "%d %s\n", res.StatusCode, b)
	if (res.StatusCode != http.StatusOK) != neg {
		ts.Fatalf("status %d", res.StatusCode)
	}
}
