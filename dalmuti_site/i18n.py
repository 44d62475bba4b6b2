"""Read gettext catalogues (.po) and compile them to .mo in pure Python.

Running the site or the tests needs no GNU gettext: the compiled .mo files are committed,
and this module recompiles them when a .po changes. Only extracting strings
(`manage.py makemessages`, used by `make messages`) needs GNU gettext.

    python -m dalmuti_site.i18n compile   # every locale/*/LC_MESSAGES/*.po -> .mo
    python -m dalmuti_site.i18n check     # list untranslated and fuzzy entries; exit 1 if any
"""

import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
MO_MAGIC = 0x950412DE


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

    @property
    def key(self) -> str:
        """The entry's key in a .mo file: context, EOT, msgid, NUL, plural msgid."""
        key = self.msgid
        if self.msgid_plural is not None:
            key += "\0" + self.msgid_plural
        if self.msgctxt is not None:
            key = self.msgctxt + "\x04" + key
        return key

    @property
    def value(self) -> str:
        return "\0".join(self.msgstr[i] for i in sorted(self.msgstr))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            '"': '"', "\\": "\\", "?": "?", "'": "'"}


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")

    def replace(match: re.Match) -> str:
        esc = match.group(1)
        if esc in _ESCAPES:
            return _ESCAPES[esc]
        if esc[0] == "x":
            return chr(int(esc[1:], 16))
        return chr(int(esc, 8))

    return re.sub(r'\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)', replace, text[1:-1])


def parse_po(path: Path) -> list[Entry]:
    """Every entry of a .po file, header included (the entry whose msgid is empty)."""
    entries: list[Entry] = []
    entry = Entry()
    started = False  # the current entry has a keyword line
    target: tuple[str, int | None] | None = None  # where continuation lines go

    def finish():
        nonlocal entry, started, target
        if started:
            entries.append(entry)
        entry, started, target = Entry(), False, None

    text = Path(path).read_text(encoding="utf-8")
    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{path}:{number}"
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if line.startswith("|"):
                continue  # a previous msgid of an obsolete entry
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if started:  # comments start a new entry
                finish()
            if line.startswith("#,"):
                entry.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: a string continues nothing")
            name, index = target
            value = _unquote(line, where)
            if name == "msgstr":
                entry.msgstr[index] += value
            else:
                setattr(entry, name, getattr(entry, name) + value)
            continue
        if keyword in ("msgctxt", "msgid") and entry.msgstr:
            finish()  # entries not separated by a blank line
        if not started:
            entry.line = number
            entry.obsolete = obsolete
            started = True
        match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            setattr(entry, keyword, _unquote(rest, where))
            target = (keyword, None)
        elif keyword == "msgstr" or match:
            index = int(match.group(1)) if match else 0
            entry.msgstr[index] = _unquote(rest, where)
            target = ("msgstr", index)
        else:
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
    finish()
    return entries


def catalogue(entries: list[Entry]) -> dict[str, str]:
    """What a .mo built from these entries holds: the header and every translated entry
    that is neither fuzzy nor obsolete (as GNU msgfmt does). Like msgfmt, it leaves out the
    header's POT-Creation-Date, so that extracting again does not change the .mo file."""
    messages = {
        e.key: e.value
        for e in entries
        if not e.obsolete and e.translated and (e.msgid == "" or not e.fuzzy)
    }
    if "" in messages:
        messages[""] = re.sub(r"^POT-Creation-Date:.*\n", "", messages[""], flags=re.MULTILINE)
    return messages


def build_mo(messages: dict[str, str]) -> bytes:
    """The GNU .mo format: header, two string tables (keys sorted), then the strings."""
    keys = sorted(messages)
    ids = [k.encode("utf-8") for k in keys]
    strs = [messages[k].encode("utf-8") for k in keys]
    count = len(keys)
    ids_table = 7 * 4
    strs_table = ids_table + count * 8
    data_start = strs_table + count * 8
    offsets, data = [], b""
    for s in ids + strs:
        offsets.append((len(s), data_start + len(data)))
        data += s + b"\0"
    header = struct.pack("<7I", MO_MAGIC, 0, count, ids_table, strs_table, 0, data_start)
    tables = b"".join(struct.pack("<2I", length, offset) for length, offset in offsets)
    return header + tables + data


def read_mo(data: bytes) -> dict[str, str]:
    """The messages of a .mo file (either byte order), for checking it."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == MO_MAGIC else ">"
    if struct.unpack(order + "I", data[:4])[0] != MO_MAGIC:
        raise ValueError("not a .mo file")
    count, ids_table, strs_table = struct.unpack(order + "3I", data[8:20])

    def string(table: int, i: int) -> str:
        length, offset = struct.unpack(order + "2I", data[table + 8 * i: table + 8 * i + 8])
        return data[offset: offset + length].decode("utf-8")

    return {string(ids_table, i): string(strs_table, i) for i in range(count)}


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write the .mo beside every .po whose compiled form changed; return those written."""
    written = []
    for po in po_files(locale_dir):
        mo = po.with_suffix(".mo")
        data = build_mo(catalogue(parse_po(po)))
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            written.append(mo)
    return written


def problems(path: Path) -> list[str]:
    """The entries of a .po that are not ready: untranslated or fuzzy."""
    found = []
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
    print("usage: python -m dalmuti_site.i18n compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
