#!/usr/bin/env bash
# Regenerates every file that depends on the registry (modalities/modalities.go):
# run it after adding, removing or changing a kind, then review the diff.
# It rewrites expected outputs, so no test and no CI step may call it.
#
#   bridge/testdata/catalog/*.golden.json      the tool catalog per kind (add_slide's briefs)
#   orchestrate/testdata/prompts/*.txt         the prompts per level
#   orchestrate/cost_calibrated.go             plan --cost's calibration, from testdata/recordings/fractions
#                                              (a real model's run: remake that recording for new prompts)
#   internal/conformance/testdata/capabilities.txt  which kind has which capability
#   examples/photosynthesis/recording.jsonl    the README's first command's replay
set -euo pipefail
cd "$(dirname "$0")/.."

run() { echo "+ $*"; "$@"; }
run go test ./bridge -run 'TestCatalogGolden$' -update
run go test ./orchestrate -run 'TestGoldenPrompts$' -update
run go test ./orchestrate -run 'TestCostCalibration$' -update
run go test ./internal/conformance -run 'TestCapabilityMatrix$' -update
run go test . -run 'TestExampleRecording$' -update
git status --short -- bridge/testdata/catalog orchestrate/testdata/prompts orchestrate/cost_calibrated.go \
  internal/conformance/testdata examples/photosynthesis
