#!/usr/bin/env python3
"""Writes the two sides of a chapter's calls between the judge and the subject
(grader/harness/subject_link.hpp, subject_protocol.hpp), from its interface header:

    subject_calls.py judge INTERFACE.cuh SKELETON.cu OUTPUT.cu GPU_GRADER_NAME [KERNELS_NAME]
    subject_calls.py subject INTERFACE.cuh SKELETON.cu OUTPUT.cu

Every function the interface declares without defining it is the student's (the skeleton
defines it) or the grader's (the grader's own code defines it: a variant's cases). The judge's
side defines each of the student's host functions as a call into the subject, and their device
functions and kernels as stubs that trap (the judge runs no student code: the GPU checks run
elsewhere: in the GPU grader, or, given KERNELS_NAME, in the exercise's kernels compiled for the
device alone, which the judge loads and launches itself), and answers the subject's calls of the
grader's functions. The subject's side
answers the judge's calls with the student's functions, and defines the grader's functions as
calls back to the judge. Arguments and results cross as bytes: each must be trivially copyable
(the generated code says so to the compiler). An interface this reader cannot follow is an
error naming the declaration.
"""
import re
import sys

QUALIFIERS = ("__host__", "__device__", "__global__")


class InterfaceError(Exception):
    pass


def without_comments(text):
    """`text` with its comments and string and character literals blanked (same length)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text[i] in "\"'":
            j = i + 1
            while j < n and text[j] != text[i]:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            out.append(text[i])
            i += 1
            continue
        out.append("".join(c if c == "\n" else " " for c in text[i:j]))
        i = j
    return "".join(out)


def split_top(text, sep=","):
    """`text` split at `sep` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


class Function:
    def __init__(self, qualifiers, result, name, params, template=""):
        self.qualifiers, self.result, self.name = qualifiers, result, name
        self.params = params  # [(type, name)]
        self.template = template  # "template <...>" of a function template, else ""

    @property
    def host(self):
        """Callable on the host (a kernel or a __device__-only function is not)."""
        return "__global__" not in self.qualifiers and (
            "__host__" in self.qualifiers or "__device__" not in self.qualifiers)

    def signature(self):
        params = ", ".join(f"{t} {n}" for t, n in self.params)
        head = f"{self.template} " if self.template else ""
        return f"{head}{' '.join(self.qualifiers)} {self.result} {self.name}({params})".strip()


def declarations(header, namespace):
    """The functions declared, not defined, at the top level of `namespace NAME { ... }`."""
    text = without_comments(header)
    opening = re.search(r"\bnamespace\s+" + re.escape(namespace) + r"\s*\{", text)
    if not opening:
        raise InterfaceError(f"the interface has no namespace {namespace}")
    found, depth, statement, i = [], 0, "", opening.end()
    while i < len(text):
        c = text[i]
        if c == "{":
            if depth == 0:
                statement = ""  # a definition, a type or an initializer: not a declaration
            depth += 1
        elif c == "}":
            if depth == 0:
                break
            depth -= 1
            if depth == 0:
                statement = ""
        elif depth == 0:
            if c == ";":
                found += parse_declaration(" ".join(statement.split()))
                statement = ""
            elif c == "#" and (not statement.strip()):
                i = text.find("\n", i)  # a preprocessor line
                i = len(text) if i < 0 else i
                continue
            else:
                statement += c
        i += 1
    return found


def parse_declaration(statement):
    template = ""
    if statement.startswith("template"):
        opening = statement.find("<")
        depth, end = 0, -1
        for k in range(opening, len(statement)):
            depth += {"<": 1, ">": -1}.get(statement[k], 0)
            if depth == 0:
                end = k
                break
        if opening < 0 or end < 0:
            raise InterfaceError(f"cannot read the template: {statement}")
        template, statement = statement[:end + 1], statement[end + 1:].strip()
    if "(" not in statement or re.match(r"(constexpr|inline|static|using|typedef|template|"
                                        r"extern|static_assert|friend)\b", statement):
        return []
    head, _, rest = statement.partition("(")
    if "=" in head or not rest.endswith(")"):
        return []
    words = head.split()
    qualifiers = [w for w in words if w in QUALIFIERS]
    others = [w for w in words if w not in QUALIFIERS]
    if len(others) < 2 or not re.fullmatch(r"[A-Za-z_]\w*", others[-1]):
        raise InterfaceError(f"cannot read the declaration: {statement}")
    params = []
    for param in split_top(rest[:-1]):
        if param == "void":
            continue
        match = re.fullmatch(r"(.*?[\s*&])([A-Za-z_]\w*)", param)
        if not match or not match.group(1).strip():
            raise InterfaceError(f"a parameter without a name in: {statement}")
        params.append((match.group(1).strip(), match.group(2)))
    f = Function(qualifiers, " ".join(others[:-1]), others[-1], params, template)
    if template and f.host:
        raise InterfaceError(f"a function template the host calls cannot cross between the "
                             f"judge and the subject: {statement}")
    return [f]


def defined_in(skeleton, name):
    """Whether the skeleton defines function `name`."""
    pattern = r"\b" + re.escape(name) + r"\s*\([^;{}]*\)\s*(const\s*)?\{"
    return re.search(pattern, without_comments(skeleton)) is not None


def value_type(t):
    """The type a parameter crosses as: without const and reference."""
    t = re.sub(r"\bconst\b", "", t).replace("&", "").strip()
    return " ".join(t.split())


def sides(header_path, skeleton_path):
    """The interface's text, its namespace, the student's functions and the grader's."""
    header = open(header_path, encoding="utf-8").read()
    skeleton = open(skeleton_path, encoding="utf-8").read()
    namespace = re.search(r"\bnamespace\s+(ch\d\d)\s*\{", header)
    if not namespace:
        raise InterfaceError(f"{header_path}: no namespace chNN")
    functions = declarations(header, namespace.group(1))
    student = [f for f in functions if defined_in(skeleton, f.name)]
    grader = [f for f in functions if not defined_in(skeleton, f.name)]
    return header, namespace.group(1), student, grader


def asserts(functions):
    types = set()
    for f in functions:
        types |= {value_type(t) for t, _ in f.params}
        if f.result != "void":
            types.add(f.result)
    return [f"static_assert(std::is_trivially_copyable_v<{t}>, \"{t} crosses between the judge "
            f"and the subject as bytes\");" for t in sorted(types)]


def enum_names(header):
    """`enum_name(E)` for each `enum class E { ... }` of the interface, which a call's message
    shows its argument by (subject_protocol.hpp's describe): Pattern::kStructMember, not 2."""
    out = []
    for m in re.finditer(r"\benum\s+class\s+(\w+)\s*(?::\s*[\w ]+)?\{([^}]*)\}",
                         without_comments(header)):
        name, value = m.group(1), -1
        out += [f"inline std::string enum_name({name} value) {{",
                "  switch (static_cast<long long>(value)) {"]
        for item in filter(None, (i.strip() for i in m.group(2).split(","))):
            enumerator, _, given = (p.strip() for p in item.partition("="))
            value = int(given, 0) if given else value + 1
            out.append(f'    case {value}: return "{name}::{enumerator}";')
        out += ["  }",
                f'  return "{name}(" + std::to_string(static_cast<long long>(value)) + ")";',
                "}", ""]
    return out


def preamble(made, header_include, harness_header):
    """A generated file's first lines: what made it (`made`), and what it includes."""
    return [f"// Made by grader/tools/subject_calls.py {made}. Do not edit.", "#include <string>",
            "#include <type_traits>", "", f'#include "{header_include}"',
            f'#include "grader/harness/{harness_header}"', ""]


def answers(namespace, prefix, table, answered, crossing):
    """The start of the anonymous namespace: a function `bool PREFIX_NAME(Frame& call, Frame&
    result)` for each (number, f) of `answered`, which reads f's arguments from the call and puts
    its result into the result, and the asserts on the types `crossing` functions send; and the
    table `table` of the answers."""
    out = ["namespace {", "", "using ::grader::subject::Frame;", ""]
    for _, f in answered:
        out.append(f"bool {prefix}_{f.name}(Frame& call, Frame& result) {{")
        for k, (t, _) in enumerate(f.params):
            out += [f"  {value_type(t)} a{k}{{}};", f"  if (!call.get(a{k})) return false;"]
        args = ", ".join(f"a{k}" for k in range(len(f.params)))
        out.append(f"  {namespace}::{f.name}({args});" if f.result == "void" else
                   f"  result.put({namespace}::{f.name}({args}));")
        out += ["  (void)call;", "  (void)result;", "  return true;", "}", ""]
    return out + asserts(crossing), [f"const ::grader::subject::Answer {table}[] = {{"] + [
        f"    {{{k}u, {prefix}_{f.name}}}," for k, f in answered] + [
        "    {0xffffffffu, nullptr},", "};"]


def judge_side(namespace, student, grader, header_include, gpu_grader, kernels=None,
               enum_lines=()):
    out = preamble("(judge): the student's functions, called in the\n// subject; the grader's, "
                   "answered for it", header_include, "subject_link.hpp")
    out += ["// This grader is a judge: the reference checks are the GPU grader's (grader_main.cpp).",
            f'extern "C" const char* workbook_judge_gpu_grader() {{ return "{gpu_grader}"; }}', ""]
    if kernels:
        out += ["// It runs the GPU checks itself, on the exercise's kernels loaded from here.",
                f'extern "C" const char* workbook_judge_kernels() {{ return "{kernels}"; }}', ""]
    out += [f"namespace {namespace} {{", ""] + list(enum_lines)
    for number, f in enumerate(student):
        out.append(f.signature() + " {")
        args = "".join(f", {n}" for _, n in f.params)
        if f.host:
            r = f.result
            if "__device__" in f.qualifiers:
                out += ["#if defined(__CUDA_ARCH__)", "  __trap();",
                        "  return {};" if r != "void" else "  return;", "#else"]
            out.append(f"  {'return ' if r != 'void' else ''}::grader::subject::call<{r}>("
                       f"{number}, \"{f.name}\"{args});")
            if "__device__" in f.qualifiers:
                out.append("#endif")
        else:
            out += [f"  (void){n};" for _, n in f.params]
            out.append("  __trap();")
            if f.result != "void":
                out.append("  return {};")
        out += ["}", ""]
    host_grader = [f for f in grader if f.host]
    head, table = answers(namespace, "answer", "kAnswered",
                          [(1000 + k, f) for k, f in enumerate(host_grader)],
                          [f for f in student if f.host] + host_grader)
    out += head + ["", "const bool kNumbered = ("]
    out += [f"    ::grader::subject::register_function(reinterpret_cast<void (*)()>(&{f.name}), "
            f"{number}u)," for number, f in enumerate(student) if f.host]
    out += ["    true);", ""] + table
    out += ["const bool kAnsweredSet = (::grader::subject::answer_calls_back(",
            f"    kAnswered, {len(host_grader)}), true);", "", "}  // namespace", "",
            f"}}  // namespace {namespace}", ""]
    return "\n".join(out)


def subject_side(namespace, student, grader, header_include):
    out = preamble("(subject): answers the judge's calls with the\n// student's functions, and "
                   "calls back the grader's", header_include, "subject_protocol.hpp")
    out += [f"namespace {namespace} {{", ""]
    host_grader = [f for f in grader if f.host]
    for k, f in enumerate(host_grader):
        args = "".join(f", {n}" for _, n in f.params)
        out += [f.signature() + " {",
                f"  return ::grader::subject::call_back<{f.result}>({1000 + k}u{args});", "}", ""]
    served = [(k, f) for k, f in enumerate(student) if f.host]
    head, table = answers(namespace, "serve", "kServed", served,
                          [f for _, f in served] + host_grader)
    out += head + [""] + table + ["", "}  // namespace", "", f"}}  // namespace {namespace}", "",
                                  "int main() {",
                                  f"  return ::grader::subject::serve({namespace}::kServed);", "}",
                                  ""]
    return "\n".join(out)


def main(argv):
    if not (len(argv) in (6, 7) and argv[1] == "judge" or len(argv) == 5 and argv[1] == "subject"):
        sys.exit(__doc__)
    side, header, skeleton, output = argv[1:5]
    try:
        text, namespace, student, grader = sides(header, skeleton)
    except (InterfaceError, OSError) as e:
        sys.exit(f"subject_calls.py: {header}: {e}")
    include = header[header.index("chapters/"):] if "chapters/" in header else header
    if side == "judge":
        text = judge_side(namespace, student, grader, include, *argv[5:],
                          enum_lines=enum_names(text))
    else:
        text = subject_side(namespace, student, grader, include)
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv)
