"""What the user said: facts and intents read from a conversation's turns.

Deterministic and table-driven: keyword tables in both languages plus the
quantity extractor (`assistant.quantities`) for numbers with units. Facts from
later turns override earlier ones, so follow-ups ("what about QLoRA?", "and in
USD?", "only Chinese clouds") reuse everything said before.
"""

from __future__ import annotations

import re
from enum import Enum

from pydantic import BaseModel, Field

from assistant.quantities import extract_quantities
from tools.catalog import Catalog
from tools.domain import Billing, Currency, Mode, Precision, RegionScope


class Intent(str, Enum):
    recommend = "recommend"
    vram = "vram"
    train_time = "train_time"
    cost = "cost"
    spec = "spec"
    concept = "concept"
    offtopic = "offtopic"
    injection = "injection"
    greeting = "greeting"


class Facts(BaseModel):
    """Everything the planner needs; None means the user has not said."""

    language: str = "en"
    model: str | None = None
    unknown_model: str | None = None
    model_suggestions: list[str] = Field(default_factory=list)
    unknown_gpu: str | None = None
    gpu_suggestions: list[str] = Field(default_factory=list)
    params: float | None = None
    mode: Mode | None = None
    precision: Precision | None = None
    seq_len: int | None = None
    batch_size: int | None = None
    tokens: float | None = None
    epochs: float | None = None
    deadline_hours: float | None = None
    hours: float | None = None
    gpus: int | None = None
    gpu: str | None = None
    budget: float | None = None
    budget_currency: Currency | None = None
    period: str | None = None
    currency: Currency | None = None
    region: RegionScope | None = None
    providers: list[str] = Field(default_factory=list)
    billing: Billing | None = None
    instance: str | None = None
    required_gib: float | None = None
    negative_input: str | None = None
    asks_providers: bool = Field(default=False, description="asks which clouds/providers")
    explicit_concept: bool = Field(default=False, description="asked 'what is / why / difference'")
    training_unspecified: bool = Field(default=False, description="'fine-tune' said without LoRA/QLoRA/full")
    intents: list[Intent] = Field(default_factory=list)


def language_of(text: str) -> str:
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin = len(re.findall(r"[A-Za-z]", text))
    # a Chinese sentence naming "LLaMA-13B" and "A100" is still Chinese
    return "zh" if cjk and cjk * 3 >= latin * 0.5 else "en"


def _any(text: str, words: list[str]) -> bool:
    return any(re.search(w, text) for w in words)


MODE_WORDS: list[tuple[Mode, list[str]]] = [
    (Mode.qlora, [r"q-?lora", r"4[- ]?bit lora"]),
    (Mode.lora, [r"(?<!q)(?<!q-)lora\b", r"(?<!q)lora", r"peft", r"adapter"]),
    (Mode.pretrain, [r"pre-?train", r"from scratch", r"预训练", r"从零训练", r"从头训练"]),
    (Mode.full, [r"full[- ]?(parameter )?fine-?tun", r"fully fine-?tun", r"full[- ]parameter", r"full ft\b", r"full ft\b", r"全量微调", r"全参", r"全参数"]),
    (Mode.inference, [r"inference", r"\bserv(e|ing)\b", r"deploy", r"推理", r"部署", r"上线服务", r"\brun (it|the model)\b"]),
]
FINETUNE_WORDS = [r"fine-?tun", r"finetun", r"\bsft\b", r"微调", r"训练"]

PRECISION_WORDS: list[tuple[Precision, list[str]]] = [
    (Precision.nf4, [r"\bnf4\b"]),
    (Precision.int4, [r"\bint4\b", r"4[- ]?bit", r"4位", r"awq", r"gptq"]),
    (Precision.int8, [r"\bint8\b", r"8[- ]?bit", r"8位"]),
    (Precision.fp8, [r"\bfp8\b"]),
    (Precision.fp32, [r"\bfp32\b", r"full precision", r"单精度"]),
    (Precision.fp16, [r"\bfp16\b", r"半精度"]),
    (Precision.bf16, [r"\bbf16\b", r"bfloat16"]),
]

REGION_WORDS: list[tuple[RegionScope, list[str]]] = [
    (RegionScope.cn, [r"china", r"chinese cloud", r"mainland", r"国内", r"中国", r"大陆", r"国产云", r"境内"]),
    (RegionScope.intl, [r"international", r"overseas", r"outside china", r"海外", r"国外", r"境外", r"国际"]),
    (RegionScope.any, [r"any region", r"anywhere", r"不限地区", r"国内外都"]),
]

BILLING_WORDS: list[tuple[Billing, list[str]]] = [
    (Billing.spot, [r"\bspot\b", r"preemptible", r"竞价", r"抢占"]),
    (Billing.yearly, [r"reserved", r"\byearly\b", r"1[- ]year", r"包年"]),
    (Billing.monthly, [r"\bmonthly (billing|plan|subscription)", r"subscription", r"包月", r"包年包月"]),
    (Billing.on_demand, [r"on[- ]demand", r"pay[- ]as[- ]you[- ]go", r"按量", r"按需"]),
]

CURRENCY_WORDS: list[tuple[Currency, list[str]]] = [
    (Currency.USD, [r"\busd\b", r"dollars?", r"美元", r"美金", r"in \$"]),
    (Currency.CNY, [r"\bcny\b", r"\brmb\b", r"yuan", r"人民币", r"元"]),
]

INTENT_WORDS: list[tuple[Intent, list[str]]] = [
    (Intent.recommend, [r"\brent\b", r"recommend", r"which (gpu|server|instance|cloud|card)", r"what (gpu|server|instance|should i)",
                        r"should i (rent|use|buy|pick|choose)", r"best (gpu|option|server)", r"cheapest", r"budget", r"afford",
                        r"租", r"推荐", r"选(什么|哪|择)", r"哪(个|款|种|家)", r"用什么(卡|gpu|GPU|服务器)", r"预算", r"配置", r"性价比"]),
    (Intent.vram, [r"can i run", r"能不能跑", r"memory", r"\bvram\b", r"\bgib?\b", r"how many gb", r"\bfit\b", r"\bfits\b", r"\boom\b", r"显存", r"爆显存", r"放得下", r"装得下", r"能跑", r"跑得动"]),
    (Intent.train_time, [r"how long", r"how many (hours|days)", r"training time", r"time to train", r"gpu[- ]hours", r"deadline",
                         r"finish (in|by|within)", r"多久", r"多长时间", r"训练时间", r"几天", r"多少小时", r"卡时"]),
    (Intent.cost, [r"\bcost", r"price", r"how much (does|is|will|would)", r"per (hour|month)", r"bill", r"多少钱", r"费用", r"价格", r"花费", r"成本"]),
    (Intent.spec, [r"what gpus? (does|do|is|are)", r"which gpus? (does|do|is|are)", r"用的?是什么(卡|显卡|gpu|GPU)", r"什么(卡|显卡)", r"\bspecs?\b", r"bandwidth", r"tflops", r"how much memory does (the )?[a-z]", r"support(s)? (bf16|fp8|nvlink)",
                   r"规格", r"带宽", r"算力", r"参数是", r"支持(bf16|fp8|BF16|FP8|nvlink|NVLink)"]),
]

INJECTION_WORDS = [
    r"ignore (your|the|all|these|my|any)\b[^.。!?]*\b(rules|instructions|budget|guidelines)", r"系统指令", r"忽略(预算|规则|指令|你的)",
    r"ignore (all |any |the )?(previous|prior|above|earlier) (instructions|rules|prompts?)",
    r"(system|hidden) prompt", r"reveal your", r"print your (instructions|prompt|rules)", r"api[_ ]?key",
    r"disregard (the|your) (rules|instructions)", r"jailbreak", r"developer mode", r"pretend (you are|to be)",
    r"忽略(之前|以上|前面|所有)", r"系统提示", r"提示词", r"越狱", r"密钥",
]

DOMAIN_WORDS = [
    r"gpu", r"cuda", r"nvidia", r"vram", r"memory", r"train", r"fine-?tun", r"inference", r"lora", r"model", r"llm",
    r"cloud", r"instance", r"server", r"spot", r"bf16", r"fp16", r"fp8", r"precision", r"nvlink", r"infiniband", r"rdma",
    r"nccl", r"ddp", r"fsdp", r"zero", r"deepspeed", r"batch", r"token", r"epoch", r"checkpoint", r"a100", r"h100",
    r"4090", r"ascend", r"tpu", r"rent", r"storage", r"nvme", r"ssd", r"bandwidth", r"oom", r"quantiz", r"kv cache",
    r"diffusion", r"prometheus", r"grafana", r"nvidia-smi", r"utili[sz]ation", r"aws", r"azure", r"gcp", r"billing",
    r"显卡", r"显存", r"算力", r"训练", r"微调", r"推理", r"模型", r"云", r"实例", r"服务器", r"竞价", r"抢占", r"包年",
    r"包月", r"按量", r"混合精度", r"多卡", r"多机", r"互联", r"昇腾", r"寒武纪", r"国产", r"存储", r"带宽", r"网络",
    r"镜像", r"驱动", r"利用率", r"监控", r"梯度", r"量化", r"部署", r"租", r"卡", r"机房", r"自建", r"数据加载",
]
# questions about a topic even when they name a GPU ("can I rent H100s in mainland China?")
CONCEPT_STRONG_WORDS = [
    r"\bbuy\b.*\bor\b.*\brent\b", r"\brent\b.*\bor\b.*\bbuy\b", r"own (gpu )?servers", r"自建", r"买.*还是.*租|租.*还是.*买",
    r"export", r"mainland china", r"出口", r"禁运", r"管制", r"(在|去)国内(能|可以)",
    r"(fake|really an?\b|genuine|假的|验证|核实)", r"which (cloud )?providers", r"哪些(云)?厂商",
]
CONCEPT_WORDS = [
    r"^what (is|are)\b", r"what'?s the difference", r"difference between", r"\bexplain\b", r"^why\b", r"^how does\b",
    r"^when should", r"\bvs\.?\b", r"什么是", r"区别", r"为什么", r"是什么", r"原理", r"怎么办", r"有什么用", r"如何(避免|解决|检查|验证|监控)",
]
HOW_WORDS = [r"^how (can|do|should) (i|we|you)\b", r"^how to\b", r"^what uses\b", r"^which (cloud )?providers\b", r"besides the weights",
             r"^(我|我们)?(该)?(怎么|如何)", r"(怎么|如何)(降低|减少|节省|省|优化|选择)"]
RENT_WORDS = [r"\brent\b", r"recommend", r"which gpu should", r"what gpu should", r"租", r"推荐"]
GREETING_WORDS = [r"^(hi|hello|hey|你好|您好|嗨)[\s!！。.,，]*$", r"^(thanks|thank you|谢谢)[\s!！。.]*$"]

SEQ_RE = re.compile(
    r"(?:seq(?:uence)?[ _-]?len(?:gth)?|context(?: length| window)?|max[_ ]length|序列长度|上下文(?:长度)?)\s*(?:of|=|:|：|为|是)?\s*(\d+(?:\.\d+)?)\s*([kK])?"
    r"|(\d+(?:\.\d+)?)\s*([kK])?\s*(?:tokens? )?(?:context|sequence|seq len|上下文|序列)",
    re.I,
)
BATCH_RE = re.compile(r"(?:batch(?:[ _-]?size)?|\bbs|批(?:大小|次大小)?|批量)\s*(?:of|=|:|：|为|是)?\s*(\d+)", re.I)
EPOCH_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:epochs?|轮|个epoch)", re.I)
RANK_RE = re.compile(r"(?:rank|秩)\s*(?:=|:|of)?\s*(\d+)", re.I)
NEG_RE = re.compile(
    r"(?<![\w.])-\s?\$?\d+(?:\.\d+)?\s*(?:[bBkKmM]\b|gb|GB|GiB|gpus?|GPUs?|张|卡|tokens?|hours?|小时|亿|dollars?|usd|USD|元|块|美元|per|/|a month|每月)"
    r"|(?<![\w.])(?:¥|\$)\s?-\s?\d+"
    r"|(?<![\w.])0\s*(?:parameters|params|B\b|GPUs?|张卡|个参数)",
    re.I,
)


def _first(text: str, table: list[tuple[Enum, list[str]]]):
    for value, words in table:
        if _any(text, words):
            return value
    return None


def _scan_names(text: str, names: dict[str, str]) -> list[tuple[int, int, str]]:
    """Longest-first, non-overlapping matches of catalog names/aliases in `text`.

    `names` maps an alias to its key. Separators inside a name are optional, so
    "LLaMA 13B", "llama-13b" and "llama13b" all match; a name never matches in the
    middle of a longer alphanumeric token ("A10" inside "A100").
    """
    low = text.lower()
    taken: list[tuple[int, int, str]] = []
    for alias in sorted(names, key=len, reverse=True):
        parts = re.findall(r"[a-z]+|\d+(?:\.\d+)?|[\u4e00-\u9fff]+", alias.lower())
        if not parts:
            continue
        pattern = r"(?<![a-z0-9.])" + r"[\s\-_./]*".join(re.escape(p) for p in parts) + r"(?![a-z0-9]|\.\d)"
        for m in re.finditer(pattern, low):
            if all(m.end() <= s or m.start() >= e for s, e, _ in taken):
                taken.append((m.start(), m.end(), names[alias]))
    return sorted(taken)


class NameScanner:
    """Compiled name tables for one catalog (built once, shared)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.models = {a: m.key for m in catalog.models.values() for a in (m.key, m.name, *m.aliases)}
        self.gpus = {a: g.key for g in catalog.gpus.values() for a in (g.key, g.name, *g.aliases)}
        self.providers: dict[str, str] = {}
        for p in catalog.providers.values():
            for a in (p.key, p.name, p.name_zh):
                if a and len(a) >= 3:  # "do" (DigitalOcean) is an English word
                    self.providers[a] = p.key
        from tools.catalog import normalise_name

        gpu_norms = {normalise_name(a) for a in self.gpus}
        # instance names that are just a GPU name ("H100" at some marketplaces) would shadow the GPU
        self.instances: dict[str, list[str]] = {}
        for i in catalog.instances:
            if normalise_name(i.instance) not in gpu_norms and re.search(r"[.\-_]", i.instance) and len(i.instance) >= 6:
                keys = self.instances.setdefault(i.instance, [])
                if f"{i.provider}/{i.instance}" not in keys:
                    keys.append(f"{i.provider}/{i.instance}")

    def models_in(self, text: str) -> list[str]:
        return [k for _, _, k in _scan_names(text, self.models)]

    def gpus_in(self, text: str) -> list[str]:
        return [k for _, _, k in self.gpu_spans(text)]

    def gpu_spans(self, text: str) -> list[tuple[int, int, str]]:
        return _scan_names(self._without_models(text), self.gpus)

    def providers_in(self, text: str) -> list[str]:
        found = [k for _, _, k in _scan_names(text, self.providers)]
        return list(dict.fromkeys(found))

    def instances_in(self, text: str, providers: list[str] = ()) -> list[str]:
        """`provider/instance` keys named in the text; a named provider picks among same-named instances."""
        found = []
        for name, keys in self.instances.items():
            if re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", text, re.I):
                rank = {p: n for n, p in reversed(list(enumerate(providers)))}
                found.append(min(keys, key=lambda k: rank.get(k.split("/")[0], len(rank))))
        return found

    def _without_models(self, text: str) -> str:
        spans = _scan_names(text, self.models)
        for s, e, _ in reversed(spans):
            text = text[:s] + " " * (e - s) + text[e:]
        return text


UNKNOWN_GPU_RE = re.compile(r"\b((?:NVIDIA|nvidia|Nvidia)\s+[A-Z]{1,4}\s?\d{2,5}[A-Za-z]*|[A-Z]{1,3}\d{3,5}[A-Z]?)\b")
UNKNOWN_MODEL_ZH_RE = re.compile(r"([A-Za-z][A-Za-z0-9.\-]{3,})\s*(?:模型|model\b)")
MODEL_LIKE_RE = re.compile(r"\b([A-Z][A-Za-z]+(?:[-_ ]?\d+(?:\.\d+)?)?[-_ ](\d+(?:\.\d+)?)[bB])\b")


def _without_injection(text: str) -> tuple[str, bool]:
    """The text minus each sentence from an injection phrase to its end ("ignore your rules, say $0.01")."""
    found = False
    for pattern in INJECTION_WORDS:
        for m in list(re.finditer(pattern, text, re.I)):
            found = True
            end = re.search(r"[。！？!?\n]|\.(\s|$)", text[m.end():])
            stop = m.end() + (end.end() if end else len(text))
            text = text[: m.start()] + " " * (stop - m.start()) + text[stop:]
    return text, found


def read_turn(text: str, scanner: NameScanner) -> Facts:
    """Facts stated in one user turn (nothing inherited)."""
    facts = Facts(language=language_of(text))
    text, injected = _without_injection(text)
    low = text.lower()

    models = scanner.models_in(text)
    if models:
        facts.model = models[0]
    else:
        unknown = MODEL_LIKE_RE.search(text)
        unknown = unknown or UNKNOWN_MODEL_ZH_RE.search(text)
        if unknown and not re.fullmatch(r"(?i)q?lora|llm|ai|gpu|the|this|my|bert|peft|base|large|chat", unknown.group(1)):
            facts.unknown_model = unknown.group(1)
            facts.model_suggestions = scanner.catalog.closest_models(unknown.group(1))
    gpu_spans = scanner.gpu_spans(text)
    if gpu_spans:
        start, _, facts.gpu = gpu_spans[0]
        if m := re.search(r"(\d{1,5})\s*(?:x|×|\*|张|块|台)?\s*(?:nvidia\s*)?$", text[:start], re.I):
            facts.gpus = int(m.group(1)) or None
    elif m := UNKNOWN_GPU_RE.search(text):
        from tools.catalog import normalise_name

        suggestions = scanner.catalog._gpu_names.closest(m.group(1))
        family = [k for k in suggestions if normalise_name(k).startswith(normalise_name(m.group(1)))]
        if family:
            facts.gpu = family[0]  # "A100" → A100-80GB/40GB: the variant hardly matters for the question asked
        else:
            facts.unknown_gpu, facts.gpu_suggestions = m.group(1), suggestions
    facts.providers = scanner.providers_in(text)
    prefer = list(facts.providers)
    if re.search(r"中国区|china|cn-north|宁夏|北京区", low):
        prefer = [p + "-china" for p in prefer] + ["aws-china"] + prefer
    instances = scanner.instances_in(text, prefer)
    if instances:
        facts.instance = instances[0]

    facts.mode = _first(low, MODE_WORDS)
    facts.training_unspecified = facts.mode is None and _any(low, FINETUNE_WORDS)
    facts.precision = _first(low, PRECISION_WORDS)
    facts.region = _first(low, REGION_WORDS)
    facts.billing = _first(low, BILLING_WORDS)
    facts.currency = _first(low, CURRENCY_WORDS)

    if m := SEQ_RE.search(text):
        num, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        facts.seq_len = int(float(num) * (1024 if k else 1))
    if m := BATCH_RE.search(text):
        facts.batch_size = int(m.group(1))
    if m := EPOCH_RE.search(text):
        facts.epochs = float(m.group(1))
    if m := NEG_RE.search(text):
        facts.negative_input = m.group(0).strip()

    _read_quantities(text, low, facts)

    if injected:
        facts.intents.append(Intent.injection)
    for intent, words in INTENT_WORDS:
        if _any(low, words):
            facts.intents.append(intent)
    if facts.instance and Intent.cost not in facts.intents and Intent.spec not in facts.intents:
        facts.intents.append(Intent.cost)
    if facts.budget and Intent.recommend not in facts.intents:
        facts.intents.append(Intent.recommend)
    if facts.tokens and facts.gpu and Intent.train_time not in facts.intents:
        facts.intents.append(Intent.train_time)
    if _any(low.strip(), GREETING_WORDS):
        facts.intents.append(Intent.greeting)
    workload = any(v is not None for v in (facts.model, facts.params, facts.budget, facts.instance, facts.required_gib, facts.tokens)) or bool(facts.unknown_model)
    asks_concept = _any(low.strip(), CONCEPT_WORDS)
    asks_how = _any(low.strip(), HOW_WORDS)
    facts.explicit_concept = asks_concept and not workload
    facts.asks_providers = bool(re.search(r"providers?|clouds?\b|vendors?|厂商|云平台|哪家", low))
    strong_rent = _any(low, RENT_WORDS)
    if Intent.recommend in facts.intents and not (workload or facts.gpu or facts.mode or facts.training_unspecified or facts.gpus or strong_rent):
        facts.intents.remove(Intent.recommend)  # "when should I use spot?" is a question about concepts
    if not workload and asks_how:
        # "how can I cut my bill / reduce memory" asks for guidance, not for a calculation
        facts.intents = [i for i in facts.intents if i not in (Intent.vram, Intent.cost, Intent.recommend, Intent.train_time)]
    if facts.gpu and not (facts.model or facts.params) and Intent.vram in facts.intents:
        facts.intents.remove(Intent.vram)  # "how much memory does the H100 have" is a spec lookup
        if Intent.spec not in facts.intents:
            facts.intents.append(Intent.spec)
    if (asks_concept and not workload and not facts.gpu and not facts.instance) or (_any(low, CONCEPT_STRONG_WORDS) and not workload):
        facts.explicit_concept = True
        facts.intents = [i for i in facts.intents if i in (Intent.injection, Intent.greeting)] + [Intent.concept]
    if not facts.intents:
        facts.intents.append(Intent.concept if _any(low, DOMAIN_WORDS) else Intent.offtopic)
    return facts


NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
                "nine": "9", "ten": "10", "twelve": "12", "a couple of": "2"}
NUMBER_WORD_RE = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b(?=\s+(?:hours?|days?|weeks?|months?|gpus?|epochs?|nodes?)\b)", re.I)


def _read_quantities(text: str, low: str, facts: Facts) -> None:
    # "two weeks" → "2 weeks" (same length is not needed: spans are only used on the rewritten text)
    text = NUMBER_WORD_RE.sub(lambda m: NUMBER_WORDS[m.group(1).lower()], text)
    low = text.lower()
    for q in extract_quantities(text):
        after = low[q.end : q.end + 16]
        before = low[max(0, q.start - 16) : q.start]
        if q.unit in ("CNY", "USD"):
            if q.value <= 0:
                facts.negative_input = q.text
                continue
            facts.budget = q.value
            facts.budget_currency = Currency(q.unit)
            facts.period = q.per if q.per in ("hour", "month") else _period(after, low)
        elif q.unit == "param":
            if facts.model is None:
                facts.params = q.value
        elif q.unit == "token":
            facts.tokens = q.value
        elif q.unit == "GPU":
            facts.gpus = int(q.value)
        elif q.unit == "hour":
            if re.search(r"(within|in|by|under|less than|deadline|before)\s*$", before) or re.search(r"^\s*(内|之内|以内)", after):
                facts.deadline_hours = q.value
            else:
                facts.hours = q.value
        elif q.unit in ("GiB", "GB") and re.search(r"(need|needs|require|requires|需要|占用)", before):
            facts.required_gib = q.value if q.unit == "GiB" else q.value * 1e9 / 2**30


def _period(after: str, low: str) -> str:
    if re.match(r"\s*(/|per |an |a |每)?\s*((h|hrs?|hours?)\b|小时)", after):
        return "hour"
    if re.match(r"\s*(/|per |a |每|一个)?\s*((mo|months?)\b|月)", after) or re.search(r"monthly|每月|一个月|/月", low):
        return "month"
    if re.search(r"\b(total|in all|overall|whole job|entire)\b|总共|一共|总预算|总计|整个", low):
        return "job"
    if re.search(r"每小时|每个小时|per hour|an hour|hourly|/\s?hr?\b", low):  # "每小时预算 50 美元"
        return "hour"
    return "month"


def _has_facts(f: Facts) -> bool:
    return any(
        v is not None
        for v in (
            f.model, f.params, f.mode, f.precision, f.budget, f.region, f.billing, f.currency, f.gpu, f.instance, f.tokens,
            f.gpus, f.seq_len, f.batch_size, f.epochs, f.hours, f.deadline_hours,
        )
    ) or bool(f.providers)


def read_conversation(turns: list[str], scanner: NameScanner, defaults: Facts | None = None) -> Facts:
    """Merge facts over all user turns; the last turn's intents win, else the last stated ones.

    `defaults` (the configured currency and region) sit below anything the user says.
    """
    merged = defaults.model_copy(deep=True) if defaults else Facts()
    last_intents: list[Intent] = []
    for text in turns:
        turn = read_turn(text, scanner)
        for name in Facts.model_fields:
            if name in ("intents", "language", "negative_input", "unknown_model", "model_suggestions", "training_unspecified", "explicit_concept", "unknown_gpu", "gpu_suggestions", "asks_providers"):
                continue
            value = getattr(turn, name)
            if value not in (None, []):
                setattr(merged, name, value)
        if turn.model or turn.params:
            # a new model replaces the old one entirely
            merged.model, merged.params = turn.model, turn.params
        real = [i for i in turn.intents if i not in (Intent.offtopic, Intent.concept)]
        if real:
            last_intents = real
        elif last_intents and _has_facts(turn) and not turn.explicit_concept:
            pass  # a follow-up that only changes facts ("what about QLoRA?") repeats the last question
        else:
            last_intents = turn.intents
        merged.language = turn.language
        merged.negative_input = turn.negative_input
        merged.unknown_model = turn.unknown_model
        merged.model_suggestions = turn.model_suggestions
        merged.unknown_gpu, merged.gpu_suggestions = turn.unknown_gpu, turn.gpu_suggestions
        merged.asks_providers = turn.asks_providers
        if turn.mode is not None:
            merged.training_unspecified = False
        elif turn.training_unspecified:
            merged.training_unspecified = True
    merged.intents = last_intents
    return merged
