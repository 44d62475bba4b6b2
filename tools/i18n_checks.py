"""Two checks that every user-facing string is marked for translation, as functions that
return what they find (tests/test_i18n.py asserts that they find nothing):

    python -m tools.i18n_checks    # print the unmarked texts of templates and Python; exit 1 if any

Templates: the text of a template outside {% translate %} / {% blocktranslate %}, and the
attributes people read (title, alt, aria-label, ...), that has letters in it. Python: the
string literals that reach people unmarked (messages, the exceptions shown to users, form
and model labels, choices, admin titles).
"""

import ast
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parent.parent
# Not the product: the virtualenv, run-time files, tests, these tools, assets, catalogues.
NOT_PROJECT = {".venv", "var", "tests", "tools", "node_modules", "static", "locale"}


def project_dirs(root: Path = ROOT) -> list[Path]:
    return [
        p for p in sorted(root.iterdir())
        if p.is_dir() and not p.name.startswith(".") and p.name not in NOT_PROJECT
        and not p.name.endswith(".egg-info")
    ]


# 1. Templates.

# Attributes whose values people read (or hear, through a screen reader).
READABLE_ATTRIBUTES = {
    "title", "alt", "placeholder", "aria-label", "aria-description", "aria-roledescription",
    "aria-valuetext", "label", "hx-confirm", "hx-prompt", "data-confirm",
}
PLACEHOLDER = "\ue000"  # stands for a template tag or variable: not a letter


def has_words(text: str) -> bool:
    # A word glued to a tag or variable ("rank-{{ rank }}") builds a name, not a sentence.
    text = re.sub(rf"[\w-]*{PLACEHOLDER}[\w-]*", " ", text)
    return any(ch.isalpha() for ch in text)


def shown(text: str) -> str:
    return text.strip(" \t\n" + PLACEHOLDER).replace(PLACEHOLDER, "{…}")


class ReadableText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name, value in attrs.items():
            readable = name in READABLE_ATTRIBUTES or (
                name == "value" and tag == "input"
                and attrs.get("type") in ("submit", "button", "reset")
            )
            if readable and value and has_words(value):
                self.found.append(f'<{tag} {name}="{shown(value)}">')
        if tag in ("script", "style"):
            self.skipping += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and has_words(data):
            self.found.append(shown(data))


def untranslated_template_text(source: str, is_html: bool) -> list[str]:
    """The pieces of a template's own text that are neither inside {% blocktranslate %}
    nor tags or variables and that contain letters."""
    text, inside, comment = [], None, False
    for token in Lexer(source).tokenize():
        content = token.contents.split()
        command = content[0] if content and token.token_type == TokenType.BLOCK else ""
        if comment:
            comment = command != "endcomment"
        elif command == "comment":
            comment = True
        elif inside:
            if command == inside:
                inside = None
        elif command in ("blocktranslate", "blocktrans"):
            inside = "end" + command
        elif token.token_type == TokenType.TEXT:
            text.append(token.contents)
            continue
        text.append(PLACEHOLDER)
    joined = "".join(text)
    if not is_html:
        return [shown(line) for line in joined.splitlines() if has_words(line)]
    parser = ReadableText()
    parser.feed(joined)
    parser.close()
    return parser.found


def project_templates(root: Path = ROOT) -> list[Path]:
    dirs = [root / "templates"] + [d / "templates" for d in project_dirs(root)]
    return sorted(
        p for d in dirs if d.is_dir() for p in d.rglob("*") if p.suffix in (".html", ".txt")
    )


def unmarked_templates(root: Path = ROOT) -> list[str]:
    """Every unmarked text of the project's templates, as "path: 'text'"."""
    unmarked = []
    for path in project_templates(root):
        found = untranslated_template_text(path.read_text(encoding="utf-8"), path.suffix == ".html")
        unmarked += [f"{path.relative_to(root)}: {text!r}" for text in found]
    return unmarked


# 2. Python.

MESSAGE_FUNCTIONS = {"debug", "info", "success", "warning", "error"}
EXCEPTIONS_SHOWN_TO_USERS = {"Rejected", "ValidationError"}
READABLE_KEYWORDS = {
    "verbose_name", "verbose_name_plural", "label", "help_text", "empty_label", "description",
    "empty_value_display",
}
READABLE_CLASS_ATTRIBUTES = READABLE_KEYWORDS | {"short_description", "title", "site_header",
                                                 "site_title", "index_title"}


def is_literal(node) -> bool:
    """A bare string with words in it (or an f-string, or a literal formatted with % or
    .format()), as opposed to something passed through gettext first."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(re.search(r"[^\W\d_]{2,}", node.value))
    if isinstance(node, ast.JoinedStr):
        return any(is_literal(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return is_literal(node.left) or (isinstance(node.op, ast.Add) and is_literal(node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and is_literal(node.func.value)
    return False


def call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def unmarked_python_strings(source: str) -> list[tuple[int, str]]:
    found = []

    def flag(node, why):
        found.append((node.lineno, f"{why}: {ast.unparse(node)[:80]}"))

    def flag_choices(node, why):
        if isinstance(node, (ast.List, ast.Tuple)):
            for item in node.elts:
                if isinstance(item, ast.Tuple) and len(item.elts) == 2:
                    if is_literal(item.elts[1]):
                        flag(item.elts[1], why)
                    flag_choices(item.elts[1], why)  # grouped choices

    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = call_name(node)
            func = node.func
            if (
                name in MESSAGE_FUNCTIONS and isinstance(func, ast.Attribute)
                and getattr(func.value, "id", "") == "messages" and len(node.args) >= 2
            ) or (name == "add_message" and len(node.args) >= 3) or (
                name == "message_user" and len(node.args) >= 2  # ModelAdmin.message_user
            ):
                message = node.args[2 if name == "add_message" else 1]
                if is_literal(message):
                    flag(message, f"{name}()" if name == "message_user" else f"messages.{name}()")
            if name in EXCEPTIONS_SHOWN_TO_USERS:
                arguments = node.args[:1] + [k.value for k in node.keywords if k.arg == "message"]
                for arg in arguments:
                    values = arg.values if isinstance(arg, ast.Dict) else [arg]
                    for value in values:
                        if is_literal(value):
                            flag(value, f"{name}()")
            for keyword in node.keywords:
                if keyword.arg in READABLE_KEYWORDS and is_literal(keyword.value):
                    flag(keyword.value, f"{keyword.arg}=")
                if keyword.arg == "choices":
                    flag_choices(keyword.value, "choices=")
                if keyword.arg in ("labels", "help_texts", "error_messages") and isinstance(
                    keyword.value, ast.Dict
                ):
                    for value in keyword.value.values:
                        if is_literal(value):
                            flag(value, f"{keyword.arg}=")
        elif isinstance(node, ast.ClassDef):
            is_choices = any(
                getattr(b, "attr", getattr(b, "id", "")).endswith("Choices") for b in node.bases
            )
            for statement in node.body:
                if not isinstance(statement, ast.Assign):
                    continue
                targets = [getattr(t, "id", "") for t in statement.targets]
                value = statement.value
                if any(t in READABLE_CLASS_ATTRIBUTES for t in targets) and is_literal(value):
                    flag(value, f"{targets[0]} =")
                if any(t in ("labels", "help_texts", "error_messages") for t in targets):
                    if isinstance(value, ast.Dict):
                        for v in value.values:
                            if is_literal(v):
                                flag(v, f"{targets[0]} =")
                if any(t == "choices" for t in targets):
                    flag_choices(value, "choices =")
                if is_choices and isinstance(value, ast.Tuple) and len(value.elts) >= 2:
                    if is_literal(value.elts[-1]):
                        flag(value.elts[-1], f"{node.name} label")
    return found


def project_python_files(root: Path = ROOT) -> list[Path]:
    return sorted(
        p for d in project_dirs(root) for p in d.rglob("*.py") if "migrations" not in p.parts
    )


def unmarked_python(root: Path = ROOT) -> list[str]:
    """Every unmarked user-facing literal of the project's Python, as "path:line: why"."""
    unmarked = []
    for path in project_python_files(root):
        for line, why in unmarked_python_strings(path.read_text(encoding="utf-8")):
            unmarked.append(f"{path.relative_to(root)}:{line}: {why}")
    return unmarked


def main() -> int:
    found = unmarked_templates() + unmarked_python()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
