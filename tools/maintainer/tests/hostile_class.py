"""A hostile class (CI, host mode, the workbook's first chapter): every way a submission once took
marks, took them from classmates, escaped the sandbox or spoiled the class, or was judged apart
from its own code (a fault of the machine taken for the student's, or the student's for the
machine's), each kept as a submission graded beside honest ones. Each must score what it earned
(zero where it cheated, full where it only misbehaved harmlessly), be graded (never left "to be
retried"), harm no classmate and leave no process behind, and the class must complete. Used by
grading_ci.py, and submission by submission by gradescope_ci.py (Gradescope's autograder):

    cases = hostile_class.write(root, folder, chapter, secrets, checks)   # {name: Case}
    problems = hostile_class.judge(cases, results, ...)

Its helpers, which make hostile submissions (put, the archive builders) and read what grading
made of them (graded, refusal), serve the grading tool's other tests too.
"""
import io
import json
import os
import re
import struct
import tarfile
import warnings
import zipfile

HEADER = (b"#include <chrono>\n#include <csignal>\n#include <cstdio>\n#include <cstdlib>\n"
          b"#include <cstring>\n#include <fstream>\n#include <iostream>\n#include <string>\n"
          b"#include <thread>\n#include <fcntl.h>\n#include <sys/stat.h>\n#include <unistd.h>\n")


class Case:
    """A submission and what it must score: `score` ("full", "zero", "less", "full or refused"
    (zero, the build saying why) or a number) and
    words its checks' output or the notes must hold (`says`), and must not (`never`). `kind`
    says where it applies: "any" sandbox, or only the "namespace" sandbox (what the fallback
    sandbox of a Gradescope container does not hide)."""

    def __init__(self, item, what, score, says=(), never=(), kind="any"):
        self.item, self.what, self.score = item, what, score
        self.says, self.never, self.kind = list(says), list(never), kind


def static_code(body):
    """C++ that runs `body` when the grader's process starts (a static initializer)."""
    return ("\nnamespace {\nconst int planted = [] {\n" + body + "\n  return 0;\n}();\n}\n").encode()


def in_prediction(source, body):
    """`body` at the start of chapter 01's predicted_wavefronts (host code, run by a check)."""
    marker = b"int predicted_wavefronts(const PatternCase& c) {"
    assert marker in source, "chapter 01's exercise has no predicted_wavefronts"
    return source.replace(marker, marker + b"\n" + body.encode() + b"\n", 1)


def refusal(kind, call):
    """What `call()` says as it raises `kind`, or "" where it raises nothing."""
    try:
        call()
    except kind as e:
        return str(e)
    return ""


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def zip_bytes(members, compression=zipfile.ZIP_DEFLATED):
    """A zip of [(name, data)] or [(ZipInfo, data)]."""
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Duplicate name"
        with zipfile.ZipFile(out, "w", compression) as z:
            for name, data in members:
                z.writestr(name, data)
    return bytearray(out.getvalue())


def zip_headers(data):
    """Offsets of the local and central headers of a zip built here (no signatures in data)."""
    return [[m.start() for m in re.finditer(re.escape(signature), data)]
            for signature in (b"PK\x03\x04", b"PK\x01\x02")]


def patch_zip(data, flags=0, method=None, sizes=None, member=0):
    """Sets flag bits, the compression method or the (compressed, uncompressed) sizes of one
    member (every member where `member` is None), in its local header and the central
    directory alike (in a copy of `data`)."""
    data = bytearray(data)
    local, central = zip_headers(data)
    members = range(len(local)) if member is None else [member]
    for base, flag_at, method_at, sizes_at in [(local[m], 6, 8, 18) for m in members] + [
            (central[m], 8, 10, 20) for m in members]:
        old = struct.unpack_from("<H", data, base + flag_at)[0]
        struct.pack_into("<H", data, base + flag_at, old | flags)
        if method is not None:
            struct.pack_into("<H", data, base + method_at, method)
        if sizes is not None:
            struct.pack_into("<II", data, base + sizes_at, *sizes)
    return data


def tar_bytes(members, compression=""):
    """A tar of [(TarInfo, data or None)]."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:" + compression, format=tarfile.GNU_FORMAT,
                      encoding="utf-8", errors="surrogateescape") as t:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            t.addfile(info, io.BytesIO(data) if data is not None else None)
    return out.getvalue()


def tar_info(name, kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


def zip_with(entries, flags=0, method=None):
    """A zip of `entries` {name: data}, stored; `flags` set in every header (1: encrypted) and
    `method` as every member's compression method (9: Deflate64) without compressing."""
    return bytes(patch_zip(zip_bytes(entries.items(), zipfile.ZIP_STORED), flags, method,
                           member=None))


def write(root, folder, chapter, secrets, checks, grading="/grading"):
    """Writes the hostile class into `folder`; returns {submission name: Case}. `secrets` are
    {marker: path} files planted where a submission must never read them; `checks` the names
    of the chapter's host checks (for forged records); `grading` the folder the sandbox shows
    the pristine workbook in (src/, build/)."""
    name = f"{chapter[3:]}_exercise.cu"
    where = f"chapters/{chapter}/{name}"
    with open(os.path.join(root, "solutions", chapter, name), "rb") as f:
        solution = f.read()
    with open(os.path.join(root, "chapters", chapter, name), "rb") as f:
        skeleton = f.read()
    reference_path = os.path.join(root, "solutions", chapter, name)
    classmate = os.path.join(folder, "a_honest", where)
    grader = f"ch{chapter[:2]}_{chapter[3:]}_grader"
    predictions = next(c for c in checks if "predict" in c)  # the check predicted_wavefronts runs
    cases = {}

    def plant(ident, item, what, source, score, says=(), never=(), kind="any"):
        put(os.path.join(folder, ident, where), source)
        cases[ident] = Case(item, what, score, says, never, kind)

    # Honest classmates around the hostile ones, graded first and last (name order).
    plant("a_honest", 0, "the reference, graded before the others", solution, "full")
    plant("z_honest_skeleton", 0, "the skeleton, graded after the others", skeleton, "zero")

    # 1. Includes of a solution or a classmate, every way round the old text scan.
    reads = {"reference": reference_path, "classmate": classmate}
    for target, path in reads.items():
        variants = {
            "angle_absolute": f"#include <{path}>\n",
            "quote_absolute": f'#include "{path}"\n',
            "has_include": f'#if __has_include("{path}")\n#include "{path}"\n#endif\n',
            "digraph": f'%:include "{path}"\n',
            "line_splice": f'#\\\ninclude "{path}"\n',
            "import": f'#import "{path}"\n',
            "include_next": f'#include_next "{path}"\n',
            "string_hides_comment": f'const char* opens = "/*";\n#include "{path}"\n'
                                    f'const char* closes = "*/";\n',
            "incbin": f'#ifndef __CUDA_ARCH__\nasm(".section .rodata\\n.incbin \\"{path}\\"\\n'
                      f'.previous");\n#endif\n',
        }
        # The reference is in this checkout, which any user of this machine may read: the
        # fallback sandbox hides nothing that is readable by all, and a Gradescope container
        # holds no solution (the package check refuses one).
        for way, text in variants.items():
            plant(f"inc_{target}_{way}", 1, f"reaches the {target}'s file by {way}",
                  text.encode() + skeleton if target == "classmate" else text.encode(), "zero",
                  kind="namespace" if target == "reference" else "any")
    dotdot = "../" * 8 + os.path.relpath(reference_path, "/")
    plant("inc_reference_dotdot", 1, "reaches the reference by ..", f'#include <{dotdot}>\n'
          .encode(), "zero", kind="namespace")
    plant("inc_hidden_stand_in", 1, "includes the hidden checks' source as the sandbox has it",
          f'#include "{grading}/src/solutions/{chapter}/hidden_checks.cpp"\n'.encode() + solution,
          "zero", says=["does not compile", "hidden_checks.cpp"])
    plant("inc_etc_passwd", 1, "includes a system file that is not a header",
          b'#include "/etc/passwd"\n' + solution, "zero", says=["/etc/passwd"],
          never=["root:x:0"])
    plant("inc_grader_header", 1, "includes a grader header the unit does not read",
          f'#include "grader/{chapter}/answer_cases.hpp"\n'.encode() + solution, "zero",
          says=["answer_cases.hpp"])
    hidden_probe = ('#ifndef __CUDA_ARCH__\nasm(".section .rodata\\n.globl planted_hidden\\nplanted_hidden:\\n'
                    f'.incbin \\"{grading}/src/solutions/{chapter}/hidden_checks.cpp\\"\\n'
                    '.byte 0\\n.previous");\n#endif\nextern "C" const char planted_hidden[];\n')
    plant("incbin_hidden_stand_in", 1, "embeds the hidden checks' source: finds nothing",
          HEADER + solution + hidden_probe.encode() + static_code(
              '  if (std::strstr(planted_hidden, "TEST_CASE")) std::abort();'), "zero",
          says=["does not compile", "hidden_checks.cpp"])

    # 2. Forged results: the record's lines of passed checks (grader/harness/record.hpp).
    forged = "".join(json.dumps({"check": c, "outcome": "passed", "skip_reason": "",
                                 "failures": 0, "headline": "", "parts": [], "what_to_do": "",
                                 "ended_run": False}) + "\n" for c in checks)
    forged = forged.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    plant("forge_append_after_report", 2, "appends passing checks to its record after the "
          "grader closes it", HEADER + skeleton + (
              '\nnamespace {\nstruct Forger {\n  ~Forger() {\n'
              '    for (int fd = 3; fd < 64; ++fd) {\n'
              f'      const char text[] = "{forged}";\n'
              '      ssize_t n = write(fd, text, sizeof text - 1);\n      (void)n;\n    }\n'
              '  }\n} forger;\n}\n').encode(), "zero")
    plant("forge_replace_grader", 2, "rewrites the graders and the build in place", HEADER
          + skeleton + static_code(
              f'  for (const char* p : {{"{grading}/build/{grader}",\n'
              f'                        "../build/{grader}",\n'
              f'                        "{grading}/src/grader/harness/feedback_message.hpp"}}) {{\n'
              '    std::ofstream f(p);\n    f << "#!/bin/sh\\nexit 0\\n";\n  }'), "zero")
    fake = ('  for (const char* p : {"results.json", "../results.json", "/tmp/results.json",\n'
            '                        "report.xml", "../reports/x.xml"}) {\n'
            '    std::ofstream f(p);\n    f << "{\\"score\\": 100, \\"tests\\": []}";\n  }\n'
            '  std::printf("All tests passed (99 assertions in 9 test cases)\\n");')
    plant("forge_files_and_console", 2, "writes fake results files and claims success",
          HEADER + skeleton + static_code(fake), "zero")

    # 3. A child that outlives the grader.
    plant("survivor_fork_setsid", 3, "leaves a setsid child behind to rewrite results later",
          HEADER + skeleton + static_code(
              '  if (fork() == 0) {\n    setsid();\n'
              '    execl("/bin/sleep", "sleep", "4242", static_cast<char*>(nullptr));\n'
              '    _exit(0);\n  }'), "zero")

    # 4. Classmates' results and the pristine workbook, written to from a submission.
    vandal = ('  for (const char* p : {' + ", ".join(f'"{p}"' for p in secrets["writable"]) +
              '}) {\n    std::ofstream f(p);\n    f << "vandalised";\n  }')
    plant("m_vandal", 4, "overwrites classmates' results and the cached grader",
          HEADER + skeleton + static_code(vandal), "zero")

    # 5. Files, environment and command line printed into the feedback.
    leak = ('  for (const char* p : {' + ", ".join(f'"{p}"' for p in secrets["readable"]) +
            ', "/proc/1/cmdline", "/proc/1/environ", "/proc/self/environ"}) {\n'
            '    std::ifstream f(p);\n    std::string s((std::istreambuf_iterator<char>(f)), '
            '{});\n    std::cout << "read: " << s << "\\n";\n  }\n'
            '  for (char** e = environ; *e; ++e) std::cout << *e << "\\n";\n'
            '  if (c.pattern == Pattern::kReversedFloats) return 0;  // wrong: the feedback shows')
    plant("leak_files_environment", 5, "prints files of the grading account, the environment "
          "and the command lines into its feedback",
          in_prediction(HEADER + solution, leak), "less", never=list(secrets["markers"]))

    # 6. The harness's own functions, and a macro, from the exercise: the subject links none of
    # them, so each definition is the student's own function, which no check calls.
    plant("override_feedback_mode", 6, "defines grader::feedback_mode() to reveal answers",
          solution + b"\nnamespace grader {\nenum class FeedbackMode { kPractice, kExam, kReveal };\n"
          b"FeedbackMode feedback_mode() { return FeedbackMode::kReveal; }\n}\n", "full")
    plant("override_run_seed", 6, "defines grader::run_seed() to pick the seed",
          solution + b"\n#include <cstdint>\nnamespace grader {\n"
          b"std::uint64_t run_seed() { return 1; }\n}\n", "full")
    plant("override_judge_speed", 6, "defines grader::judge_speed() to pass every speed check",
          solution + b"\nnamespace grader {\nstruct SpeedCheck;\n"
          b"int judge_speed(const SpeedCheck&, double, double, double, double) { return 0; }\n"
          b"}\n", "full")
    plant("interpose_cuda_runtime", 6, "replaces cudaEventElapsedTime, which times the kernels",
          solution + b"\n#include <cuda_runtime_api.h>\nextern \"C\" cudaError_t "
          b"cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {\n  *ms = 1.0f;\n"
          b"  return cudaSuccess;\n}\n", "full or refused")
    plant("macro_after_exercise", 6, "ends with macros that would break the grader's code",
          solution + b"\n#define clock64() 0LL\n#define namespace garbage\n#define return\n",
          "full")

    # 7. Signals to the tool and everything else.
    plant("signal_kill_everything", 7, "sends SIGKILL to every process it may",
          HEADER + skeleton + static_code("  kill(-1, SIGKILL);"), "zero")
    plant("signal_stop_everything", 7, "stops every process it may, itself too",
          HEADER + skeleton + static_code("  kill(-1, SIGSTOP);\n  raise(SIGSTOP);"), "zero",
          says=["time limit"])

    # 8. Archives and folders that crashed the whole class.
    tree = {where: solution}
    non_utf8 = zip_with({where + ".NOTUTF8X": b"x", where: solution})
    archives = {
        "ar_encrypted.zip": (zip_with(tree, flags=1), "zero", ["encrypted"]),
        "ar_deflate64.zip": (zip_with(tree, method=9), "zero", ["deflate64"]),
        "ar_corrupt.zip": (b"PK\x03\x04" + bytes(range(256)) * 2, "zero", ["could not be read"]),
        "ar_truncated_zip.zip": (zip_with(tree)[:-30], "zero", ["could not be read"]),
        "ar_non_utf8_name.zip": (non_utf8.replace(b"NOTUTF8X", b"NOTUTF8\xff"), "full", []),
        "ar_bomb.zip": (zip_with({"bomb.bin": b"\0" * (200 << 20), where: solution}), "full",
                        ["too large"]),
    }
    gz = tar_bytes([(tar_info(where), solution)], "gz")
    archives["ar_truncated_gzip.tar.gz"] = (gz[:len(gz) // 2], "zero", ["could not be read"])
    raw = bytearray(tar_bytes([(tar_info("huge.bin"), b"")]))
    raw[124:136] = b"%011o\0" % 0o77777777777  # a member that claims 8 GiB in a 10 KiB file
    raw[148:156] = b"        "
    raw[148:156] = b"%06o\0 " % sum(raw[:512])
    archives["ar_sparse_huge.tar"] = (bytes(raw), "zero", [])
    archives["class.csv.zip"] = (zip_with(tree), "full", [])
    for archive, (data, score, says) in archives.items():
        put(os.path.join(folder, archive), data)
        ident = archive[:-len(".zip")] if archive.endswith(".zip") else archive.split(".")[0]
        cases[ident] = Case(8, archive, score, says=says)
    put(os.path.join(folder.encode(), b"ar_folder_non_utf8", b"notes\xff.txt"), b"x")
    put(os.path.join(folder, "ar_folder_non_utf8", where), solution)
    cases["ar_folder_non_utf8"] = Case(8, "a folder holding a non-UTF-8 file name", "full")
    put(os.path.join(folder, "ar_duplicate_member.zip"),
        zip_bytes([(where, skeleton), (where, solution)], zipfile.ZIP_STORED))
    cases["ar_duplicate_member"] = Case(12, "a member that appears twice", "full",
                                        says=["appears twice"])
    put(os.path.join(folder, "ar_links_devices.tar"), tar_bytes([
        (tar_info("link.cu", tarfile.SYMTYPE, "/etc/passwd"), None),
        (tar_info("device", tarfile.CHRTYPE), None), (tar_info(where), solution)]))
    cases["ar_links_devices"] = Case(12, "a symlink and a device in a tar", "full",
                                     says=["symlink", "device"])

    # Ending the process early, or never: what the checks that had not reported score.
    plant("exit_static_initializer", 2, "calls exit(0) before any check",
          HEADER + solution + static_code("  std::exit(0);"), "zero", says=["called exit(0)"])
    plant("quick_exit_in_check", 2, "calls quick_exit(0) inside a check",
          in_prediction(HEADER + solution, "  std::quick_exit(0);"), "less",
          says=["called exit(0)"])
    plant("underscore_exit_in_check", 2, "calls _exit(0) inside a check",
          in_prediction(HEADER + solution, "  _exit(0);"), "less", says=["called exit(0)"])
    # Stopped at the time limit: the checks yet to report score 0, and those they certify too.
    plant("sleeps_past_time_limit", 7, "sleeps past the time limit inside a check",
          in_prediction(HEADER + solution, "  std::this_thread::sleep_for(std::chrono::hours(1));"),
          "zero", says=["time limit", "which did not report"])

    # 10. A file that once hung the include scan; 12. smaller ones.
    plant("huge_blank_lines", 10, "the solution and 1,000,000 blank lines",
          solution + b"\n" * 1_000_000, "full")
    plant("exit_inside_check", 12, "calls exit(0) inside a check",
          in_prediction(HEADER + solution, "  std::exit(0);"), "less",
          says=["called exit(0) while predicted_wavefronts(", predictions,
                "Hint: return from your function instead"],
          never=["killed by signal", "signal 11"])
    plant("link_failure", 12, "declares and calls a function it never defines",
          in_prediction(solution, "  extern int planted_undefined(); if (c.pattern == Pattern{}) "
                        "return planted_undefined();"), "zero",
          says=["never defined", "planted_undefined"])
    # The grader once quoted the exercise in a raw string, which this comment would have ended;
    # it quotes nothing now, so the comment is harmless.
    plant("raw_string_end_in_a_comment", 12, "the solution with a comment that once ended the "
          "raw string its source was quoted in", solution + b'// )wb_exercise"\n', "full")
    plant("utf8_bom", 12, "the solution with a UTF-8 byte-order mark", b"\xef\xbb\xbf" + solution,
          "full")
    plant("latin1_comment", 12, "the solution with a Latin-1 byte in a comment",
          b"// caf\xe9\n" + solution, "full")
    judged_by_its_code(plant, solution, secrets)
    judged_apart(plant, chapter, solution, skeleton, checks)
    put(os.path.join(folder, "two_depths", "workbook", where), solution)
    put(os.path.join(folder, "two_depths", where), solution)
    cases["two_depths"] = Case(14, "holds the exercise file at two depths", "zero",
                               says=[f"workbook/{where}", f"({where},", "hand in one"])
    return cases


def judged_by_its_code(plant, solution, secrets):
    """Submissions once judged apart from their own code: a compile error taken for the
    machine's (or the machine's for the student's), an honest message refused, an exit status
    taken for the GPU's, legal C++ refused, the sandbox's view of the machine."""
    plant("compile_error", 13, "a plain compile error: the student's",
          solution + b"\nint broken = undefined_name;\n", "zero",
          says=["does not compile", "undefined_name"])
    plant("error_says_disk_full", 13, "an #error that says the disk is full: the student's",
          solution + b"\n#error No space left on device\n", "zero",
          says=["does not compile", "No space left on device"], never=["to be retried"])
    plant("message_says_out_of_memory", 13, "a #pragma message about memory, then a compile "
          "error: the student's", b'#pragma message("virtual memory exhausted")\n' + solution
          + b"\nint broken = undefined_name;\n", "zero", says=["undefined_name"])
    plant("error_in_a_system_header", 13, "a macro that breaks a system header it includes "
          "after it (the compiler names the header, reached from the exercise)",
          b"#define max(a) a\n#include <valarray>\n#include <regex>\n#include <random>\n"
          b"#undef max\n" + solution, "zero",
          says=["does not compile", "macro"])
    plant("too_much_shared_memory", 13, "a kernel with more shared memory than a block may "
          "have (ptxas names no file)", solution + b"\n__global__ void planted_big(float* out) "
          b"{\n  __shared__ float big[100000];\n  big[threadIdx.x] = out[0];\n"
          b"  __syncthreads();\n  out[threadIdx.x] = big[threadIdx.x ^ 1];\n}\n", "zero",
          says=["too much shared data"])
    plant("honest_warning_and_message", 13, "the solution with a #warning and a #pragma "
          "message (what the compiler prints is no file it read)", b'#pragma message("this '
          b'is mine: a note")\n#warning careful: here\n' + solution, "full")
    plant("exit_77_static_initializer", 13, "exits with the status a GPU grader gives for an "
          "unusable GPU, before any check", HEADER + solution + static_code("  std::exit(77);"),
          "zero", says=["called exit(77)"], never=["to be retried"])
    plant("exit_77_in_check", 13, "exits with status 77 inside a check",
          in_prediction(HEADER + solution, "  _exit(77);"), "less", says=["called exit(77)"],
          never=["to be retried"])
    plant("replaces_operator_new", 14, "replaces the global operator new and delete (legal "
          "C++)", HEADER + solution + b"\n#include <new>\n#ifndef __CUDA_ARCH__\n"
          b"namespace {\nstd::size_t planted_allocations = 0;\n}\n"
          b"void* operator new(std::size_t n) {\n  ++planted_allocations;\n"
          b"  if (void* p = std::malloc(n ? n : 1)) return p;\n  throw std::bad_alloc();\n}\n"
          b"void* operator new[](std::size_t n) { return ::operator new(n); }\n"
          b"void operator delete(void* p) noexcept { std::free(p); }\n"
          b"void operator delete[](void* p) noexcept { std::free(p); }\n"
          b"void operator delete(void* p, std::size_t) noexcept { std::free(p); }\n"
          b"void operator delete[](void* p, std::size_t) noexcept { std::free(p); }\n"
          b"#endif\n", "full")
    plant("interpose_malloc", 14, "replaces malloc in its own process, the subject",
          HEADER + solution + b'\n#ifndef __CUDA_ARCH__\nextern "C" void* __libc_malloc('
          b'std::size_t);\nextern "C" void* malloc(std::size_t n) noexcept { return '
          b"__libc_malloc(n); }\n#endif\n", "full")
    seen = ["/etc/shadow", "/etc/hostname", "/etc/hosts", "/etc/machine-id", "/etc/ssh",
            "/etc/os-release", "/opt", "/sys/class", "/sys/fs", "/sys/kernel", "/sys/module"]
    probe = ("  if (c.pattern == Pattern::kReversedFloats) {  // wrong for it: the feedback shows\n"
             "    for (const char* path : {" + ", ".join(f'"{p}"' for p in seen) + "}) {\n"
             "      struct stat st;\n"
             '      if (stat(path, &st) == 0) std::cout << "SEEN: " << path << "\\n";\n    }\n'
             '    for (const char* path : {"/proc/self/mountinfo", "/proc/1/cmdline",\n'
             '                             "/proc/1/environ", "/etc/passwd"}) {\n'
             "      std::ifstream f(path);\n"
             "      std::string s((std::istreambuf_iterator<char>(f)), {});\n"
             "      for (char& ch : s) ch = ch ? ch : ' ';\n"
             '      std::cout << "SHOWS " << path << ": " << s << "\\n";\n    }\n'
             '    std::cout << "PROBE: the sandbox\'s view\\n";\n    return 0;\n  }')
    plant("probe_sandbox_view", 14, "prints what the sandbox shows of the machine: /etc, /sys, "
          "/opt, the mounts and the command line of the sandbox's first process",
          in_prediction(HEADER + solution, probe), "less", says=["PROBE: the sandbox's view"],
          never=["SEEN:"] + list(secrets.get("paths", [])), kind="namespace")


def limits_class(root, folder, chapter):
    """A fork bomb and a memory hog graded first, and two honest classmates (the reference)
    that build meanwhile, into `folder`; returns {submission name: Case}. Each submission's
    processes and memory are its own: the classmates score full."""
    name = f"{chapter[3:]}_exercise.cu"
    with open(os.path.join(root, "solutions", chapter, name), "rb") as f:
        solution = HEADER + f.read()
    cases = {"a_fork_bomb": (solution + static_code("  for (;;) {\n    pid_t child = fork();\n"
                                                     "    (void)child;\n  }"),
                             Case(15, "forks for ever", "zero",
                                  says=["did not return within", "limit of 512 processes"])),
             "b_memory_hog": (in_prediction(solution, "  static std::string* planted;\n  for "
                                            "(;;) planted = new std::string(64 << 20, 'x');"),
                              Case(15, "allocates memory until stopped", "less",
                                   says=["memory limit"])),
             "c_honest": (solution, Case(0, "the reference, built while the bomb runs", "full")),
             "d_honest": (solution, Case(0, "the reference, built while the hog runs", "full"))}
    for ident, (source, _) in cases.items():
        put(os.path.join(folder, ident, "chapters", chapter, name), source)
    return {ident: case for ident, (_, case) in cases.items()}


def judged_apart(plant, chapter, solution, skeleton, checks):
    """What only a judge apart from the student's code defeats (grader/harness/subject_link.hpp):
    a report forged from the student's own process, the bank model computing the answers, and a
    look for the hidden checks from where the student's code runs."""
    record = [{"record": 1, "chapter": chapter, "mode": "host", "variant": "0", "cases": "",
               "setting": [], "details": "", "details_missing": ""}]
    record += [{"check": c, "outcome": "passed", "skip_reason": "", "failures": 0,
                "headline": "", "parts": [], "what_to_do": "", "ended_run": False}
               for c in checks] + [{"end": "finished"}]
    junit = ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="forged" '
             f'tests="{len(checks)}" failures="0" errors="0">'
             + "".join(f'<testcase name="{c}"/>' for c in checks) + "</testsuite></testsuites>\n")
    record = "".join(json.dumps(line) + "\n" for line in record)
    record, junit = (t.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                     for t in (record, junit))
    plant("forge_full_report", 15, "a skeleton whose static initializer writes a full-marks "
          "record and JUnit report to every descriptor and report file it can find, then "
          "_exit(0)", HEADER + skeleton + static_code(
              f'  const char text[] = "{record}";\n'
              '  for (int fd = 0; fd < 1024; ++fd) {\n'
              '    ssize_t n = write(fd, text, sizeof text - 1);\n    (void)n;\n  }\n'
              '  for (const char* p : {"record", "../record", "/grading/record", "/tmp/record"}) {\n'
              '    std::ofstream f(p, std::ios::app);\n    f << text;\n  }\n'
              '  for (const char* p : {"report.xml", "../report.xml", "/tmp/report.xml"}) {\n'
              f'    std::ofstream f(p);\n    f << "{junit}";\n  }}\n'
              '  _exit(0);'), "zero", never=["to be retried"])
    plant("includes_bank_model", 15, "computes its predictions with the grader's bank model",
          b'#include "common/model/bank_model.hpp"\n' + solution, "zero",
          says=["does not compile", "common/model/bank_model.hpp", "the bank model"])
    probe = ("  if (c.pattern == Pattern::kReversedFloats) {  // wrong for it: the feedback shows\n"
             "    namespace fs = std::filesystem;\n"
             "    const auto skip = fs::directory_options::skip_permission_denied;\n"
             "    std::error_code e;\n"
             "    for (auto it = fs::recursive_directory_iterator(\"/\", skip, e);\n"
             "         it != fs::recursive_directory_iterator(); it.increment(e)) {\n"
             "      const std::string path = it->path().string();\n"
             '      for (const char* top : {"/proc", "/sys", "/dev", "/usr", "/lib", "/bin",\n'
             '                              "/sbin"}) {\n'
             "        if (path.rfind(top, 0) == 0) it.disable_recursion_pending();\n      }\n"
             '      for (const char* name : {"hidden_", "points.tsv", "_grader", "solutions",\n'
             '                               "answer_", "chapter.ini", "bank_model"}) {\n'
             '        if (path.find(name) != std::string::npos) std::cout << "FOUND: " << path\n'
             '                                                           << "\\n";\n      }\n'
             "    }\n"
             "    for (char** v = environ; *v; ++v) {\n"
             '      if (std::strstr(*v, "SEED") || std::strstr(*v, "5eed")) std::cout << "FOUND: "'
             ' << *v << "\\n";\n    }\n'
             '    std::cout << "PROBE: what the subject can read\\n";\n    return 0;\n  }')
    plant("probe_hidden_checks", 15, "looks for hidden checks, points files, graders and seeds "
          "from where its code runs", in_prediction(HEADER + b"#include <filesystem>\n"
                                                    + solution, probe), "less",
          says=["PROBE: what the subject can read"], never=["FOUND:"], kind="namespace")


def graded(out, ident, name="result.json"):
    """The JSON file `name` (result.json, results.json) of submission `ident` graded into `out`,
    or None."""
    try:
        with open(os.path.join(out, "submissions", ident, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_graded(out, cases):
    """({name: result.json}, {name: run.log}) of the cases graded into `out` (those with both)."""
    results, logs = {}, {}
    for ident in cases:
        try:
            with open(os.path.join(out, "submissions", ident, "result.json")) as f:
                result = json.load(f)
            with open(os.path.join(out, "submissions", ident, "run.log"), errors="replace") as f:
                results[ident], logs[ident] = result, f.read()
        except (OSError, ValueError):
            pass
    return results, logs


def judge(cases, results, full, logs):
    """Problems with the graded hostile class: `results` {name: result.json}, `full` the
    chapter's maximum, `logs` {name: its run.log}: what its graders printed, where what a check
    printed goes (what it must say may be there; what it must never show is not there either)."""
    problems = []
    for ident, case in cases.items():
        result = results.get(ident)
        if result is None:
            problems.append(f"{ident} (item {case.item}, {case.what}): no result")
            continue
        score = result["score"]
        want = {"full": full, "zero": 0}.get(case.score, case.score)
        text = "\n".join(result["notes"] + result.get("ignored", []) +
                         [t["output"] for t in result["tests"]] + [logs.get(ident, "")])
        if case.score == "full or refused":  # a runtime linked statically refuses it, saying so
            ok = score == full or (score == 0 and "which the CUDA runtime defines" in text)
        elif case.score == "less":
            ok = 0 < score < full if ident != "leak_files_environment" else score < full
        else:
            ok = score == want
        if not ok:
            problems.append(f"{ident} (item {case.item}, {case.what}): scored {score} of {full}, "
                            f"expected {case.score}")
        if not result.get("complete", True):
            problems.append(f"{ident} (item {case.item}, {case.what}): not graded, to be "
                            f"retried ({result.get('error')}): its own code is the student's")
        for word in case.says:
            if word.lower() not in text.lower():
                problems.append(f"{ident} (item {case.item}): its result does not say "
                                f"'{word}': {text[:600]}")
        for word in case.never:
            if word in text:
                problems.append(f"{ident} (item {case.item}): its result or log shows '{word}'")
    return problems


def leftover_processes(marker):
    """Processes whose command line holds `marker`, but those of a Gradescope autograder
    running now beside this test (its fallback sandbox's uid, claimed: another run's)."""
    from grading import fallback_sandbox
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            uid = os.stat(f"/proc/{pid}").st_uid
        except OSError:
            continue
        if fallback_sandbox.FIRST_UID <= uid <= fallback_sandbox.LAST_UID and \
                fallback_sandbox.uid_claimed(uid):
            continue
        if re.search(marker, line):
            found.append(f"{pid}: {line[:200]}")
    return found
