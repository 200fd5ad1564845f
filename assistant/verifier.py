"""Every number in an answer must be backed: match each claimed quantity to its evidence.

The verifier lives in `assistant.verify` (reader, units, keys, evidence, match, restate); this module
keeps the old import path. `verify_numbers(answer, evidence, user_texts, pasted_texts=...)` labels each
quantity the answer claims with what backs it: `tool:<name>:<path>` (a typed tool result, or
`tool:<name>:args.<key>` for an argument), `catalog:<key>`, `passage:<doc_id>`, `user`, `pasted`, or
None (unbacked). The rules are in README.md ("Every number is backed") and in the module docstrings.
"""

from assistant.verify.evidence import CatalogFact, Evidence, EvidencePassage, Figure
from assistant.verify.match import unbacked, verify_numbers
from assistant.verify.restate import restate_evidence

__all__ = ["CatalogFact", "Evidence", "EvidencePassage", "Figure", "restate_evidence", "unbacked", "verify_numbers"]
