"""No calculator builds a sentence: tools/ (outside tools/messages/) gives result fields codes, never prose.

The check reads every module's syntax tree and reports, with file and line, a phrase (a string literal
or f-string with two or more words) that is
  * passed as a keyword to a result field (`reasons=`, `warnings=`, `assumptions=`, `reason=`, `note=`,
    `how=`, `text=`, `layout=`, `interconnect=`, `mfu_source=`, `formula=`, `suggestions=`, `caveats=`,
    `price_age=`, `exchange_rate=`, `cheaper=`, `error=`), anywhere inside the value;
  * appended, extended or inserted into a list (`x.append(f"...")`), or said (`acc.say("...")`);
  * returned from a function or property (`return f"as of {d}"`);
  * assigned to a result field of an object (`c.cheaper = f"spot {x}/h is cheaper"`);
  * the message of a user-facing error (`raise InputError("...")`) — those carry a Note.
Names, ids and enum values have no spaces and are not phrases; docstrings, `description=` and `source=`
(citations) are not result fields. Known exceptions are listed below, each with its reason.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
RESULT_FIELDS = {
    "reasons", "warnings", "assumptions", "reason", "note", "how", "text", "layout", "interconnect", "mfu_source",
    "formula", "suggestions", "caveats", "price_age", "exchange_rate", "cheaper", "error", "notes",
}
LIST_METHODS = {"append", "extend", "insert", "say"}
USER_ERRORS = {"InputError", "UnknownNameError"}
# (file relative to the repo, function name) -> why it may return a phrase for now
KNOWN = {
    # a short English label the catalog's own tests still read; no result field gets it (tools/price_age.py renders ages)
    ("tools/domain.py", "age_text"): "Price.age_text",
}
_PHRASE = re.compile(r"[A-Za-z]{2,}[^\S\n]+[A-Za-z(]{2,}")


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


NOT_RESULTS = {"description", "source", "help", "title"}  # documentation and citations


def _phrases(node: ast.AST):
    """String literals and f-strings inside `node` that read as words (two or more), not names."""
    skip: set[int] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.JoinedStr):  # the f-string as a whole, not its pieces
            skip |= {id(n) for n in ast.walk(sub) if n is not sub}
        if isinstance(sub, ast.keyword) and sub.arg in NOT_RESULTS:
            skip |= {id(n) for n in ast.walk(sub.value)}
    for sub in ast.walk(node):
        text = None if id(sub) in skip else _text(sub)
        if text and _PHRASE.search(text):
            yield sub, text


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def findings(path: pathlib.Path) -> list[str]:
    rel = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []

    def report(node: ast.AST, what: str, text: str) -> None:
        out.append(f"{rel}:{node.lineno}: {what}: {text[:80]!r}")

    for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
        if (rel, fn.name) in KNOWN:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                # the value itself (or a tuple of values) — phrases deeper in calls are checked by their keyword
                values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                for value in values:
                    if isinstance(value, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.IfExp)):
                        for sub, text in _phrases(value):
                            report(sub, f"{fn.name} returns a phrase", text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in RESULT_FIELDS:
                    for sub, text in _phrases(kw.value):
                        report(sub, f"{kw.arg}= gets a phrase", text)
            if _name(node.func) in LIST_METHODS:
                for arg in node.args:
                    for sub, text in _phrases(arg):
                        report(sub, f".{_name(node.func)}() gets a phrase", text)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and _name(node.exc.func) in USER_ERRORS:
            for arg in node.exc.args:
                for sub, text in _phrases(arg):
                    report(sub, f"{_name(node.exc.func)} with an English message (give it a Note)", text)
        if isinstance(node, (ast.Assign, ast.AnnAssign)):  # obj.field = … (a local variable is not a result)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.attr for t in targets if isinstance(t, ast.Attribute)}
            if names & RESULT_FIELDS and node.value is not None:
                for sub, text in _phrases(node.value):
                    report(sub, f"{'/'.join(sorted(names & RESULT_FIELDS))} = a phrase", text)
    return out


MODULES = sorted(p for p in TOOLS.rglob("*.py") if "messages" not in p.relative_to(TOOLS).parts)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_sentence_is_given_to_a_result(path):
    assert findings(path) == []


# ------------------------------------------------------------------ the check itself


@pytest.mark.parametrize(
    "source, expected",
    [
        # each way a sentence used to reach a result, and the forms that are fine
        ('def f(c):\n    c.warnings.append(f"no BF16 on {c.gpu}")\n', [".append() gets a phrase"]),
        ('def f(o):\n    return Option(reasons=["within budget", x])\n', ["reasons= gets a phrase"]),
        ('def f(d):\n    return f"as of {d}"\n', ["f returns a phrase"]),
        ('def f():\n    raise InputError("Give a model or a raw need.")\n', ["InputError with an English message"]),
        ('def f(acc):\n    acc.say("batch size 1 assumed")\n', [".say() gets a phrase"]),
        ('def f(c):\n    c.cheaper = f"spot {x}/h is cheaper"\n', ["cheaper = a phrase"]),
        ('def f(c):\n    c.warnings.append(Note.of(Code.no_bf16, gpu=c.gpu))\n', []),  # a note
        ('def f():\n    return "ampere"\n', []),  # a name
        ('def f():\n    raise TypeError("needs a CostRequest")\n', []),  # a developer error
        ('X = Field(description="GPUs the job is spread over")\n', []),  # documentation
    ],
)
def test_the_check_finds_sentences_and_only_sentences(tmp_path, source, expected):
    path = ROOT / "tools" / "_probe_for_the_test.py"
    try:
        path.write_text(source, encoding="utf-8")
        got = findings(path)
    finally:
        path.unlink(missing_ok=True)
    assert len(got) == len(expected) and all(e in g for e, g in zip(expected, got)), got
