"""``thousand rules``: list, show, diff and check templates, built-in or custom; write the docs.

Every subcommand takes a template as a name or a file (rules/custom.py says where names are
found). Problems go to standard error, one line each, with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from ..i18n import LANGUAGES, language
from ..i18n import tr as translated
from ..prose.command import said
from ..prose.reference import write
from ..prose.words import NOT_PLAYABLE, WORDINGS, heading, sentence, spec_word, value_words
from ..rules.custom import (
    ChosenTemplate,
    TemplateError,
    builtin,
    changes_text,
    check_file,
    custom_paths,
    find_template,
    load_file,
    overrides_from_json,
    resolve,
    template_json,
    template_text,
    templates_home,
)
from ..rules.model import Rules
from ..rules.params import PARAMS, Param, Value
from ..rules.templates import TEMPLATES

Say = Callable[[str], None]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``rules`` subcommand and its own subcommands."""
    rules = sub.add_parser("rules", help="list, show, compare and check rule templates")
    rsub = rules.add_subparsers(dest="rules_command", required=True)
    speaking = argparse.ArgumentParser(add_help=False)
    speaking.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="the language of the words (en)"
    )
    rsub.add_parser(
        "list", parents=[speaking], help="every built-in and custom template, with its summary"
    )
    show = rsub.add_parser(
        "show", parents=[speaking], help="every parameter of a template, and what it changes"
    )
    show.add_argument("template", help="a template's name or its JSON file")
    diff = rsub.add_parser(
        "diff", parents=[speaking], help="two templates compared, parameter by parameter"
    )
    diff.add_argument("a", help="a template's name or its JSON file")
    diff.add_argument("b", help="another template's name or JSON file")
    new = rsub.add_parser("new", help="save a custom template: a name, a base and changes")
    new.add_argument("name", help="the new template's name (lower-case letters, digits, -)")
    new.add_argument("--base", default="russian", help="the template it starts from (russian)")
    new.add_argument(
        "--rules", metavar="JSON", help='the parameters it changes, as a record\'s "rules" object'
    )
    new.add_argument("--summary", default="", help="one line about it, for rules list")
    new.add_argument(
        "--out", metavar="FILE", help="write it here (default: NAME.json in the templates folder)"
    )
    new.add_argument("--force", action="store_true", help="replace a file that is there")
    check = rsub.add_parser(
        "check", parents=[speaking], help="every problem of a custom template file"
    )
    check.add_argument("file", help="a custom template (JSON)")
    docs = rsub.add_parser("docs", help="write the rules reference (docs/rules) into a folder")
    docs.add_argument("folder", help="where to write it, e.g. docs/rules")


def run(args: argparse.Namespace, say: Say = print) -> int:
    """The command: 0 when done, 2 on a template that cannot be found or has problems; it
    speaks ``--lang`` (the docs it writes are English)."""
    with language(getattr(args, "lang", "en")):
        return _run(args, say)


def _run(args: argparse.Namespace, say: Say) -> int:
    command: str = args.rules_command
    try:
        if command == "list":
            return list_templates(say)
        if command == "show":
            return show(find_template(args.template), say)
        if command == "diff":
            return diff(find_template(args.a), find_template(args.b), say)
        if command == "new":
            return new_template(args, say)
        if command == "check":
            return check(Path(args.file), say)
        if command == "docs":
            return docs(Path(args.folder), say)
    except TemplateError as e:
        for problem in e.problems:
            print(f"rules {command}: {problem}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except OSError as e:
        print(f"rules {command}: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    return 2


def list_templates(say: Say) -> int:
    """The built-in templates, then the custom ones of the templates folder."""
    not_playable = f" ({translated(NOT_PLAYABLE)})"
    say(said("built-in"))
    for name in TEMPLATES:
        chosen = builtin(name)
        mark = not_playable if chosen.support_problems() else ""
        say(f"  {name:<16} {translated(chosen.summary)}{mark}")
    paths = custom_paths()
    say("")
    home = templates_home()
    say(said("custom in", folder=home) if paths else said("no custom", folder=home))
    for path in paths:
        found, _ = load_file(path)
        if found is None:
            say(f"  {path.stem:<16} {said('has problems', path=path)}")
            continue
        mark = not_playable if found.support_problems() else ""
        based = said("based on mark", base=found.base)
        say(f"  {found.name:<16} {translated(found.summary)}{mark} {based}")
    return 0


def _words(param: Param, value: Value, rules: Rules) -> str:
    text = sentence(param.name, value, rules)
    return text if param.is_supported(value) else f"{text} ({translated(NOT_PLAYABLE)})"


def about(chosen: ChosenTemplate, width: int = 96) -> list[str]:
    """What a player reads before the first deal: summary, description, changes in words."""
    paragraphs = [f"{chosen.name}: {translated(chosen.summary)}"]
    if chosen.description:
        paragraphs.append(translated(chosen.description))
    if chosen.custom and chosen.base_rules is not None:
        changed = [
            _words(param, chosen.rules.value(param.name), chosen.rules)
            for param in PARAMS
            if _differs(chosen.rules.value(param.name), chosen.base_rules.value(param.name))
        ]
        if changed:
            paragraphs.append(said("changed from", base=chosen.base, changes="; ".join(changed)))
    return [line for text in paragraphs for line in textwrap.wrap(text, width)]


def _differs(a: Value, b: Value) -> bool:
    return type(a) is not type(b) or a != b


def show(chosen: ChosenTemplate, say: Say) -> int:
    """Every parameter with its value and its words, ``*`` where it differs from the base."""
    for line in about(chosen):
        say(line)
    where = said("from path", path=chosen.path) if chosen.path is not None else ""
    kind = said("custom template" if chosen.custom else "built-in template")
    base = said("based on", base=chosen.base) if chosen.base else said("the baseline")
    say(said("about", kind=kind, base=base, where=where, variant=repr(chosen.variant)))
    blocked = chosen.support_problems()
    say(said("playable", answer=said("no" if blocked else "yes")))
    for problem in blocked:
        say(f"  {problem}")
    russian = builtin("russian").rules
    marks = said("differs from", base=chosen.base) if chosen.base else said("baseline of all")
    say("")
    say(said("every parameter", marks=marks))
    section = ""
    for param in PARAMS:
        if param.section != section:
            section = param.section
            say(heading(param))
        value = chosen.rules.value(param.name)
        notes = []
        changed = chosen.base_rules is not None and _differs(
            value, chosen.base_rules.value(param.name)
        )
        if changed and chosen.base_rules is not None:
            notes.append(f"{chosen.base}: {spec_word(chosen.base_rules.value(param.name))}")
        if chosen.base != "russian" and _differs(value, russian.value(param.name)):
            notes.append(f"russian: {spec_word(russian.value(param.name))}")
        tail = f"  [{'; '.join(notes)}]" if notes else ""
        mark = "*" if changed else " "
        words = _words(param, value, chosen.rules)
        say(f"  {mark} {param.name:<34} {spec_word(value):<16} {words}{tail}")
    return 0


def diff(a: ChosenTemplate, b: ChosenTemplate, say: Say) -> int:
    """Each parameter on which ``a`` and ``b`` differ, in a player's words."""
    found = []
    for param in PARAMS:
        va, vb = a.rules.value(param.name), b.rules.value(param.name)
        if _differs(va, vb):
            wa, wb = _value(param, va, a.rules), _value(param, vb, b.rules)
            found.append(
                said(
                    "diff long" if "," in wa + wb else "diff",
                    heading=heading(param),
                    label=translated(WORDINGS[param.name].label),
                    words=wa,
                    name=a.name,
                    other_words=wb,
                    other=b.name,
                    parameter=param.name,
                )
            )
    if not found:
        say(said("same rules", name=a.name, other=b.name))
        return 0
    key = "differ in one" if len(found) == 1 else "differ in"
    say(said(key, name=a.name, other=b.name, count=len(found)))
    for line in found:
        say(f"  {line}")
    return 0


def _value(param: Param, value: Value, rules: Rules) -> str:
    words = value_words(param.name, value, rules)
    return words if param.is_supported(value) else f"{words} ({translated(NOT_PLAYABLE)})"


def new_template(args: argparse.Namespace, say: Say) -> int:
    """Save a custom template, checked first: nothing is written when it has a problem."""
    problems: list[str] = []
    changes: dict[str, object] = {}
    if args.rules is not None:
        try:
            changes = overrides_from_json(args.rules)
        except ValueError as e:
            problems.append(str(e))
    path = Path(args.out) if args.out else templates_home() / f"{args.name}.json"
    template = template_json(args.name, args.base, changes, args.summary)
    chosen, found = resolve(template, path)
    problems += found
    if path.exists() and not args.force:
        problems.append(f"{path} is there already (--force replaces it)")
    if problems or chosen is None:
        for problem in problems:
            print(f"rules new: {problem}", file=sys.stderr)
        return 2
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(template_text(template), encoding="utf-8")
    count = changes_text(len(chosen.changes))
    say(f"wrote template {chosen.name!r} ({chosen.base} with {count}) to {path}")
    for problem in chosen.support_problems():
        say(f"  {NOT_PLAYABLE}: {problem}")
    return 0


def check(path: Path, say: Say) -> int:
    """Every problem of a template file on standard error (status 2), or a short OK."""
    chosen, problems = check_file(path)
    if problems:
        for problem in problems:
            print(f"{path}: {problem}", file=sys.stderr)
        return 2
    assert chosen is not None
    changed = ", ".join(chosen.changes) or said("no changes")
    say(said("check ok", path=path, name=repr(chosen.name), base=chosen.base, changes=changed))
    return 0


def docs(folder: Path, say: Say) -> int:
    """Write the generated rules reference into ``folder``."""
    written = write(folder)
    say(f"wrote {len(written)} pages to {folder}")
    return 0
