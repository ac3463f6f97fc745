"""Custom templates: a name, a base template and parameter changes, stored as a JSON file.

The file format, ``thousand-template/1`` (docs/custom-templates.md)::

    {"format": "thousand-template/1", "name": "friday", "base": "russian",
     "summary": "Our Friday table: a short match.", "rules": {"game.target": 500}}

A template is found by name among the built-in templates of rules.md part 3, then as a file
(an argument that ends in ``.json``, holds a ``/`` or names a file), then as ``NAME.json`` in
the templates folder (``$THOUSAND_HOME/templates``, by default ``~/.thousand/templates``). A
base is a built-in template or a custom one in the templates folder. A record names the built-in
a template starts from as its ``variant`` and the rest as its ``rules`` (record-format.md), so
any program can replay it.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from thousand.rules.descriptions import DESCRIPTIONS
from thousand.rules.model import Rules, RulesError
from thousand.rules.params import PARAM_BY_NAME, show
from thousand.rules.templates import TEMPLATES, rules_from_record, template_rules

FORMAT = "thousand-template/1"
HOME_ENV = "THOUSAND_HOME"
KEYS = ("format", "name", "base", "summary", "description", "rules")
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
"""A custom template's name: lower-case letters, digits and hyphens, at most 40 characters."""


class TemplateError(RulesError):
    """A template that cannot be found or read: every problem, one sentence each."""


@dataclass(frozen=True)
class ChosenTemplate:
    """A template found by name or file, built-in or custom, with its rules resolved.

    ``rules`` hold valid values; whether the engine plays them all is :meth:`support_problems`.
    ``variant`` is the built-in template that a record names for it (itself, for a built-in).
    """

    name: str
    base: str | None
    variant: str
    summary: str
    description: str
    rules: Rules
    base_rules: Rules | None
    changes: Mapping[str, object] = field(default_factory=dict)
    """The parameters the template sets on its base, as its file writes them."""
    path: Path | None = None

    @property
    def custom(self) -> bool:
        return self.path is not None

    def record_rules(self) -> dict[str, object]:
        """The record's ``rules`` object: the differences from :attr:`variant`."""
        return self.rules.overrides_from(template_rules(self.variant, supported_only=False))

    def support_problems(self) -> list[str]:
        """Why the engine cannot play these rules yet, one sentence each (empty: playable)."""
        try:
            rules_from_record(self.variant, self.record_rules())
        except RulesError as e:
            return e.problems
        return []


def changes_text(count: int) -> str:
    """``1 change``, ``3 changes``."""
    return f"{count} change{'' if count == 1 else 's'}"


def templates_home() -> Path:
    """The folder of custom templates: ``$THOUSAND_HOME/templates`` or ``~/.thousand/templates``."""
    home = os.environ.get(HOME_ENV)
    root = Path(home) if home else Path.home() / ".thousand"
    return root / "templates"


def custom_paths() -> list[Path]:
    """The ``*.json`` files of the templates folder, by name (none if there is no folder)."""
    folder = templates_home()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if p.is_file())


def builtin(name: str) -> ChosenTemplate:
    """A built-in template of rules.md part 3 (values checked, support not)."""
    template = TEMPLATES[name]
    base = None if template.base is None else template_rules(template.base, supported_only=False)
    return ChosenTemplate(
        name=name,
        base=template.base,
        variant=name,
        summary=template.summary,
        description=DESCRIPTIONS.get(name, ""),
        rules=template_rules(name, supported_only=False),
        base_rules=base,
        changes=template.overrides,
    )


def _looks_like_path(spec: str) -> bool:
    return spec.endswith(".json") or "/" in spec or os.sep in spec


def find_template(spec: str) -> ChosenTemplate:
    """The template that ``spec`` names: a built-in, a custom one by name, or a file's path.

    Raises :class:`TemplateError` with every problem of the template found, or saying where
    it was looked for.
    """
    if spec in TEMPLATES:
        return builtin(spec)
    path = Path(spec)
    if not _looks_like_path(spec) and not path.is_file():
        path = templates_home() / f"{spec}.json"
        if not path.is_file():
            raise TemplateError(
                f"unknown template {spec!r}: not a built-in template ({', '.join(TEMPLATES)}),"
                f" not in the templates folder {templates_home()}, and not a file"
            )
    chosen, problems = load_file(path)
    if chosen is None:
        raise TemplateError(f"{path}: {problem}" for problem in problems)
    return chosen


class _Object(dict[str, object]):
    """A JSON object that remembers the keys given twice in it (``json`` keeps the last)."""

    twice: tuple[str, ...] = ()


def _pairs(pairs: list[tuple[str, object]]) -> _Object:
    found = _Object(pairs)
    if len(found) < len(pairs):
        keys = [key for key, _ in pairs]
        found.twice = tuple(dict.fromkeys(k for k in keys if keys.count(k) > 1))
    return found


def _read_json(path: Path) -> tuple[object, list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, ["no such file"]
    except OSError as e:
        return None, [f"cannot be read ({e.strerror})"]
    except UnicodeDecodeError:
        return None, ["is not UTF-8 text"]
    try:
        return json.loads(text, object_pairs_hook=_pairs), []
    except json.JSONDecodeError as e:
        return None, [f"is not JSON ({e.msg} at line {e.lineno}, column {e.colno})"]
    except RecursionError:
        return None, ["is nested too deep to be a template"]
    except ValueError:  # a whole number of thousands of digits
        return None, ["holds a number too long to be a rule's value"]


def overrides_from_json(text: str, option: str = "--rules") -> dict[str, object]:
    """The record-style ``rules`` object given as JSON text (a command's ``--rules``);
    ValueError with one sentence naming ``option`` for anything else."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{option} is not JSON ({e.msg})") from None
    except RecursionError:
        raise ValueError(f"{option} is nested too deep to be rule parameters") from None
    except ValueError:  # a whole number of thousands of digits
        raise ValueError(f"{option} holds a number too long to be a rule's value") from None
    if not isinstance(data, dict):
        raise ValueError(f"{option} must be a JSON object of rule parameters")
    return data


def _twice(obj: dict[str, object], where: str) -> list[str]:
    keys = obj.twice if isinstance(obj, _Object) else ()
    return [f"{where}{key!r} is given twice" for key in keys]


def _text_field(data: dict[str, object], key: str, problems: list[str]) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        problems.append(f"{key!r} = {show(value)} is not a string")
        return ""
    return value


def _name_problems(name: object, path: Path) -> list[str]:
    if not isinstance(name, str):
        return [f"'name' = {show(name)} is not a string"]
    if NAME_PATTERN.fullmatch(name) is None:
        return [
            f"'name' = {show(name)} is not a template name (lower-case letters, digits and"
            " hyphens, at most 40, starting with a letter or digit)"
        ]
    if name in TEMPLATES:
        return [f"'name' = {show(name)} is a built-in template: choose another name"]
    if path.parent.resolve() == templates_home().resolve() and path.stem != name:
        return [
            f"'name' = {show(name)} differs from the file name {path.name!r} in the templates"
            f" folder (the file of {name!r} is {name}.json)"
        ]
    return []


def _base(base: object, seen: tuple[Path, ...]) -> tuple[ChosenTemplate | None, list[str]]:
    """The base template by name: a built-in, or a custom one in the templates folder."""
    if not isinstance(base, str):
        return None, [f"'base' = {show(base)} is not a template name"]
    if base in TEMPLATES:
        return builtin(base), []
    path = templates_home() / f"{base}.json"
    if NAME_PATTERN.fullmatch(base) is None or not path.is_file():
        names = [*TEMPLATES, *(p.stem for p in custom_paths())]
        close = difflib.get_close_matches(base, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return None, [
            f"'base' = {show(base)} is not a template{hint}: a built-in"
            f" ({', '.join(TEMPLATES)}) or a custom one in the templates folder"
            f" {templates_home()}"
        ]
    if path.resolve() in seen:
        return None, [f"'base' = {show(base)} goes round in a circle (a template's base is itself)"]
    chosen, problems = _load(path, seen, supported_only=False)
    if chosen is None:
        return None, [
            f"'base' = {show(base)} has problems of its own ({len(problems)}): check it with"
            f" thousand rules check {path}"
        ]
    return chosen, []


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, PARAM_BY_NAME, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown parameter {name!r} in rules{hint}"


def load_file(path: Path) -> tuple[ChosenTemplate | None, list[str]]:
    """A custom template's file read and resolved, and every problem found in it.

    The template is None when there is any problem: its shape, its name, its base, a value or a
    combination. Whether the engine plays it is :meth:`ChosenTemplate.support_problems`.
    """
    return _load(path, (), supported_only=False)


def check_file(path: Path) -> tuple[ChosenTemplate | None, list[str]]:
    """Every problem of a template file, the values the engine does not play yet included."""
    return _load(path, (), supported_only=True)


def _header_problems(data: dict[str, object], path: Path) -> list[str]:
    problems = _twice(data, "")
    problems += [
        f"unknown key {key!r} (keys: {', '.join(KEYS)})" for key in data if key not in KEYS
    ]
    problems += [f"{key!r} is missing" for key in ("format", "name", "base") if key not in data]
    if "format" in data and data["format"] != FORMAT:
        problems.append(f"'format' = {show(data['format'])} is not {FORMAT!r}")
    if "name" in data:
        problems += _name_problems(data["name"], path)
    return problems


def _value_problems(changes: Mapping[str, object]) -> list[str]:
    """The values that are wrong whatever the base (used when the base cannot be found)."""
    found: list[str] = []
    for key, raw in changes.items():
        param = PARAM_BY_NAME[key]
        value, problems = param.from_json(raw)
        found += problems or param.problems(value)
    return found


def _load(
    path: Path, seen: tuple[Path, ...], *, supported_only: bool
) -> tuple[ChosenTemplate | None, list[str]]:
    data, problems = _read_json(path)
    if problems:
        return None, problems
    return resolve(data, path, seen, supported_only=supported_only)


def resolve(
    data: object, path: Path, seen: tuple[Path, ...] = (), *, supported_only: bool = False
) -> tuple[ChosenTemplate | None, list[str]]:
    """A template file's JSON value (read from, or to be written to, ``path``) resolved, and
    every problem with it; ``seen`` are the files of the templates that have it as a base."""
    if not isinstance(data, dict):
        return None, [f"is {show(data)}, not a JSON object with {', '.join(KEYS)}"]
    problems = _header_problems(data, path)
    summary = _text_field(data, "summary", problems)
    description = _text_field(data, "description", problems)
    base, base_problems = (
        (None, []) if "base" not in data else _base(data["base"], (*seen, path.resolve()))
    )
    problems += base_problems
    changes = data.get("rules", {})
    if not isinstance(changes, dict):
        problems.append(f"'rules' = {show(changes)} is not an object of parameter names")
        changes = {}
    problems += _twice(changes, "rules: ")
    problems += [_unknown(key) for key in changes if key not in PARAM_BY_NAME]
    known = {k: v for k, v in changes.items() if k in PARAM_BY_NAME}
    if base is None:
        return None, problems + _value_problems(known)
    try:
        rules = rules_from_record(
            base.variant, {**base.record_rules(), **known}, supported_only=supported_only
        )
    except RulesError as e:
        return None, problems + e.problems
    name = data.get("name")
    if problems or not isinstance(name, str):
        return None, problems
    return (
        ChosenTemplate(
            name=name,
            base=base.name,
            variant=base.variant,
            summary=summary or f"{base.name} with {changes_text(len(known))}.",
            description=description,
            rules=rules,
            base_rules=base.rules,
            changes=MappingProxyType(known),
            path=path,
        ),
        [],
    )


def template_json(
    name: str, base: str, changes: Mapping[str, object], summary: str = ""
) -> dict[str, object]:
    """A template file's JSON value; ``changes`` in the order of rules.md part 2."""
    data: dict[str, object] = {"format": FORMAT, "name": name, "base": base}
    if summary:
        data["summary"] = summary
    order = {name: i for i, name in enumerate(PARAM_BY_NAME)}
    data["rules"] = dict(sorted(changes.items(), key=lambda kv: order.get(kv[0], len(order))))
    return data


def template_text(data: Mapping[str, object]) -> str:
    """A template file's text: JSON, two-space indented, one parameter a line, UTF-8 as is."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
