"""The Lighthouse command fails on a score below its threshold (or one Lighthouse could not
give), and on nothing else; SEO is reported, never held to a threshold."""

from tools.lighthouse import THRESHOLDS, _failures


def test_scores_at_the_thresholds_pass_and_seo_is_only_reported():
    assert _failures({**THRESHOLDS, "seo": 0.1}) == []


def test_a_score_below_its_threshold_or_missing_fails():
    scores = {"performance": 0.89, "accessibility": None, "best-practices": 1.0, "seo": 1.0}
    assert _failures(scores) == ["performance 0.89 < 0.9", "accessibility None < 0.98"]
