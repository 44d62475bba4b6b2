"""The arena's arithmetic and its runs: a level against itself gains exactly nothing."""

import statistics

import pytest

from tools import arena
from tools.arena import Tally, mean_ci, play_matches, play_rounds, report, t975


@pytest.mark.parametrize(("df", "quantile"), [(1, 12.706), (2, 4.303), (10, 2.228),
                                              (30, 2.042), (40, 2.021), (60, 2.000),
                                              (120, 1.980), (100000, 1.960)])
def test_the_t_quantiles_are_student_s(df, quantile):
    assert t975(df) == pytest.approx(quantile, abs=6e-4)


def test_the_interval_is_t_based_and_wider_for_few_deals():
    values = [1.0, 2.0, 4.0, 3.0]
    mean, half = mean_ci(values)
    assert mean == 2.5
    assert half == pytest.approx(3.182 * statistics.stdev(values) / 2)


def test_a_level_against_itself_gains_nothing_in_rounds_or_matches():
    tally = play_rounds(("greedy", "greedy", None, None, 5, 3, 0, 4))
    assert tally.places == [3.0] * 4 and tally.points == [2.0] * 4
    assert tally.wins == [0.2] * 4
    matches = play_matches(("basic", "basic", None, None, 4, 3, 0, 2, 3))
    assert matches.places == [2.5] * 2


def test_the_same_seed_plays_the_same_deals_and_another_seed_others():
    a = play_rounds(("skilled", "greedy", None, None, 5, 11, 0, 6))
    b = play_rounds(("skilled", "greedy", None, None, 5, 11, 0, 6))
    c = play_rounds(("skilled", "greedy", None, None, 5, 12, 0, 6))
    assert a.places == b.places and a.places != c.places


def test_a_report_gives_gain_with_its_interval_win_share_points_and_times():
    tally = Tally(places=[2.0, 3.0, 2.5], points=[3.0, 2.0, 2.5], wins=[0.4, 0.2, 0.2])
    tally.times["cand"] = [0.001] * 19 + [0.005]
    tally.times["cand_choice"] = [0.001, 0.002]
    text = "\n".join(report("5 players", 5, tally))
    assert "gain +0.500 [" in text
    assert "points/round   2.500" in text and "win share      0.267" in text
    assert "p50 1.00 ms, p95 5.00 ms (20 moves)" in text


def test_the_command_compares_a_level_with_each_baseline(capsys):
    assert arena.main(["--a", "skilled", "--b", "basic", "greedy", "--players", "4",
                       "--deals", "2", "--matches", "0", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "skilled (candidate) vs basic (baseline), seed 5" in out
    assert "skilled (candidate) vs greedy (baseline), seed 5" in out
    assert out.count("gain") == 2
    with pytest.raises(SystemExit):
        arena.main(["--a", "nobody", "--deals", "1", "--matches", "0"])
