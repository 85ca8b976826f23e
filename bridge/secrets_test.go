package bridge

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lessongen/lessongen/internal/redact"
	"github.com/lessongen/lessongen/session"
)

func TestCallsHoldingSecretsAreRefused(t *testing.T) {
	const key = "sk-live-0123456789abcdefWXYZ"
	sess := newBoard(t)
	ts, err := testBridge(t).NewToolset(levelFor(t, "whiteboard", session.LevelMetadata), "board", sess, Strict, ApproveAuto, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.Secrets = redact.New(key, "http://ann:url-password-99@host/v1")
	for _, args := range []string{
		`{"heading":"` + key + `"}`,
		`{"heading":"key: sk-live…WXYZ"}`,
		`{"heading":"sk-li...XYZ"}`,
		`{"heading":"url-password-99"}`,
		// A JSON escape hides the key from a search of the raw text.
		`{"heading":"\u0073k-live-0123456789abcdefWXYZ"}`,
		// Obfuscated: a zero-width space inside (raw and escaped), and the
		// key or the Basic credentials in base64, hex, percent-encoding.
		`{"heading":"sk-live-01234​56789abcdefWXYZ"}`,
		`{"heading":"sk-live-01234\u200b56789abcdefWXYZ"}`,
		`{"heading":"` + base64.StdEncoding.EncodeToString([]byte(key)) + `"}`,
		`{"heading":"Basic ` + base64.StdEncoding.EncodeToString([]byte("ann:url-password-99")) + `"}`,
		`{"heading":"` + hex.EncodeToString([]byte(key)) + `"}`,
		`{"heading":"%73%6B%2D%6C%69%76%65%2D%30%31%32%33%34%35%36%37%38%39%61%62%63%64%65%66%57%58%59%5A"}`,
	} {
		env, err := ts.Call(context.Background(), "set_heading", args)
		if err != nil {
			t.Fatal(err)
		}
		if env.OK || env.Error == nil || env.Error.Kind != session.KindPermission || !strings.Contains(env.Error.Message, "hold a secret") {
			t.Errorf("%s: got %+v", args, env)
			continue
		}
		data, _ := json.Marshal(env)
		if strings.Contains(string(data), "WXYZ") || strings.Contains(string(data), "url-password") {
			t.Errorf("the envelope echoes the secret: %s", data)
		}
	}
	if sess.Version() != 0 {
		t.Error("a call holding a secret changed the session")
	}
	// Text about keys is fine.
	env, _ := ts.Call(context.Background(), "set_heading", `{"heading":"Keys… and locks"}`)
	if !env.OK {
		t.Errorf("ordinary text refused: %+v", env.Error)
	}
}
