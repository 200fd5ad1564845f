"""The catalog as an in-memory value, with forgiving name lookup.

Loading files into a `Catalog` is `knowledge.catalog`'s job; the calculators
only receive one. Lookups normalise case, spaces, dashes and underscores
("llama 13b", "LLaMA-13B", "llama_13b" all match) and, on a miss, raise
`UnknownNameError` with the closest known names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from tools.domain import GPU, Instance, ModelKind, ModelSpec, Provider, SoftwareRule
from tools.errors import UnknownNameError


def normalise_name(name: str) -> str:
    """Key used for matching: lower case, no spaces, dashes, underscores or dots."""
    return re.sub(r"[\s\-_./]+", "", name.strip().lower())


@dataclass
class NameIndex:
    """Maps normalised names and aliases to canonical keys."""

    kind: str
    _by_norm: dict[str, str] = field(default_factory=dict)
    _display: dict[str, str] = field(default_factory=dict)

    def add(self, key: str, *aliases: str) -> None:
        for name in (key, *aliases):
            norm = normalise_name(name)
            if norm:
                self._by_norm.setdefault(norm, key)
                self._display.setdefault(norm, name)

    def get(self, name: str) -> str | None:
        return self._by_norm.get(normalise_name(name))

    def resolve(self, name: str) -> str:
        key = self.get(name)
        if key is None:
            raise UnknownNameError(self.kind, name, self.closest(name))
        return key

    def closest(self, name: str, limit: int = 3) -> list[str]:
        norm = normalise_name(name)
        if not norm or not self._by_norm:
            return []
        matches = process.extract(norm, list(self._by_norm), scorer=fuzz.WRatio, limit=limit * 4)
        keys: list[str] = []
        for match, score, _ in matches:
            key = self._by_norm[match]
            if score >= 50 and key not in keys:
                keys.append(key)
            if len(keys) == limit:
                break
        return keys


@dataclass
class Catalog:
    gpus: dict[str, GPU] = field(default_factory=dict)
    models: dict[str, ModelSpec] = field(default_factory=dict)
    providers: dict[str, Provider] = field(default_factory=dict)
    instances: list[Instance] = field(default_factory=list)
    # sourced software-support rules (knowledge/catalog/support/software.yaml); the recommender
    # applies them as fit conditions. Empty for inline catalogs: no rule, no filter.
    software_rules: list[SoftwareRule] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._gpu_names = NameIndex("GPU")
        for g in self.gpus.values():
            self._gpu_names.add(g.key, g.name, *g.aliases)
        self._model_names = NameIndex("model")
        for m in self.models.values():
            self._model_names.add(m.key, m.name, *m.aliases)
        self._provider_names = NameIndex("provider")
        for p in self.providers.values():
            self._provider_names.add(p.key, p.name, *([p.name_zh] if p.name_zh else []))
        self._instance_names = NameIndex("instance")
        for i in self.instances:
            self._instance_names.add(f"{i.provider}/{i.instance}")

    def gpu(self, name: str) -> GPU:
        return self.gpus[self._gpu_names.resolve(name)]

    def model(self, name: str) -> ModelSpec:
        return self.models[self._model_names.resolve(name)]

    def provider(self, name: str) -> Provider:
        return self.providers[self._provider_names.resolve(name)]

    def family_members(self, name: str) -> list[str]:
        """Catalog keys of a non-LLM family named without a version ("Stable Diffusion" -> sd-1.5, sdxl), smallest first.

        Decoder LLM families are left out on purpose: "Llama" or "Qwen" alone says nothing about the size, and the
        smallest member (1B) would be a worse default than asking.
        """
        wanted = re.sub(r"[-_\s]+", "", name.lower())
        members = [m for m in self.models.values()
                   if re.sub(r"[-_\s]+", "", m.family.lower()) == wanted and m.kind != ModelKind.decoder]
        return [m.key for m in sorted(members, key=lambda m: m.params)]

    def closest_models(self, name: str, limit: int = 3) -> list[str]:
        return self._model_names.closest(name, limit)

    def find_gpu(self, name: str) -> GPU | None:
        key = self._gpu_names.get(name)
        return self.gpus[key] if key else None

    def find_model(self, name: str) -> ModelSpec | None:
        key = self._model_names.get(name)
        return self.models[key] if key else None

    def instances_named(self, provider_slash_instance: str) -> list[Instance]:
        """All regions of `provider/instance`; unknown names raise with suggestions."""
        key = self._instance_names.resolve(provider_slash_instance)
        return [i for i in self.instances if f"{i.provider}/{i.instance}" == key]
