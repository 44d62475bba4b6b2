"""Read the gettext catalogues (.po) and compile them to .mo, with Babel (no GNU gettext).

Running the site or the tests needs no gettext at all: the compiled .mo files are
committed, and this tool recompiles them when a .po changes. Only extracting strings
(`manage.py makemessages`, used by `make messages`) needs GNU gettext.

    python -m tools.i18n compile   # every locale/*/LC_MESSAGES/*.po -> .mo
    python -m tools.i18n check     # list untranslated and fuzzy entries; exit 1 if any

Babel writes a header of its own into the .mo (it adds POT-Creation-Date and
Generated-By, and spells the charset in lower case), so a .mo is rewritten only when what
gettext reads from it changes: a new extraction or another Babel version alone does not
touch the committed files.
"""

import gettext
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages import mofile, pofile

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
# Header fields that change with each extraction or Babel version, not with a translation.
VOLATILE_HEADERS = {"pot-creation-date", "generated-by"}


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())


def read_catalogue(path: Path) -> pofile.Catalog:
    with open(path, "rb") as f:
        return pofile.read_po(f, abort_invalid=True)


def _raw_header(path: Path) -> str:
    """The header's msgstr as the .po file writes it (Babel's catalogue rebuilds the
    header from the fields it knows, in its own order and spelling)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('msgid ""'))
    text: list[str] = []
    seen = False
    for line in lines[start + 1:]:
        line = line.strip()
        if line.startswith("msgstr "):
            seen, line = True, line[len("msgstr "):]
        elif not seen:
            continue
        if not line.startswith('"'):
            break
        text.append(pofile.unescape(line))
    return "".join(text)


def _entry(message: pofile.Message, obsolete: bool) -> Entry:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return Entry(
        msgid=ids[0], msgid_plural=ids[1] if len(ids) > 1 else None, msgctxt=message.context,
        msgstr={i: s or "" for i, s in enumerate(strings)}, flags=set(message.flags),
        obsolete=obsolete, line=message.lineno or 0,
    )


def parse_po(path: Path) -> list[Entry]:
    """Every entry of a .po file, header included (the entry whose msgid is empty)."""
    catalogue = read_catalogue(path)
    header = Entry(msgid="", msgstr={0: _raw_header(path)},
                   flags={"fuzzy"} if catalogue.fuzzy else set(), line=1)
    entries = [header]
    entries += [_entry(m, False) for m in catalogue if m.id]
    entries += [_entry(m, True) for m in catalogue.obsolete.values()]
    return entries


def compile_po(path: Path) -> bytes:
    """The .mo of a .po: its header and every translated entry that is neither fuzzy nor
    obsolete (as GNU msgfmt does)."""
    out = io.BytesIO()
    mofile.write_mo(out, read_catalogue(path), use_fuzzy=False)
    return out.getvalue()


def _hashable(value):
    return tuple(value) if isinstance(value, list | tuple) else value


def compiled(data: bytes) -> dict:
    """What gettext reads from a .mo: every translation (by context and msgid) and the
    header's fields, less the volatile ones."""
    translations = gettext.GNUTranslations(io.BytesIO(data))
    info = {k: v for k, v in translations.info().items() if k not in VOLATILE_HEADERS}
    # "charset=UTF-8" and Babel's "charset=utf-8" name one encoding.
    info["content-type"] = info.get("content-type", "").lower()
    messages = {
        (m.context, _hashable(m.id)): _hashable(m.string)
        for m in mofile.read_mo(io.BytesIO(data)) if m.id
    }
    return {"header": info, "messages": messages}


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write the .mo beside every .po whose compiled form changed; return those written."""
    written = []
    for po in po_files(locale_dir):
        mo = po.with_suffix(".mo")
        data = compile_po(po)
        if not mo.exists() or compiled(mo.read_bytes()) != compiled(data):
            mo.write_bytes(data)
            written.append(mo)
    return written


def defined_twice(path: Path) -> list[str]:
    """The messages (msgctxt and msgid) a .po defines more than once. Babel keeps one of
    them without a word, but GNU gettext refuses the whole file, so `make messages`
    (makemessages runs msgmerge) stops on it."""
    first: dict[tuple[str | None, str], int] = {}
    found = []
    context: str | None = None
    field, text, start = "", [], 0

    def close() -> None:
        nonlocal context
        if field == "msgctxt":
            context = "".join(text)
        elif field == "msgid":
            key = (context, "".join(text))
            if key[1] and key in first:
                found.append(f"{path}:{start}: defined twice (first at line {first[key]}): "
                             f"{key[1]!r}")
            first.setdefault(key, start)
            context = None

    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if line.startswith('"') and field:
            text.append(pofile.unescape(line))
            continue
        close()
        field, text = "", []
        name, _, rest = line.partition(" ")
        if name in ("msgctxt", "msgid") and rest.startswith('"'):
            field, text, start = name, [pofile.unescape(rest)], number
    close()
    return found


def problems(path: Path) -> list[str]:
    """The entries of a .po that are not ready: untranslated or fuzzy, or defined twice."""
    found = defined_twice(path)
    for e in parse_po(path):
        if e.obsolete or e.msgid == "":
            continue
        if e.fuzzy:
            found.append(f"{path}:{e.line}: fuzzy: {e.msgid!r}")
        elif not e.translated:
            found.append(f"{path}:{e.line}: untranslated: {e.msgid!r}")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "compile":
        for mo in compile_all():
            print(f"compiled {mo.relative_to(LOCALE_DIR.parent)}")
        return 0
    if command == "check":
        status = 0
        for po in po_files():
            found = problems(po)
            count = sum(1 for e in parse_po(po) if e.msgid and not e.obsolete)
            print(f"{po.relative_to(LOCALE_DIR.parent)}: {count} entries, "
                  f"{len(found)} untranslated or fuzzy")
            for line in found:
                print("  " + line)
            status = status or (1 if found else 0)
        return status
    print("usage: python -m tools.i18n compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
