#!/usr/bin/env bash
# Runs the whole solution suite on slices of the GPU: the same GPU limited by MPS to 25% and 10%
# of its SMs (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE), as a stand-in for the smaller GPUs students
# have. Every check must pass there too. The chapters' measurements of each slice are copied to
# measurements/<name>-sm25/ and <name>-sm10/, where each chapter's lesson checks hold its
# thresholds to them. The MPS daemon is stopped at the end; no GPU setting is changed.
#
#   tools/run_gpu_slices.sh [BUILD_DIR] [OUTPUT_DIR] [MEASUREMENT_NAME]
#       defaults: build-gpu-solution (a solution-mode build, as tools/run_gpu_suite.sh makes)
#                 gpu-run-logs h200
set -u
build=${1:-build-gpu-solution}
out=${2:-gpu-run-logs}
name=${3:-h200}
[ -f "$build/build.ninja" ] || { echo "no build in $build: run tools/run_gpu_suite.sh first"; exit 2; }
mkdir -p "$out"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/workbook-mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/workbook-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d || { echo "could not start the MPS daemon"; exit 1; }
trap 'echo quit | nvidia-cuda-mps-control' EXIT
status=0
for percent in 25 10; do
  rm -rf "$build/measurements" && mkdir -p "$build/measurements"
  if CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$percent meson test -C "$build" --no-rebuild \
      --num-processes 1 >"$out/test-sm$percent.log" 2>&1; then
    echo "$percent% of the SMs: every check passed"
  else
    echo "$percent% of the SMs: FAILED"; grep -E " FAIL | TIMEOUT | ERROR " "$out/test-sm$percent.log"
    status=1
  fi
  grep -m1 -h "GPU checks on" "$build"/meson-logs/testlog.txt | sed 's/^/  /'
  rm -rf "measurements/$name-sm$percent" && mkdir -p "measurements/$name-sm$percent"
  cp "$build"/measurements/ch*.tsv "measurements/$name-sm$percent/" 2>/dev/null
done
exit $status
