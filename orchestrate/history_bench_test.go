package orchestrate

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lessongen/lessongen/compose"
	"github.com/lessongen/lessongen/internal/fakellm"
	"github.com/lessongen/lessongen/internal/history"
)

// BenchmarkHistoryCPU generates the 20 pending whiteboards of a 200-slide
// lesson, as BenchmarkCheckpointCPU does, with every subagent's
// conversation saved to a state folder on disk as a real run saves it, at
// generate's default checkpoint interval (state=disk) and with every turn
// made durable (state=disk-every-turn, checkpoint_interval 0), and without
// one (state=none), and reports the CPU time per run and per model
// request (issue #28: history saving was 40 % of it, most in an fsync per
// message). The difference from state=none is what saving costs.
//
//	go test ./orchestrate -run '^$' -bench HistoryCPU -count 5
func BenchmarkHistoryCPU(b *testing.B) {
	srv := fakellm.Start(b, cleanBoardScript(benchLatency))
	for _, c := range []struct {
		state    string
		interval time.Duration
	}{{"none", 0}, {"disk", time.Second}, {"disk-every-turn", 0}} {
		b.Run("state="+c.state, func(b *testing.B) {
			var cpu, requests, syncs float64
			for b.Loop() {
				b.StopTimer()
				path := checkpointLesson(b, 200, 20)
				doc, err := compose.Load(path, testRegistry())
				if err != nil {
					b.Fatal(err)
				}
				opts := options(b, benchModel(b, srv), 4)
				if c.state != "none" {
					opts.StateDir = filepath.Join(filepath.Dir(path), ".lessongen")
					opts.CheckpointInterval = c.interval
				}
				before, synced := srv.RequestCount(), history.Syncs()
				b.StartTimer()
				start := cpuTime()
				report, err := Run(context.Background(), doc, Scope{}, opts)
				if err != nil || len(report.Incomplete()) > 0 {
					b.Fatalf("run: %v %+v", err, report.Incomplete())
				}
				cpu += float64(cpuTime() - start)
				requests += float64(srv.RequestCount() - before)
				syncs += float64(history.Syncs() - synced)
			}
			b.ReportMetric(cpu/requests/1e6, "cpu-ms/req")
			b.ReportMetric(cpu/float64(b.N)/1e6, "cpu-ms/run")
			b.ReportMetric(requests/float64(b.N), "req/run")
			b.ReportMetric(syncs/requests, "fsync/req")
		})
	}
}
