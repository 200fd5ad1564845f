"""Writes the offline brain's final answer from tool results and passages.

Direct answer first, then the table, breakdown, assumptions, caveats and
sources. Every figure is formatted from a tool result (or a passage) so the
verifier can trace it; templates add no numbers of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.offline.phrases import BILLING_NAMES, GRADE_NAMES, MODE_NAMES, name_of, say
from assistant.offline.planner import Plan
from assistant.understanding import Facts, Intent
from tools.messages import render, render_component, render_suggestion
from tools.recommend_codes import RecommendCode
from tools.schemas import ExchangeRate

MAX_TABLE_ROWS = 5
MAX_REJECTED = 3
# reasons already shown as table columns (memory, price) or once under the assumptions (the exchange rate)
_REASONS_IN_COLUMNS = {RecommendCode.option_fit.value, RecommendCode.option_price.value,
                       RecommendCode.option_unpriced.value, RecommendCode.option_converted.value}


@dataclass
class ToolOutcome:
    name: str
    args: dict[str, Any]
    result: dict[str, Any]

    @property
    def error(self) -> str | None:
        return self.result.get("error") if isinstance(self.result, dict) else None

    def error_text(self, lang: str) -> str | None:
        """The error in `lang` when the tool sent its note (`error_note`), else its English text."""
        note = self.result.get("error_note") if isinstance(self.result, dict) else None
        return render(note, lang) if note else self.error


def passages_of(outcomes: list[ToolOutcome]) -> list[dict[str, Any]]:
    """Every retrieved passage of a turn, in retrieval order, once per (doc, section)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for o in outcomes:
        if o.name == "search_guidance" and isinstance(o.result, dict) and not o.error:
            for p in o.result.get("passages", []):
                key = (p["doc_id"], p["section"])
                if key not in seen:
                    seen.add(key)
                    out.append(p)
    return out


@dataclass
class Cited:
    """Passages in citation order; `[n]` markers index into it (1-based)."""

    passages: list[dict[str, Any]] = field(default_factory=list)

    def marker(self, passage: dict[str, Any]) -> int:
        for n, p in enumerate(self.passages, 1):
            if p["doc_id"] == passage["doc_id"] and p["section"] == passage["section"]:
                return n
        self.passages.append(passage)
        return len(self.passages)


# ---------------------------------------------------------------- formatting


def gib(x: float | None, lang: str = "en") -> str:
    return "?" if x is None else f"{x:,.1f} GiB"


def money(x: float | None, currency: str, lang: str) -> str:
    if x is None:
        return say("unknown", lang)
    digits = 2 if abs(x) < 100 else 0
    symbol = "¥" if currency == "CNY" else "$"
    return f"{symbol}{x:,.{digits}f}"


def hours_text(h: float, lang: str) -> str:
    return f"{h:,.1f} 小时" if lang == "zh" else f"{h:,.1f} hours"


def days_text(d: float, lang: str) -> str:
    return f"{d:,.1f} 天" if lang == "zh" else f"{d:,.1f} days"


def age_text(as_of: str | None, lang: str) -> str:
    return say("as_of", lang, date=as_of) if as_of else say("date_unknown", lang)


def count_text(n: float) -> str:
    return f"{n:g}"


def tflops(x: float | None, lang: str) -> str:
    return say("unknown", lang) if x is None else f"{x:,.1f} TFLOPS"


# ---------------------------------------------------------------- the answer


class Composer:
    def __init__(self, facts: Facts, plan: Plan, outcomes: list[ToolOutcome], question_text: str):
        self.f = facts
        self.plan = plan
        self.lang = facts.language
        self.outcomes = outcomes
        self.question_text = question_text
        self.cited = Cited()
        self.recommendation: dict[str, Any] | None = None
        self.options: list[dict[str, Any]] = []

    def result(self, name: str) -> ToolOutcome | None:
        for o in self.outcomes:
            if o.name == name:
                return o
        return None

    def plan_queries(self) -> list[str]:
        return [o.args.get("query", "") for o in self.outcomes if o.name == "search_guidance"]

    def passages(self) -> list[dict[str, Any]]:
        return passages_of(self.outcomes)

    # ------------------------------------------------------------ entry

    def compose(self) -> str:
        lang = self.lang
        parts: list[str] = []
        if self.plan.refused_injection:
            parts.append(say("injection", lang).strip())
        if self.plan.problem == "negative":
            parts.append(say("negative", lang, value=self.f.negative_input))
            return "\n\n".join(parts)
        if self.plan.problem == "unknown_gpu":
            names = ", ".join(self.f.gpu_suggestions)
            suggest = say("did_you_mean", lang, names=names) if names else ""
            parts.append(say("unknown_gpu", lang, name=self.f.unknown_gpu, suggest=suggest))
            return "\n\n".join(parts)
        if self.plan.problem == "unknown_model":
            parts.append(self._unknown_model())
            return "\n\n".join(parts)
        if not self.plan.calls:
            parts.append(say("greeting" if Intent.greeting in self.plan.intents else "offtopic", lang))
            return "\n\n".join(parts)

        primary = self.plan.intents[0] if self.plan.intents else Intent.concept
        errors = [o for o in self.outcomes if o.error and o.name != "search_guidance"]
        if errors:
            parts.append(say("tool_error", lang, error=errors[0].error_text(lang)))
        elif primary == Intent.recommend or (primary == Intent.cost and self.result("recommend_config")):
            parts.extend(self._recommendation())
        elif primary == Intent.vram:
            parts.extend(self._vram())
        elif primary == Intent.train_time:
            parts.extend(self._train_time())
        elif primary == Intent.cost:
            parts.extend(self._cost())
        elif primary == Intent.spec:
            parts.extend(self._spec())
        else:
            parts.extend(self._concept())

        if primary not in (Intent.concept, Intent.spec):
            parts.extend(self._assumptions())
            parts.extend(self._caveats())
            if self.plan.question:
                parts.append(say(f"question_{self.plan.question}", lang))
        parts.extend(self._sources())
        return "\n\n".join(p for p in parts if p)

    # ------------------------------------------------------------ sections

    def _unknown_model(self) -> str:
        suggestions = self.f.model_suggestions
        suggest = say("did_you_mean", self.lang, names=", ".join(suggestions)) if suggestions else ""
        return say("unknown_model", self.lang, name=self.f.unknown_model, suggest=suggest)

    def _recommendation(self) -> list[str]:
        lang = self.lang
        out = self.result("recommend_config")
        rec = out.result
        options = rec.get("options", [])
        currency = rec.get("currency", self.plan.currency.value)
        period = out.args.get("period", "month")
        parts: list[str] = []
        self.options = options
        if not options:
            budget_part = say("budget_part", lang) if out.args.get("budget") else ""
            why = ""
            if rec.get("rejected"):
                why = render(rec["rejected"][0]["reason"], lang)
            parts.append(say("infeasible", lang, budget_part=budget_part, why=why))
            if rec.get("suggestions"):
                lines = [f"- {render_suggestion(s, lang)}" for s in rec["suggestions"]]
                parts.append(say("nearest", lang) + "\n" + "\n".join(lines))
            parts.extend(self._breakdown(rec.get("vram")))
            parts.extend(self._rejected(rec.get("rejected", [])))
            return parts
        top = options[0]
        self.recommendation = top
        fields = dict(
            count=count_text(top["gpu_count"] * top.get("nodes", 1)),
            gpu=top["gpu"],
            provider=top["provider"],
            instance=top["instance"],
            region=top["region"],
            need=gib(top["per_gpu_gib"]),
            have=gib(top["gpu_usable_gib"]),
            headroom=gib(top["headroom_gib"]),
        )
        if top.get("monthly_cost") is not None:
            parts.append(
                say(
                    "rec_direct",
                    lang,
                    monthly=money(top["monthly_cost"], currency, lang),
                    billing=name_of(BILLING_NAMES, top.get("billing"), lang),
                    grade=name_of(GRADE_NAMES, top.get("price_grade"), lang),
                    age=age_text(top.get("price_as_of"), lang),
                    **fields,
                )
            )
        else:
            parts.append(say("rec_direct_unpriced", lang, **fields))
        if top.get("job_cost") is not None and top.get("job_hours"):
            parts.append(say("rec_job", lang, hours=hours_text(top["job_hours"], lang), job=money(top["job_cost"], currency, lang)))
        if out.args.get("budget") and top.get("monthly_cost") is not None:
            parts.append(say("within_budget", lang))
        parts.append(self._table(options, currency, period))
        parts.extend(self._breakdown(rec.get("vram")))
        parts.extend(self._rejected(rec.get("rejected", [])))
        return parts

    def _table(self, options: list[dict[str, Any]], currency: str, period: str) -> str:
        lang = self.lang
        period_name = say(f"period_{period}" if period in ("month", "job", "hour") else "period_month", lang)
        rows = [say("table_head", lang, period=period_name)]
        for n, o in enumerate(options[:MAX_TABLE_ROWS], 1):
            if period == "job":
                cost = o.get("job_cost")
            elif period == "hour":
                cost = o.get("price_per_hour")
            else:
                cost = o.get("monthly_cost")
            cost_text = money(cost, currency, lang) if cost is not None else say("unknown_price", lang)
            grade = name_of(GRADE_NAMES, o.get("price_grade"), lang) if o.get("price_grade") else "—"
            reasons = [render(r, lang) for r in o.get("reasons", []) if r["code"] not in _REASONS_IN_COLUMNS][:2]
            warnings = [render(w, lang) for w in o.get("warnings", [])[:1]]
            why = ("；" if lang == "zh" else "; ").join([*reasons, *warnings]).replace("|", "/") or "—"
            gpus = f"{count_text(o['gpu_count'] * o.get('nodes', 1))}× {o['gpu']}"
            rows.append(
                f"| {n} | {o['provider']} | `{o['instance']}` | {gpus} | {gib(o['per_gpu_gib'])} / {gib(o['gpu_usable_gib'])} "
                f"| {cost_text} | {grade}, {age_text(o.get('price_as_of'), lang)} | {why} |"
            )
        return "\n".join(rows)

    def _breakdown(self, vram: dict[str, Any] | None) -> list[str]:
        if not vram:
            return []
        lang = self.lang
        parts = ("，" if lang == "zh" else ", ").join(
            f"{render_component(p['component'], p.get('precision'), lang)} {gib(p['gib'])}"
            for p in vram.get("breakdown", []) if p["gib"] > 0.05
        )
        return [
            say(
                "breakdown",
                lang,
                mode=name_of(MODE_NAMES, vram["mode"], lang),
                precision=vram["precision"],
                parts=parts,
                total=gib(vram["per_gpu_gib"]),
            )
        ]

    def _rejected(self, rejected: list[dict[str, Any]]) -> list[str]:
        if not rejected:
            return []
        lines = [
            f"- {r['provider']} `{r['instance']}` ({count_text(r['gpu_count'])}× {r['gpu']}): {render(r['reason'], self.lang)}"
            for r in rejected[:MAX_REJECTED]
        ]
        return [say("rejected", self.lang) + "\n" + "\n".join(lines)]

    def _vram(self) -> list[str]:
        lang = self.lang
        out = self.result("estimate_vram")
        v = out.result
        over = say("over_gpus", lang, gpus=v["gpus"]) if v.get("gpus", 1) > 1 else ""
        parts = [
            say(
                "vram_direct",
                lang,
                model=v["model"],
                mode=name_of(MODE_NAMES, v["mode"], lang),
                precision=v["precision"],
                per_gpu=gib(v["per_gpu_gib"]),
                over_gpus=over,
                total=gib(v["total_gib"]),
            )
        ]
        details = v.get("fit_details") or []
        fits = [f"{d['gpu']} ({gib(d['usable_gib'])}, +{gib(d['headroom_gib'])})" for d in details if d["fits"]]
        nofit = [f"{d['gpu']} ({gib(d['usable_gib'])})" for d in details if not d["fits"]]
        parts.append(say("fits_on", lang, fits=", ".join(fits)) if fits else say("fits_none", lang))
        if fits and nofit:
            parts.append(say("too_small", lang, nofit=", ".join(nofit)))
        parts.extend(self._breakdown(v))
        return parts

    def _train_time(self) -> list[str]:
        lang = self.lang
        out = self.result("estimate_train_time")
        t = out.result
        parts = [
            say(
                "time_direct",
                lang,
                model=t["model"],
                mode=name_of(MODE_NAMES, out.args.get("mode"), lang),
                gpus=t["gpus"],
                gpu=t["gpu"],
                hours=hours_text(t["hours"], lang),
                days=days_text(t["days"], lang),
                gpu_hours=f"{t['gpu_hours']:,.0f}",
                mfu=f"{t['mfu'] * 100:.0f}%",
            ),
            say("time_flops", lang, flops=f"{t['flops']:.2e}"),
        ]
        if t.get("gpus_for_deadline"):
            parts.append(say("deadline", lang, n=t["gpus_for_deadline"]))
        if self.result("recommend_config"):
            parts.extend(self._recommendation())
        return parts

    def _cost(self) -> list[str]:
        lang = self.lang
        c = self.result("estimate_cost").result
        currency = c["currency"]
        fields = dict(provider=c["provider"], instance=c["instance"], count=count_text(c["gpu_count"]), gpu=c["gpu"])
        billing = name_of(BILLING_NAMES, c["billing"], lang)
        if c.get("total") is None:
            parts = [say("cost_unknown", lang, billing=billing, **fields)]
        else:
            line = next((l for l in c["lines"] if l["billing"] == c["billing"]), {})
            parts = [
                say(
                    "cost_direct",
                    lang,
                    region=c["region"],
                    total=money(c["total"], currency, lang),
                    hours=hours_text(c["hours"], lang),
                    billing=billing,
                    grade=name_of(GRADE_NAMES, line.get("price_grade"), lang),
                    age=age_text(c.get("price_as_of"), lang),
                    **fields,
                )
            ]
        rows = []
        for l in c["lines"]:
            total = money(l["total"], currency, lang) if l.get("total") is not None else say("unknown_price", lang)
            per_hour = money(l["price_per_hour"], currency, lang) if l.get("price_per_hour") is not None else "—"
            rows.append(f"- {name_of(BILLING_NAMES, l['billing'], lang)}: {total} ({per_hour}/h, {age_text(l.get('price_as_of'), lang)})")
        parts.append(say("cost_lines", lang) + "\n" + "\n".join(rows))
        if c.get("exchange_rate"):
            rate = ExchangeRate.model_validate(c["exchange_rate"]).note()
            parts.append(say("fx", lang, rate=render(rate, lang)))
        return parts

    def _spec(self) -> list[str]:
        lang = self.lang
        out = self.result("lookup_catalog")
        parts: list[str] = []
        if out is not None and not out.error:
            r = out.result
            kind = out.args.get("kind")
            if kind == "gpu":
                yes, no = say("supported", lang), say("not_supported", lang)
                link = f"NVLink {r['nvlink_bandwidth_gbps']:g} GB/s" if r.get("nvlink") and r.get("nvlink_bandwidth_gbps") else (
                    "NVLink" if r.get("nvlink") else (r.get("interconnect_note") or "PCIe")
                )
                parts.append(
                    say(
                        "spec_gpu",
                        lang,
                        name=r["name"],
                        architecture=r["architecture"],
                        form=r["form_factor"],
                        memory=f"{r['memory_gb']:g} GB",
                        mtype=r.get("memory_type") or "",
                        usable=gib(r["usable_memory_gib"]),
                        bw=f"{r['memory_bandwidth_gbps']:,.0f} GB/s" if r.get("memory_bandwidth_gbps") else say("unknown", lang),
                        bf16=tflops(r.get("bf16_tflops") or r.get("fp16_tflops"), lang),
                        fp8=tflops(r.get("fp8_tflops"), lang),
                        bf16s=yes if r["bf16_supported"] else no,
                        fp8s=yes if r["fp8_supported"] else no,
                        link=link,
                        tdp=f"{r['tdp_w']:g} W" if r.get("tdp_w") else say("unknown", lang),
                    )
                )
                if r.get("export_note"):
                    parts.append(say("spec_export", lang, note=r["export_note"]))
                parts.append(say("spec_source", lang, source=r["source"]))
            elif kind == "model":
                parts.append(
                    say(
                        "spec_model",
                        lang,
                        name=r["name"],
                        params=f"{r['params'] / 1e9:,.1f}B",
                        layers=r.get("num_layers") or "?",
                        hidden=r.get("hidden_size") or "?",
                        heads=r.get("num_attention_heads") or "?",
                        kv=r.get("num_kv_heads") or r.get("num_attention_heads") or "?",
                        attn=str(r.get("attention", "")).upper(),
                        ctx=r.get("max_context") or "?",
                    )
                )
                parts.append(say("spec_source", lang, source=r["source"]))
            elif kind == "instance":
                for inst in r.get("instances", [])[:3]:
                    prices = ", ".join(
                        f"{name_of(BILLING_NAMES, p['billing'], lang)} {money(p['amount'], p['currency'], lang)}/{p['per']}"
                        for p in inst.get("prices", [])
                    ) or say("unknown_price", lang)
                    parts.append(
                        f"**{inst['provider']} `{inst['instance']}`** ({inst['region']['name']}): "
                        f"{count_text(inst['gpu_count'])}× {inst['gpu']}, {inst.get('vcpus') or '?'} vCPU, "
                        f"{gib(inst.get('ram_gib')) if inst.get('ram_gib') else '?'} RAM — {prices}"
                    )
        parts.extend(self._summary(limit=2))
        return parts

    def _concept(self) -> list[str]:
        summary = self._summary(limit=4, guidance_only=True)
        if not summary:
            return [say("concept_none", self.lang)]
        return [say("concept_intro", self.lang), *summary]

    # ------------------------------------------------------------ guidance

    def _summary(self, limit: int, guidance_only: bool = False) -> list[str]:
        """The sentences of the best passages that share most words with the question."""
        passages = self.passages()
        if guidance_only and any(":" not in p["doc_id"] for p in passages):
            passages = [p for p in passages if ":" not in p["doc_id"]]  # catalog cards answer spec questions, not concepts
        if not passages:
            return []
        terms = _terms(self.question_text)
        lines = []
        for p in passages[:limit]:
            sentences = _sentences(p["text"])
            ranked = sorted(sentences, key=lambda s: -len(terms & _terms(s)))
            best = [s for s in sentences if s in ranked[:2]]  # keep document order
            if not best:
                continue
            n = self.cited.marker(p)
            lines.append(f"- {' '.join(best)} [{n}]")
        return lines

    def _caveats(self, limit: int = 4) -> list[str]:
        lang = self.lang
        items: list[str] = []
        top = self.recommendation
        if top:
            if top.get("billing") == "spot":
                items.append(say("caveat_spot", lang))
            if top["gpu_count"] * top.get("nodes", 1) > 1:
                items.append(say("caveat_multi", lang))
            if (top.get("price_grade") or "").startswith("marketplace"):
                items.append(say("caveat_marketplace", lang))
            for w in top.get("warnings", [])[:2]:
                items.append(render(w, lang))
        if self.f.region and self.f.region.value == "cn":
            items.append(say("caveat_china", lang))
        if top or self.plan.intents[:1] == [Intent.recommend]:
            items.append(say("caveat_verify", lang))
        # the most relevant guidance sentence of each retrieved topic, cited
        terms = _terms(self.question_text) | _terms(" ".join(self.plan_queries()))
        for p in self.passages()[:2]:
            sentences = _sentences(p["text"])
            if sentences:
                best = max(sentences, key=lambda s: len(terms & _terms(s)))
                n = self.cited.marker(p)
                items.append(f"{best} [{n}]")
        items = items[: limit + 2]
        if not items:
            return []
        return [say("caveats", lang) + "\n" + "\n".join(f"- {i}" for i in items)]

    def _assumptions(self) -> list[str]:
        lang = self.lang
        items: list[str] = []
        for a in self.plan.assumptions:
            key = f"assume_{a.key}"
            value = name_of(MODE_NAMES, a.value, lang) if a.key == "mode" else a.value
            items.append(say(key, lang, value=value))
        for o in self.outcomes:
            if not isinstance(o.result, dict) or o.error:
                continue
            limit = {"estimate_vram": 4, "recommend_config": 4, "estimate_train_time": 3}.get(o.name, 0)
            items.extend(render(a, lang) for a in o.result.get("assumptions", [])[:limit])
        items = list(dict.fromkeys(items))
        if not items:
            return []
        return [say("assumptions", lang) + "\n" + "\n".join(f"- {i}" for i in items)]

    def _sources(self) -> list[str]:
        if not self.cited.passages:
            return []
        lines = [
            f"[{n}] {p['doc_id']} — {p['title']} § {p['section']}" for n, p in enumerate(self.cited.passages, 1)
        ]
        return [say("sources", self.lang) + "\n" + "\n".join(lines)]


# ASCII full stops end a sentence only before whitespace: "55.74 USD" and "e.g." stay whole
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])\s*")


def _sentences(text: str) -> list[str]:
    text = re.sub(r"^#+ .*$", "", text, flags=re.M)  # headings are titles, not content
    text = re.sub(r"^\|.*\|\s*$", "", text, flags=re.M)  # tables do not summarise as sentences
    text = text.replace("**", "").replace("__", "")
    text = re.sub(r"\s*\n\s*[-*•]\s*", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    out = [s.strip() for s in _SENTENCE_RE.split(text) if len(s.strip()) > 8]
    return out


def _terms(text: str) -> set[str]:
    low = text.lower()
    words = set(re.findall(r"[a-z][a-z0-9+\-]{2,}", low))
    cjk = re.findall(r"[\u4e00-\u9fff]+", low)
    for run in cjk:
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words
