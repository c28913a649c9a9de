"""The game's words as types (zipai_rules.vocab), the error-code registry, and the shape of the
turn engine: phases documented, forced moves in a loop, offered options carrying their plans."""

import ast
import re
import sys
from pathlib import Path

from zipai_rules.analysis import Analysis
from zipai_rules.bots import make_bots, play_out
from zipai_rules.engine import Game
from zipai_rules.engine.actions import ActionKind
from zipai_rules.engine.state import PaoTarget
from zipai_rules.errors import ERROR_CODES, codes_markdown
from zipai_rules.presets import load_preset
from zipai_rules.special import SPECIAL_WINS
from zipai_rules.vocab import REASON_MEANINGS, Label, Phase, Reason, Source

SRC = Path(__file__).parent.parent / "src" / "zipai_rules"
README = (Path(__file__).parent.parent / "README.md").read_text("utf-8")
CODE_LITERAL = re.compile(r'\bcode\s*=\s*"([a-z_]+)"|\bRefused\(\s*"([a-z_]+)"')


def _codes_in_source() -> set[str]:
    found = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text("utf-8")
        if path.name == "errors.py":
            text = text.split("ERROR_CODES", 1)[0]
        for m in CODE_LITERAL.finditer(text):
            found.add(m.group(1) or m.group(2))
    return found


def test_every_error_code_in_the_source_is_registered_and_used():
    used = _codes_in_source()
    assert "king_not_claimable" not in used and "replay_diverged" in used
    assert used == set(ERROR_CODES)


def test_readme_lists_the_registered_error_codes():
    block = README.split("<!-- error codes: generated from zipai_rules.errors.ERROR_CODES -->\n",
                         1)[1].split("\n<!-- end of error codes -->", 1)[0]
    assert block == codes_markdown()
    assert block.count("\n") + 1 == len(ERROR_CODES) == 100


def test_readme_lists_the_reason_codes():
    sentence = README.split("A non-winning hand is a result", 1)[1].split("A card count", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", sentence)) == {r.value for r in Reason}
    assert set(REASON_MEANINGS) == set(Reason) and len(Reason) == 9


def test_vocab_imports_nothing_of_the_package():
    tree = ast.parse((SRC / "vocab.py").read_text("utf-8"))
    imported = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(n, ast.Import) or n.level == 0 for n in imported)
    assert {a.name for n in imported for a in n.names} == {"annotations", "enum"}


def test_words_are_their_strings():
    assert Source.SELF == "self" and f"{Source.DISCARD}" == "discard"
    assert {"hu_check": 1}[Phase.HU_CHECK] == 1
    assert Reason.source_not_allowed(Source.DRAW) is Reason.DRAW_WIN_NOT_ALLOWED
    assert set(SPECIAL_WINS) <= {label.value for label in Label}


def test_every_phase_is_documented():
    for phase in Phase:
        assert f"``{phase.value}``" in Phase.__doc__


def _transition_depth(game: Game, bots) -> int:
    """The deepest nesting of engine-transition frames while ``bots`` play ``game`` out."""
    deepest = 0

    def profile(frame, event, arg):
        nonlocal deepest
        if event != "call":
            return
        depth, f = 0, frame
        while f is not None:
            depth += f.f_code.co_filename.endswith("transition.py")
            f = f.f_back
        deepest = max(deepest, depth)

    sys.setprofile(profile)
    try:
        play_out(game, bots)
    finally:
        sys.setprofile(None)
    return deepest


def test_forced_moves_run_in_a_loop_not_by_recursion():
    """However many draws, offers and forced moves one apply runs, the transition's frames nest
    no deeper than one decision plus one chore and its helper (step → _run → _decide → _take →
    _pao → a builder method): 6, where the former mutual recursion nested two frames per draw."""
    v = load_preset("hunan")
    depths = [_transition_depth(Game(v, seed=seed), make_bots(["random"] * 3, seed, 3))
              for seed in range(6)]
    assert max(depths) <= 6, depths


def test_offered_wins_and_pao_carry_their_plans():
    seen = {ActionKind.HU: 0, ActionKind.PAO: 0}
    for pid in ("hunan", "loudi_fangpaofa"):
        v = load_preset(pid)
        for seed in range(30):
            game = Game(v, seed=seed)
            bots = make_bots(["greedy", "random", "greedy"], seed, 3)
            while not game.is_over:
                state = game.state
                for o in state.options:
                    if o.kind == ActionKind.HU:
                        plan = state.plan(o)
                        assert isinstance(plan, Analysis) and plan.win, o
                        seen[o.kind] += 1
                    elif o.kind == ActionKind.PAO:
                        assert isinstance(state.plan(o), PaoTarget), o
                        seen[o.kind] += 1
                game.apply(bots[state.actor](state, state.options))
    assert seen[ActionKind.HU] > 0 and seen[ActionKind.PAO] > 0, seen
