"""Claims ↔ typed evidence, by dimension and unit: every number an answer shows must be backed.

`reader` reads quantities from text (answers, passages, the user's words); `units` names their
dimensions and the conversions allowed; `keys` tells the unit of a typed tool result's field from its
name; `evidence` gathers the figures an answer may draw on; `match` backs each claim; `restate`
writes the evidence back for an LLM's second try. `assistant.verifier` and `assistant.quantities`
re-export the public names.
"""

from assistant.verify.evidence import CatalogFact, Evidence, EvidencePassage, Figure
from assistant.verify.match import unbacked, verify_numbers
from assistant.verify.reader import Quantity, Reading, extract_quantities, read_quantities
from assistant.verify.restate import restate_evidence
from assistant.verify.units import UNIT_DIMENSION, conversion_factors

__all__ = [
    "CatalogFact", "Evidence", "EvidencePassage", "Figure", "Quantity", "Reading", "UNIT_DIMENSION",
    "conversion_factors", "extract_quantities", "read_quantities", "restate_evidence", "unbacked", "verify_numbers",
]
