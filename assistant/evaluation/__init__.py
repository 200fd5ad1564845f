"""Golden Q&A evaluation (issue 6): load golden files, run them through `Advisor`, score, report.

    from assistant.evaluation import load_golden, run_eval
    report = run_eval(load_golden(), settings)

Modules: `golden` (file format + strict loader), `scorer` (checks), `runner`
(items through Advisor, aggregates), `report` (Markdown/HTML), `judge`
(optional LLM-as-judge faithfulness score).
"""

from assistant.evaluation.golden import GoldenFileError, GoldenItem, load_golden, select
from assistant.evaluation.runner import EvalReport, ItemResult, run_eval

__all__ = ["EvalReport", "GoldenFileError", "GoldenItem", "ItemResult", "load_golden", "run_eval", "select"]
