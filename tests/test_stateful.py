"""The stateful test of zipai_rules.testing (``ZipaiMachine``) over every shipped preset.

Each preset runs ``machine_for(variant).TestCase`` with ``EXAMPLES`` runs of
``stateful_step_count`` rule steps each (the profile's value: 4 runs of 40 steps on ``ci``,
100 runs of 150 steps on ``dev``; tests/conftest.py). A rule step is a deal, one to eight
actions, an illegal action, an undo/redo or a clone.

The second half shows the machine's invariants are not vacuous: the machine driven by hand
over a deliberately broken engine (a declined 碰 not marked 臭, a declined 吃 or 碰 not marked
for both kinds under ``chou.scope: both``, no 胡 offered on exposed
cards, a broken undo, payments that do not sum to zero, a failing external check) must fail.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st

from zipai_rules import load_preset, preset_ids
from zipai_rules.engine import ActionKind, Game, transition
from zipai_rules.native import compiled_modules
from zipai_rules.testing import ZipaiMachine, machine_for

#: the faults below are put into the engine by replacing a function of its module; compiled
#: code calls its own functions directly and never sees the replacement
engine_patchable = pytest.mark.skipif(
    "zipai_rules.engine.transition" in compiled_modules(),
    reason="the compiled engine calls its functions directly: no fault can be patched in")

EXAMPLES = max(4, settings.default.max_examples // 20)
STEPS = settings.default.stateful_step_count


def bounded(machine: type[ZipaiMachine], steps: int = STEPS) -> type[ZipaiMachine]:
    machine.TestCase.settings = settings(settings.default, max_examples=EXAMPLES,
                                         stateful_step_count=steps)
    return machine


@pytest.mark.parametrize("preset", preset_ids())
def test_machine_over_every_preset(preset):
    seen = {"actions": 0, "finished": 0}

    def count(game: Game) -> None:
        if game.actions:
            seen["actions"] += 1
        if game.is_over:
            seen["finished"] += 1

    variant = load_preset(preset)
    # a kept draw is a decision (a discard) every turn: a hand takes about twice the actions
    machine = bounded(machine_for(variant, count), STEPS * 2 if variant.claims.kept else STEPS)
    machine.TestCase("runTest").runTest()
    # the bounded run is not vacuous: actions were played and some hand reached its end, so
    # the end-of-hand invariants (settlement, record replay) ran
    assert seen["actions"] >= EXAMPLES
    assert seen["finished"] >= 1


def test_machine_needs_a_variant():
    from zipai_rules.testing import StrategyArgumentError

    with pytest.raises(StrategyArgumentError, match="variant"):
        ZipaiMachine()


def test_fixed_seed_strategy(hunan):
    """``seed_strategy`` fixes the deal (it was ignored before: the deal rule drew its own)."""
    deals = set()

    class Fixed(ZipaiMachine):
        variant = hunan
        seed_strategy = st.just(7)

        def check_external(self, game):
            deals.add(game.deal)

    bounded(Fixed).TestCase("runTest").runTest()
    assert deals == {Game(hunan, seed=7).deal}


def test_subclass_check_external_failure_is_reported(hunan):
    class Server(ZipaiMachine):
        variant = hunan

        def check_external(self, game):
            assert len(game.actions) < 3, "the server disagrees"

    Server.TestCase.settings = settings(settings.default, max_examples=EXAMPLES,
                                        stateful_step_count=STEPS, phases=[Phase.generate])
    with pytest.raises(AssertionError, match="the server disagrees"):
        Server.TestCase("runTest").runTest()


# --- the invariants can fail -------------------------------------------------------------------

def drive(variant, seeds=range(60)) -> AssertionError | None:
    """Play seeded random hands through the machine's own rules; the first invariant failure,
    or ``None``."""
    machine = machine_for(variant)()
    for seed in seeds:
        rng = random.Random(seed)
        try:
            game = machine.start(seed)
            while not game.is_over:
                machine.act([rng.randrange(10_000)])
                if rng.random() < 0.2:
                    machine.undo_redo()
                    machine.clone_is_independent()
        except AssertionError as exc:
            return exc
    return None


def test_drive_passes_on_the_real_engine():
    assert drive(load_preset("hunan"), range(25)) is None
    assert drive(load_preset("guilin"), range(25)) is None


@engine_patchable
def test_declined_peng_not_marked_is_caught(monkeypatch):
    real = transition._decline

    def forgetful(b, s, options):  # drop the 臭 marks of a declined 碰
        real(b, s, tuple(o for o in options if o.kind != ActionKind.PENG))
    monkeypatch.setattr(transition, "_decline", forgetful)
    failure = drive(load_preset("hunan"))
    assert failure is not None and "declined 碰" in str(failure)


@engine_patchable
def test_chou_for_both_not_marked_is_caught(monkeypatch):
    """Under ``chou.scope: both`` (Hunan, 003 "可以吃、碰却选择不吃、不碰时 … 不得再吃或者碰")
    an engine that marks only the kind declined, never the other once the card is gone, fails
    the machine's own record of the passes."""
    monkeypatch.setattr(transition, "_card_gone", lambda b, p, taker=None: None)
    failure = drive(load_preset("hunan"))
    assert failure is not None and "go: not 臭 for" in str(failure)
    assert drive(load_preset("hengyang_shihu"), range(25)) is None  # separate: nothing to mark


@engine_patchable
def test_skipped_claim_tier_is_caught(monkeypatch):
    real = transition.tier_plans

    def no_hu(variant, seats, kinds, card, source, by, ctx=None):  # never offers 胡 on a card
        return real(variant, seats, tuple(k for k in kinds if k != "hu"), card, source, by, ctx)
    monkeypatch.setattr(transition, "tier_plans", no_hu)
    failure = drive(load_preset("guilin"))
    assert failure is not None and "has not answered" in str(failure)


def test_broken_undo_is_caught(monkeypatch):
    def undo(self):  # takes back the action but not its state
        self._events.pop()
        return self.actions.pop()
    monkeypatch.setattr(Game, "undo", undo)
    failure = drive(load_preset("hunan"))
    assert failure is not None and "undo did not restore" in str(failure)


def test_payments_not_summing_to_zero_are_caught(monkeypatch):
    import attrs

    from zipai_rules import settlement

    real = settlement.settle

    def generous(*args, **kwargs):
        s = real(*args, **kwargs)
        return attrs.evolve(s, payments=(s.payments[0] + 1,) + s.payments[1:])
    monkeypatch.setattr(settlement, "settle", generous)
    failure = drive(load_preset("hunan"))
    assert failure is not None and "do not sum to zero" in str(failure)
