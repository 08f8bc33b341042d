#!/usr/bin/env bash
# Runs the whole workbook on a GPU machine in fresh build directories and collects the logs:
# solution mode must pass, student mode fail, the chapter template both. What the GPU checks
# measured is copied into the source tree before the checks of committed measurements (suite
# `measured`) run on it. Each part and where its files go: docs/instructors/maintaining.md.
#
#   tools/maintainer/run_gpu_suite.sh [OUTPUT_DIR] [MEASUREMENT_NAME] [PARTS] [CHAPTERS]
#       defaults: ./gpu-run-logs h200 "solution student" (every chapter)
#   (PARTS, of "solution lines slices student class", in several calls where time is limited;
#   CHAPTERS, a comma list of chapter folders (NN_slug,MM_slug), builds and runs only those:
#   the other chapters' measurements stay as committed, and so do their GPU-suite times)
set -u
cd "$(dirname "$0")/../.."
out=${1:-gpu-run-logs}
name=${2:-h200}
parts=" ${3:-solution student} "
chapters=${4:-}
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
  meson setup "$1" -Dkernels="$2" -Dgpu_targets="$arch" ${chapters:+-Dchapters="$chapters"} \
    >"$out/setup-$2.log" 2>&1 &&
    ninja -k 0 -C "$1" >"$out/build-$2.log" 2>&1  # -k 0: every failing unit in one go
}

# Copies what a solution-mode run measured into the source tree (maintaining.md says where).
copy_measurements() {  # copy_measurements BUILD
  local chapter folder file test answer
  shared="tools/maintainer/measurements/$name"
  mkdir -p "$shared"
  for file in "$1"/measurements/ch[0-9][0-9]_*.tsv; do
    [ -f "$file" ] || continue
    chapter=$(basename "$file" .tsv)   # chNN_slug
    folder=${chapter#ch}               # NN_slug
    [ -d "solutions/$folder" ] || continue
    mkdir -p "solutions/$folder/measurements"
    cp "$file" "solutions/$folder/measurements/$name.tsv"
    cp "$file" "$out/"
  done
  [ -f "$1/measurements/smem-cases.tsv" ] && cp "$1/measurements/smem-cases.tsv" "$shared/"
  # What a wrong answer measured before it was rejected
  # (<build>/measurements/wrong_answers/chNN_answer/chNN_slug.tsv), where a lesson quotes it: the
  # files committed in solutions/NN_slug/measurements/wrong_answers/ are renewed, no others (add
  # one by hand when a lesson starts quoting it), and only by a run on the GPU the lessons quote.
  [ "$name" = h200 ] || return 0
  for file in "$1"/measurements/wrong_answers/*/ch[0-9][0-9]_*.tsv; do
    [ -f "$file" ] || continue
    test=$(basename "$(dirname "$file")")   # chNN_answer
    chapter=$(basename "$file" .tsv)        # chNN_slug
    kept="solutions/${chapter#ch}/measurements/wrong_answers/${test#ch[0-9][0-9]_}.tsv"
    [ -f "$kept" ] && cp "$file" "$kept"
  done
}

if [[ "$parts" != *" solution "* ]]; then
  :
elif build build-gpu-solution solution; then
  # Everything but the checks of committed measurements, which wait for this run's.
  meson test -C build-gpu-solution --print-errorlogs --num-processes 4 --no-suite measured \
    >"$out/test-solution.log" 2>&1 || status=1
  cp build-gpu-solution/meson-logs/testlog.txt "$out/testlog-solution.txt"
  cp build-gpu-solution/meson-logs/testlog.json "$out/testlog-solution.json"
  gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n1)
  mkdir -p "tools/maintainer/measurements/$name"
  keep=()
  times="tools/maintainer/measurements/$name/gpu-suite-seconds.tsv"
  [ -n "$chapters" ] && [ -f "$times" ] && keep=(--keep "$times")
  python3 tools/maintainer/gpu_suite_times.py build-gpu-solution/meson-logs/testlog.json \
    "${gpu:-unknown GPU}" "${keep[@]}" >"$out/gpu-suite-seconds.tsv" &&
    cp "$out/gpu-suite-seconds.tsv" "tools/maintainer/measurements/$name/"
  copy_measurements build-gpu-solution
  # What the compiler made of the kernels a lesson quotes (solutions/NN_slug/compiled_code.ini),
  # counted in this build's SASS, which is for this GPU's architecture.
  python3 tools/maintainer/count_sass.py write build-gpu-solution . >"$out/count-sass.log" 2>&1 ||
    status=1
  tail -n 12 "$out/test-solution.log"
  # The lessons' marked numbers rewritten from what this run just measured (the prose follows
  # the files: docs/instructors/chapters.md), then the lessons, thresholds and suite time
  # checked against it.
  WORKBOOK_RENEW_FIGURES=1 meson test -C build-gpu-solution --suite lessons \
    >"$out/renew-figures.log" 2>&1 || status=1
  meson test -C build-gpu-solution --print-errorlogs --suite measured \
    >"$out/test-measured.log" 2>&1 || status=1
  cp build-gpu-solution/meson-logs/testlog.txt "$out/testlog-measured.txt"
  tail -n 8 "$out/test-measured.log"
else
  echo "solution build failed"; tail -n 40 "$out/build-solution.log" "$out/setup-solution.log"; status=1
fi

if [[ "$parts" == *" lines "* ]]; then
  # The grader's line-by-line view against Nsight Compute's source view, instruction by
  # instruction, on the chapters' counters checks (the solution build's).
  python3 tools/maintainer/compare_lines_with_ncu.py run build-gpu-solution "$out/lines" "$name" \
    >"$out/lines.log" 2>&1 || status=1
  tail -n 1 "$out/lines.log"
fi

if [[ "$parts" == *" slices "* ]]; then
  # The GPU checks and the references' (suite gpu) of the chapters this build holds.
  tools/maintainer/run_gpu_slices.sh build-gpu-solution "$out" "$name" "25 10" measured gpu ||
    status=1
fi

if [[ "$parts" != *" student "* ]]; then
  :
elif build build-gpu-student student; then
  meson test -C build-gpu-student --print-errorlogs >"$out/test-student.log" 2>&1
  cp build-gpu-student/meson-logs/testlog.txt "$out/testlog-student.txt"
  # Every chapter's host and GPU checks must fail in student mode.
  python3 tools/maintainer/meson_testlog.py student-mode build-gpu-student/meson-logs/testlog.json || status=1
  # ... and score no GPU points: class grading does not run an untouched chapter's GPU checks.
  python3 tools/maintainer/check_skeleton_points.py build-gpu-student --mode gpu \
    ${chapters:+--chapters "$chapters"} \
    >"$out/skeleton-points.log" 2>&1 || status=1
  tail -n 1 "$out/skeleton-points.log"
  # The chapter template on this GPU: a scratch chapter's skeleton fails, its solution passes.
  python3 tools/maintainer/check_chapter_template.py --gpu-target "$arch" \
    >"$out/chapter-template.log" 2>&1 || status=1
  tail -n 1 "$out/chapter-template.log"
else
  echo "student build failed"; tail -n 40 "$out/build-student.log"; status=1
fi

if [[ "$parts" == *" class "* ]]; then
  python3 tools/instructor/run_gpu_grading.py "$out/class" "$name" --gpu-targets "$arch" \
    >"$out/class.log" 2>&1 || status=1
  tail -n 3 "$out/class.log"
  python3 tools/maintainer/run_gpu_hostile_class.py "$out/hostile" "$name" --gpu-targets "$arch" \
    >"$out/hostile.log" 2>&1 || status=1
  tail -n 3 "$out/hostile.log"
fi
exit $status
