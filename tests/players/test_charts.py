"""The pictures' geometry: the best place at the top, every point inside the drawing, the
rating's band around its line, and labels that do not crowd."""

import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

from players.charts import place_chart, rating_chart
from tests.helpers import make_user, play_out, start_table


def test_a_place_chart_puts_first_place_on_top_and_last_at_the_bottom():
    rounds = [{"round": n, "place": p, "players": 5} for n, p in ((1, 5), (2, 1), (3, 3))]
    chart = place_chart(rounds)
    ys = [p["y"] for p in chart.points]
    assert ys[1] == chart.top and ys[0] == chart.bottom
    assert chart.top < ys[2] < chart.bottom
    assert [p["first"] for p in chart.points] == [False, True, False]
    assert [t["label"] for t in chart.y_ticks] == ["1", "2", "3", "4", "5"]
    assert chart.path.startswith("M") and chart.path.count("L") == 2
    xs = [p["x"] for p in chart.points]
    assert xs == sorted(xs) and chart.left <= xs[0] and xs[-1] <= chart.right


def test_a_long_game_labels_about_ten_rounds():
    rounds = [{"round": n, "place": 1 + n % 4, "players": 4} for n in range(1, 31)]
    chart = place_chart(rounds)
    assert len(chart.points) == 30
    assert 10 <= len(chart.x_ticks) <= 12
    assert chart.x_ticks[-1]["label"] == "30"


def test_a_rating_chart_draws_the_band_around_the_line_within_the_ticks():
    changes = [SimpleNamespace(mu_before=1500, sigma_before=500, mu=1660, sigma=480),
               SimpleNamespace(mu_before=1660, sigma_before=480, mu=1600, sigma=450)]
    chart = rating_chart(changes)
    assert len(chart.points) == 2  # the start is drawn as the line's first point only
    band = [tuple(map(float, p.split(","))) for p in chart.band.split()]
    assert len(band) == 6
    tick_values = [int(t["label"].replace(",", "")) for t in chart.y_ticks]
    assert tick_values[0] <= 1500 - 500 and tick_values[-1] >= 1660 + 480
    ys = [y for _x, y in band]
    assert min(ys) >= chart.top - 0.1 and max(ys) <= chart.bottom + 0.1


def test_no_rating_draws_nothing():
    chart = rating_chart([])
    assert chart.path == "" and chart.points == [] and chart.band == ""


# Every attribute of the drawing that a browser reads as a number or a list of numbers.
NUMBERS = {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height"}
NUMBER_LISTS = {"viewBox", "points"}


def _numbers_of(svg_text: str) -> list[tuple[str, str]]:
    """(attribute, value) of every numeric attribute that does not parse as a number."""
    bad = []
    for element in ET.fromstring(svg_text).iter():
        for name, value in element.attrib.items():
            if name in NUMBERS:
                parts = [value]
            elif name in NUMBER_LISTS:
                parts = re.split(r"[\s,]+", value.strip())
            elif name == "d":
                parts = re.split(r"[\s,]+", re.sub(r"[MLHVZ]", " ", value).strip())
            else:
                continue
            for part in parts:
                try:
                    float(part)
                except ValueError:
                    bad.append((name, value))
                    break
    return bad


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["en", "nl", "de", "fr"])
def test_the_charts_numbers_are_never_written_the_way_a_language_writes_them(client, code):
    """Dutch, German and French write 12.5 as "12,5": in an SVG coordinate that is no
    number, and the browser draws the picture partly or not at all."""
    tess, bram = make_user("tess"), make_user("bram")
    for seed in (31, 32):
        play_out(start_table(tess, [bram], bots=2, seed=seed, options={"rounds": 3}))
    client.force_login(tess)
    client.cookies["django_language"] = code
    response = client.get("/players/tess/", HTTP_ACCEPT_LANGUAGE=code)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == code
    svgs = re.findall(r"<svg class=\"chart.*?</svg>", response.content.decode(), re.S)
    assert len(svgs) == 3  # two games' places, and the rating
    for svg in svgs:
        assert _numbers_of(svg) == []
    # Fractions are drawn: a coordinate with a decimal point, not only whole numbers.
    assert re.search(r' c[xy]="\d+\.\d"', "".join(svgs))
