"""The optional compiled build (mypyc, docs/benchmarks.md) and the pure build behave alike.

Which build runs is :func:`zipai_rules.compiled`; ``.ci/run`` sets ``ZIPAI_EXPECT_BUILD`` to
the build each environment was made for. The rest are the places where the compiled build
once differed, written so that the pure build checks them too:

* the search's memo marked a pool not yet searched with a tuple compared by identity; mypyc
  keeps a value typed as a tuple unboxed and boxes it afresh at each use, so the marker was
  never itself and every search returned the empty split: decompositions lost their searched
  groups, and on the 王 presets the old placing of each 王 in a group holding its card raised
  ``StopIteration``;
* ``==`` between two values of one attrs class, compiled as a whole program, became identity
  (attrs makes ``__eq__`` at run time, where the compiler does not look): an offered 胡 was
  not found among the state's plans. The build compiles without that whole-program view
  (``hatch_build.py``).
"""

from __future__ import annotations

import ast
import os
import random
from pathlib import Path

import pytest

import zipai_rules
from zipai_rules import analyze, load_preset
from zipai_rules.bench import random_meld_hand
from zipai_rules.cards import KING
from zipai_rules.engine.actions import Action, ActionKind
from zipai_rules.native import MODULES, build_name, compiled, compiled_modules

PACKAGE = Path(zipai_rules.__file__).parent


def test_the_build_is_the_one_asked_for():
    expected = os.environ.get("ZIPAI_EXPECT_BUILD")
    if expected is None:
        pytest.skip("ZIPAI_EXPECT_BUILD is not set (.ci/run sets it to pure or compiled)")
    assert expected in ("pure", "compiled")
    assert zipai_rules.compiled() is (expected == "compiled")
    assert compiled_modules() == (() if expected == "pure" else tuple(
        "zipai_rules." + m.removesuffix(".py").replace("/", ".") for m in MODULES))


def test_the_build_is_named():
    assert set(compiled_modules()) <= {
        "zipai_rules." + m.removesuffix(".py").replace("/", ".") for m in MODULES}
    name = build_name()
    assert name == "pure Python" or name.startswith(("compiled (mypyc, ", "partly compiled"))
    assert compiled() == name.startswith("compiled")


def test_every_compiled_module_is_a_source_file():
    assert len(MODULES) == len(set(MODULES)) >= 10
    for m in MODULES:
        assert (PACKAGE / m).is_file(), m


def _tuple_constants(tree: ast.Module) -> set[str]:
    """Module-level names bound to a tuple display, unless annotated ``Any``."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Tuple)
              and isinstance(node.target, ast.Name)
              and not (isinstance(node.annotation, ast.Name) and node.annotation.id == "Any")):
            names.add(node.target.id)
    return names


@pytest.mark.parametrize("module", MODULES)
def test_no_tuple_constant_is_compared_by_identity(module):
    """``x is CONSTANT`` where the constant is a tuple holds in the interpreter but never in
    compiled code (a markers typed ``Any`` stays one object)."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    constants = _tuple_constants(tree)
    bad = [(node.lineno, ast.unparse(node)) for node in ast.walk(tree)
           if isinstance(node, ast.Compare)
           and any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
           and any(isinstance(e, ast.Name) and e.id in constants
                   for e in [node.left, *node.comparators])]
    assert bad == []


def _winning_hands(variant_id: str, kings: int, n: int) -> list[list[int]]:
    """``n`` winning 21-card hands of random melds, ``kings`` cards of each turned to 王."""
    variant = load_preset(variant_id)
    rng = random.Random(28)
    out = []
    while len(out) < n:
        hand = random_meld_hand(variant, rng)
        for k in rng.sample(range(len(hand)), kings):
            hand[k] = KING
        if analyze(variant, hand).win:
            out.append(hand)
    return out


@pytest.mark.parametrize(("variant_id", "kings"), [("hunan", 0), ("chenzhou_wang", 1),
                                                   ("yongzhou", 2)])
def test_a_winning_decomposition_holds_every_card(variant_id, kings):
    """The best decomposition of a winning hand of melds places every card of the hand, the
    王 among them, in its groups (the searched ones too): card for card."""
    variant = load_preset(variant_id)
    for hand in _winning_hands(variant_id, kings, 8):
        best = analyze(variant, hand).best
        assert best is not None and best.leftover == ()
        placed = []
        for g in best.groups:
            cards = list(g.meld.cards)
            for stood in g.kings:  # the card a 王 stands for: the 王 itself in the hand
                cards.remove(stood)
            placed += cards + [KING] * len(g.kings)
        assert sorted(placed) == sorted(hand)


def test_an_offered_plan_is_found_by_an_equal_action():
    """A state's plan (an offered 胡 or 跑) is found by any action equal to the offered one,
    not only by the same object (``GameState.plan``: what the engine reads when it is
    taken)."""
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.engine.game import Game

    variant = load_preset("hunan")
    seen = []

    def check(game):
        state = game.state
        for offered, plan in state.plans:
            twin = Action(offered.kind, offered.seat, offered.card, offered.melds)
            assert twin == offered and twin is not offered
            assert state.plan(twin) is plan
            seen.append(offered.kind)
        if state.plans:
            assert state.plan(Action(ActionKind.DISCARD, 9, 0)) is None

    for seed in range(1, 6):
        play_out(Game(variant, seed=seed), make_bots(("greedy", "random", "greedy"), seed, 3),
                 before=check)
    assert ActionKind.HU in seen
