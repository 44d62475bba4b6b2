"""Every page's title ends with the site's name, so that a tab, a bookmark or the history
says where it is from ("Log in" alone could be any site): each template that names its
page does so, or leaves it to the page it extends."""

import re
from pathlib import Path

from django.conf import settings

TITLE = re.compile(r"\{% block title %\}(.*?)\{% endblock %\}", re.S)


def _templates():
    roots = [Path(settings.BASE_DIR) / "templates",
             *Path(settings.BASE_DIR).glob("*/templates")]
    for root in roots:
        yield from (p for p in root.rglob("*.html") if ".venv" not in p.parts)


def test_every_page_title_names_the_site():
    found, bare = 0, []
    for path in _templates():
        for title in TITLE.findall(path.read_text()):
            found += 1
            if 'The Great Dalmuti' not in title and "block.super" not in title:
                bare.append(f"{path.relative_to(settings.BASE_DIR)}: {title.strip()}")
    assert found > 40
    assert bare == []
