#!/bin/sh
# The cost floor as a user pays it (issue #39): `lessongen generate` run
# through the command (cmd.Run) with a state folder on disk and the
# checkpointer, against the fake server in the test process, and a no-op
# generate against validate. Prints each benchmark's median over COUNT runs
# (default 5) of:
#   written/final           bytes written to disk (/proc/self/io) / final lesson size
#   written/(final+state)   the same over everything the run left (lesson + state folder)
#   state/final             the state folder's size / the lesson's
#   fsyncs/run, fsyncs/file/run (the file with most), intervals+1/run (the bound)
#   cpu-ms/req              process CPU (getrusage, fake server included) per request
#   cpu-generate/validate   a no-op generate's CPU over validate's (2,000 slides)
# Linux only (/proc/self/io). Run from the repository root.
set -eu
count=${COUNT:-5}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test ./cmd -run '^$' -bench 'CostFloor' -benchtime 1x -count "$count" >"$out"
go test ./cmd -run '^$' -bench 'NoopGenerate' -benchtime 10x -count "$count" >>"$out"
# Medians of each metric, by benchmark.
awk '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 5; i < NF; i += 2) { k = name SUBSEP $(i+1); v[k] = v[k] " " $i; names[name] = 1; metric[name, ++m[name]] = $(i+1) }
}
END {
	for (name in names) {
		print name
		seen = ""
		for (j = 1; j <= m[name]; j++) {
			mt = metric[name, j]
			if (index(seen, "|" mt "|")) continue
			seen = seen "|" mt "|"
			n = split(v[name SUBSEP mt], a, " ")
			for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] + 0 < a[x] + 0) { t = a[x]; a[x] = a[y]; a[y] = t }
			printf "  %-24s %s\n", mt, a[int((n + 1) / 2)]
		}
	}
}' "$out" | awk '/^Benchmark/ { if (block) print block; block = $0; next } { block = block "\n" $0 } END { print block }'
