#!/usr/bin/env bash
# Runs the whole workbook on a GPU machine in fresh build directories and collects the logs:
#   solution mode: every check, including the GPU ones and the grader self-tests, must pass;
#   student mode:  every chapter's checks must fail (the skeletons are not done).
# The measurements the GPU checks wrote are copied to measurements/<name>/ in the source tree
# (the committed H200 numbers live in measurements/h200/).
#
#   tools/run_gpu_suite.sh [OUTPUT_DIR] [MEASUREMENT_NAME]     defaults: ./gpu-run-logs h200
set -u
out=${1:-gpu-run-logs}
name=${2:-h200}
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d .)
arch=${arch:-90}
mkdir -p "$out"
status=0
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -n1
  meson --version
} >"$out/machine.txt" 2>&1

build() {  # build DIR MODE
  rm -rf "$1"
  meson setup "$1" -Dkernels="$2" -Dgpu_targets="$arch" >"$out/setup-$2.log" 2>&1 &&
    ninja -C "$1" >"$out/build-$2.log" 2>&1
}

if build build-gpu-solution solution; then
  meson test -C build-gpu-solution --print-errorlogs --num-processes 4 >"$out/test-solution.log" 2>&1 || status=1
  cp build-gpu-solution/meson-logs/testlog.txt "$out/testlog-solution.txt"
  cp build-gpu-solution/meson-logs/testlog.json "$out/testlog-solution.json"
  gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n1)
  python3 tools/gpu_suite_times.py build-gpu-solution/meson-logs/testlog.json "${gpu:-unknown GPU}" \
    >"$out/gpu-suite-seconds.tsv" && mkdir -p "measurements/$name" &&
    cp "$out/gpu-suite-seconds.tsv" "measurements/$name/"
  mkdir -p "measurements/$name"
  cp build-gpu-solution/measurements/*.tsv "measurements/$name/" 2>/dev/null
  cp build-gpu-solution/measurements/*.tsv "$out/" 2>/dev/null
  # What the wrong answers measured (only those timed before they were rejected).
  rm -rf "measurements/$name/wrong_answers"
  (cd build-gpu-solution/measurements && find wrong_answers -name '*.tsv') 2>/dev/null |
    while read -r f; do
      mkdir -p "measurements/$name/$(dirname "$f")"
      cp "build-gpu-solution/measurements/$f" "measurements/$name/$f"
    done
  tail -n 12 "$out/test-solution.log"
else
  echo "solution build failed"; tail -n 40 "$out/build-solution.log" "$out/setup-solution.log"; status=1
fi

if build build-gpu-student student; then
  meson test -C build-gpu-student --print-errorlogs >"$out/test-student.log" 2>&1
  cp build-gpu-student/meson-logs/testlog.txt "$out/testlog-student.txt"
  # Every chapter's host and GPU checks must fail in student mode.
  python3 tools/check_student_mode.py build-gpu-student/meson-logs/testlog.json || status=1
else
  echo "student build failed"; tail -n 40 "$out/build-student.log"; status=1
fi
# The chapter template on this GPU: a scratch chapter's skeleton fails, its solution passes.
python3 tools/check_chapter_template.py --gpu-target "$arch" >"$out/chapter-template.log" 2>&1 || status=1
tail -n 1 "$out/chapter-template.log"
exit $status
