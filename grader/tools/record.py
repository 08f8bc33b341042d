"""The record of a grader's run (grader/harness/record.hpp: `<grader> host|gpu --record PATH`),
read strictly: one JSON object a line, the header first, then settings and checks, at most one
line per check, nothing after the closing line, a bounded size. A record that breaks a rule was
written to by something other than the grader, and none of it counts. A run cut short (it
exited, crashed or was killed) leaves a record without its closing line: its checks with a line
reported; the others did not. A last line without its line break was cut short: it is not read.
"""
import json

RECORD_BYTES = 16 << 20
HEADER = {"record": int, "chapter": str, "mode": str, "variant": str, "cases": str,
          "setting": list, "details": str, "details_missing": str}
CHECK = {"check": str, "outcome": str, "skip_reason": str, "failures": int, "headline": str,
         "parts": list, "what_to_do": str, "ended_run": bool}
OUTCOMES = ("passed", "failed", "skipped")
KINDS = ("line", "picture", "hint", "note")
ENDS = ("finished", "crashed", "exit")


class RecordRefused(Exception):
    """The record is not one the grader wrote: nothing in it counts."""


class Record:
    """A grader's run as far as its record goes: `header`, `checks` {name: check} in the order
    they ended, `stopped` (the check that called exit(), which did not report), `end` (how the
    run ended, None where the record stops early) and `text`, the bytes of its whole lines."""

    def __init__(self):
        self.header, self.checks, self.stopped, self.end, self.text = None, {}, None, None, b""

    def results(self):
        """{check: (status, message)} of the checks that reported."""
        return {name: (c["outcome"], message(c)) for name, c in self.checks.items()}

    def outcomes(self):
        """{check: outcome} of every check the run told of, the one exit() stopped included."""
        told = dict(self.checks, **({self.stopped["check"]: self.stopped} if self.stopped else {}))
        return {name: c["outcome"] for name, c in told.items()}


def message(check):
    """What a check said, in a few lines: why it was skipped, or its first failure's headline,
    lines, hints and what to do, and how many more of its cases failed."""
    if check["outcome"] != "failed":
        return check["skip_reason"]
    lines = [check["headline"]] + [("Hint: " if p["kind"] == "hint" else "") + p["text"]
                                   for p in check["parts"] if p["kind"] in ("line", "hint")]
    lines += ["What to do: " + check["what_to_do"]] if check["what_to_do"] else []
    more = check["failures"] - 1
    return "\n".join(lines + ([f"+ {more} more failed case{'s' * (more > 1)} of this check."]
                              if more > 0 else []))


def shaped(value, fields, what):
    """`value` when it is an object with exactly `fields`, each of its type; else refused."""
    if not isinstance(value, dict) or set(value) != set(fields) or any(
            not isinstance(value[k], t) or (t is int and isinstance(value[k], bool))
            for k, t in fields.items()):
        raise RecordRefused(f"{what} is not one the grader writes")
    return value


def check_of(value):
    check = shaped(value, CHECK, "a check's line")
    parts = [shaped(p, {"kind": str, "text": str}, "a check's part") for p in check["parts"]]
    if check["outcome"] not in OUTCOMES or check["failures"] < 0 or \
            any(p["kind"] not in KINDS for p in parts):
        raise RecordRefused(f"the check '{check['check']}' has a value the grader never writes")
    return check


def parse(data):
    """The Record of `data` (bytes). Raises RecordRefused, saying why, for a record the grader
    did not write as it stands."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > RECORD_BYTES:
        raise RecordRefused(f"the record is larger than {RECORD_BYTES >> 20} MiB")
    record = Record()
    record.text = data[:data.rfind(b"\n") + 1]
    for number, line in enumerate(record.text.split(b"\n")[:-1], 1):
        try:
            value = json.loads(line.decode("utf-8", "replace"))
        except ValueError:
            raise RecordRefused(f"line {number} of the record is not JSON the grader writes: "
                                f"something else wrote to it") from None
        if record.end is not None:
            raise RecordRefused("a line follows the record's closing line")
        if number == 1:
            record.header = shaped(value, HEADER, "the record's first line")
            if value["record"] != 1 or not all(isinstance(s, str) for s in value["setting"]):
                raise RecordRefused("the record's first line is not one the grader writes")
        elif isinstance(value, dict) and "setting" in value:
            shaped(value, {"setting": str}, "a setting's line")
        elif isinstance(value, dict) and "check" in value:
            check = check_of(value)
            if check["check"] in record.checks:
                raise RecordRefused(f"two results for the check '{check['check']}'")
            record.checks[check["check"]] = check
        elif isinstance(value, dict) and value.get("end") == "exit":
            record.stopped = check_of(shaped(value, {"end": str, "stopped": dict},
                                             "the closing line")["stopped"])
            record.end = "exit"
        elif isinstance(value, dict) and value.get("end") in ENDS:
            record.end = shaped(value, {"end": str}, "the closing line")["end"]
        else:
            raise RecordRefused(f"line {number} of the record is not one the grader writes")
    return record
