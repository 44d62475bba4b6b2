"""The geometry of the player page's pictures, drawn by SVG templates on the server (the
strict CSP allows no script and no inline style: the templates use presentation
attributes and the classes of static/css/players.css).

The coordinates are in the SVG's own units. The drawing is narrow (360 wide), so that on
a phone one unit is about one pixel and the labels stay readable; wider screens scale it
up to the page's measure.
"""

from dataclasses import dataclass, field

from django.utils.formats import number_format
from django.utils.translation import gettext as _

WIDTH = 360
# LEFT leaves room for the axis title ("manche", "Partie") ending where the numbers do.
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 12, 26


@dataclass
class Chart:
    width: int
    height: int
    path: str = ""
    band: str = ""
    points: list[dict] = field(default_factory=list)
    y_ticks: list[dict] = field(default_factory=list)
    x_ticks: list[dict] = field(default_factory=list)
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = 0


def _x(i: int, count: int, left: int, right: int) -> float:
    if count <= 1:
        return (left + right) / 2
    return left + (right - left) * i / (count - 1)


def _path(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(points))


def place_chart(rounds: list[dict]) -> Chart:
    """A game's rounds: the player's finishing place in each (1, the best, at the top)."""
    most = max((r["players"] for r in rounds), default=4)
    height = TOP + BOTTOM + 14 * most
    chart = Chart(WIDTH, height, bottom=height - BOTTOM)

    def y(place: int) -> float:
        return chart.top + (chart.bottom - chart.top) * (place - 1) / max(most - 1, 1)

    chart.y_ticks = [{"y": round(y(p), 1), "label": str(p)} for p in range(1, most + 1)]
    xy = []
    # At most about ten round numbers under the line, so that they never run together.
    every = -(-len(rounds) // 10)
    for i, r in enumerate(rounds):
        x = _x(i, len(rounds), chart.left + 8, chart.right - 8)
        xy.append((x, y(r["place"])))
        chart.points.append({"x": round(x, 1), "y": round(y(r["place"]), 1), "first":
                             r["place"] == 1})
        if i % every == 0 or i == len(rounds) - 1:
            chart.x_ticks.append({"x": round(x, 1), "label": str(r["round"])})
    chart.path = _path(xy)
    return chart


def _step(span: float) -> int:
    """A round tick step giving three to six ticks over `span`."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000


def rating_chart(changes) -> Chart:
    """A rating over its last games: the rating as a line, its uncertainty as a band."""
    height = 200
    chart = Chart(WIDTH, height, bottom=height - BOTTOM)
    if not changes:
        return chart
    first = changes[0]
    values = [(first.mu_before, first.sigma_before)] + [(c.mu, c.sigma) for c in changes]
    low = min(mu - sigma for mu, sigma in values)
    high = max(mu + sigma for mu, sigma in values)
    step = _step(high - low)
    low = (low // step) * step
    high = -((-high) // step) * step
    if high == low:
        high = low + step

    def y(value: float) -> float:
        return chart.bottom - (chart.bottom - chart.top) * (value - low) / (high - low)

    tick = low
    while tick <= high:
        chart.y_ticks.append({"y": round(y(tick), 1),
                              "label": number_format(int(tick), force_grouping=True)})
        tick += step
    xs = [_x(i, len(values), chart.left + 8, chart.right - 8) for i in range(len(values))]
    upper = [(x, y(mu + sigma)) for x, (mu, sigma) in zip(xs, values, strict=True)]
    lower = [(x, y(mu - sigma)) for x, (mu, sigma) in zip(xs, values, strict=True)]
    chart.band = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in upper + lower[::-1])
    line = [(x, y(mu)) for x, (mu, _sigma) in zip(xs, values, strict=True)]
    chart.path = _path(line)
    chart.points = [{"x": round(x, 1), "y": round(yy, 1)} for x, yy in line[1:]]
    # The games are numbered from the first one drawn; label a few so they do not crowd.
    every = max(1, len(values) // 6)
    chart.x_ticks = [{"x": round(xs[i], 1), "label": str(i)}
                     for i in range(0, len(values), every)]
    return chart


def accuracy_chart(summaries) -> Chart:
    """A player's review accuracy (0 to 100%) in each of their last reviewed games."""
    height = 180
    chart = Chart(WIDTH, height, bottom=height - BOTTOM)
    if not summaries:
        return chart

    def y(value: float) -> float:
        return chart.bottom - (chart.bottom - chart.top) * value / 100

    # As the page writes a share (French "25 %"), not as the code would.
    chart.y_ticks = [{"y": round(y(t), 1), "label": _("%(percent)s%%") % {"percent": t}}
                     for t in (0, 25, 50, 75, 100)]
    xs = [_x(i, len(summaries), chart.left + 8, chart.right - 8)
          for i in range(len(summaries))]
    line = [(x, y(s.accuracy)) for x, s in zip(xs, summaries, strict=True)]
    chart.path = _path(line)
    chart.points = [{"x": round(x, 1), "y": round(yy, 1)} for x, yy in line]
    every = max(1, len(summaries) // 6)
    chart.x_ticks = [{"x": round(xs[i], 1), "label": str(i + 1)}
                     for i in range(0, len(summaries), every)]
    return chart
