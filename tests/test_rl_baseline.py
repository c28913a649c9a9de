"""examples/rl_baseline.py: its features read off a hand worked by hand, its policy (uniform
when untrained, never an illegal code) and a tiny training run (the full run's numbers are in
docs/rl.md; tests/test_examples.py runs the script itself on 40 episodes)."""

import runpy
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "rl_baseline.py"
BASE = runpy.run_path(str(SCRIPT), run_name="rl_baseline")

# Hunan seed 7, seat 0 (docs/rl.md's worked example): x1 x3 x4 x5 x6 x7 x8 x8 x8 x9 x10 x10
# d1 d3 d6 d6 d6 d7 d9 d9 d10, as the observation's hand block
HAND = [1, 0, 1, 1, 1, 1, 1, 3, 1, 2, 1, 0, 1, 0, 0, 3, 1, 0, 2, 1, 0]


def test_features_of_a_hand_worked_by_hand():
    obs = np.zeros(267, dtype=np.int8)
    obs[:21] = HAND
    codes = np.array([10, 9, 16, 21, 61, 82, 83, 84])
    phi = BASE["features"](obs, codes)
    kinds = [int(np.flatnonzero(row[:6])[0]) for row in phi]
    assert kinds == [0, 0, 0, 1, 3, 3, 4, 5]  # discard ×3, 碰, 胡, 胡 (no card), pass, 吃
    # d1: one held; no d0/d2; d3 held; x1 held; not 二七十; not alone
    assert phi[0, 6:14].tolist() == [1, 0, 0, 0, 1, 1, 0, 0]
    # x10: two held; x9 held; no x11; x8 held; d10 held; 十 is 二七十
    assert phi[1, 6:14].tolist() == [0, 1, 1, 0, 1, 1, 1, 0]
    # d7: one held; d6 held; no d8; d9 held; x7 held; 柒 is 二七十
    assert phi[2, 6:14].tolist() == [1, 0, 1, 0, 1, 1, 1, 0]
    assert phi[7, 14] == 1 and phi[:7, 14].sum() == 0
    assert not phi[3:, 6:14].any()  # the discard columns stay 0 for other kinds


def test_untrained_policy_is_uniform_and_legal():
    theta = np.zeros(BASE["N_FEATURES"])
    phi = BASE["features"](np.zeros(267, dtype=np.int8), np.array([0, 5, 83]))
    assert BASE["probabilities"](theta, phi).tolist() == pytest.approx([1 / 3] * 3)
    act = BASE["policy_of"](theta)
    mask = np.zeros(1980, dtype=np.int8)
    mask[[4, 83]] = 1
    assert {act(np.zeros(267, dtype=np.int8), mask) for _ in range(40)} == {4, 83}


def test_a_tiny_training_run_reports_its_curve():
    theta, curve = BASE["train"](30, every=10)
    assert [done for done, _, _ in curve] == [10, 20, 30]
    assert all(0 <= won <= 1 for _, won, _ in curve)
    assert theta.shape == (BASE["N_FEATURES"],) and np.isfinite(theta).all()


@pytest.mark.parametrize("argv", [["-3"], ["10", "0"], ["5", "abc"], ["1", "2", "3"], ["١٠"]])
def test_bad_arguments_print_the_usage_and_run_nothing(argv):
    """``-3`` ran the default 3000 episodes (a value not of digits was taken for a test
    runner's arguments), ``10 0`` and ``5 abc`` ended in a traceback; now the usage line,
    exit status 1, nothing trained."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ZIPAI_EXAMPLE_GAMES"}
    done = subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 1 and done.stderr.startswith("usage:") and not done.stdout
