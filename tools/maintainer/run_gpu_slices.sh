#!/usr/bin/env bash
# Runs the whole solution suite on slices of the GPU (MPS: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE),
# copies each slice's measurements to solutions/NN_slug/measurements/<name>-sm<percent>.tsv, then
# runs suite `measured` once on them (docs/instructors/maintaining.md). Every check must pass on
# each slice. The MPS daemon is stopped at the end; no GPU setting is changed.
#
#   tools/maintainer/run_gpu_slices.sh [BUILD_DIR] [OUTPUT_DIR] [MEASUREMENT_NAME] [PERCENTS]
#                                      [measured|no-measured] [SUITES]
#       defaults: build-gpu-solution (a solution-mode build, as run_gpu_suite.sh makes)
#                 gpu-run-logs h200 "25 10" measured, every suite
#   (one slice per call, "25" no-measured then "10" measured, where a call's time is limited;
#   SUITES, e.g. "chNN chMM", runs only those meson suites on the slices: the other chapters'
#   slice measurements stay as committed)
set -u
cd "$(dirname "$0")/../.."
build=${1:-build-gpu-solution}
out=${2:-gpu-run-logs}
name=${3:-h200}
percents=${4:-25 10}
measured=${5:-measured}
suites=()
for suite in ${6:-}; do suites+=(--suite "$suite"); done
[ -f "$build/build.ninja" ] || { echo "no build in $build: run tools/maintainer/run_gpu_suite.sh first"; exit 2; }
mkdir -p "$out"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/workbook-mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/workbook-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d || { echo "could not start the MPS daemon"; exit 1; }
trap 'echo quit | nvidia-cuda-mps-control' EXIT
status=0
for percent in $percents; do
  rm -rf "$build/measurements" && mkdir -p "$build/measurements"
  if CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$percent meson test -C "$build" --no-rebuild \
      --num-processes 1 "${suites[@]}" --no-suite measured >"$out/test-sm$percent.log" 2>&1; then
    echo "$percent% of the SMs: every check passed"
  else
    echo "$percent% of the SMs: FAILED"; grep -E " FAIL | TIMEOUT | ERROR " "$out/test-sm$percent.log"
    status=1
  fi
  grep -m1 -h "GPU checks on" "$build"/meson-logs/testlog.txt | sed 's/^/  /'
  for file in "$build"/measurements/ch[0-9][0-9]_*.tsv; do
    [ -f "$file" ] || continue
    folder=$(basename "$file" .tsv)
    folder=${folder#ch}
    [ -d "solutions/$folder" ] && cp "$file" "solutions/$folder/measurements/$name-sm$percent.tsv"
  done
done
echo quit | nvidia-cuda-mps-control
trap - EXIT
# The thresholds against the slices just measured (and the lessons against the full GPU's).
if [ "$measured" != measured ]; then
  exit $status
fi
if meson test -C "$build" --no-rebuild --suite measured >"$out/test-slices-measured.log" 2>&1; then
  echo "the thresholds hold on both slices' measurements"
else
  echo "checks of the measurements FAILED"; grep -E " FAIL | ERROR " "$out/test-slices-measured.log"
  status=1
fi
exit $status
