"""A PettingZoo ParallelEnv on claim windows: :func:`parallel_env` (extra ``[rl]``, as
:mod:`zipai_rules.rl`).

The hand is a game of claim windows (``Game(variant, ..., windows=True)``,
:mod:`zipai_rules.engine.window`, docs/observations.md "Whose turn it is"): every exposed card
opens a window that every seat but its discarder (every seat for a card shown from the wall)
answers at once, from its own options, whether or not anybody may claim it. One ``step`` is
one decision of the table: the answers of every seat of a window, or the one seat's discard or
胡 check outside windows. The agents that act are those whose ``action_mask`` has a 1; the
others' entries in ``actions`` are ignored (they may be left out). The answers are resolved by
the variant's priority exactly as the one-seat-at-a-time engine resolves the same answers, so
a seat's answer to a window tells it nothing of the others'. Observations, masks and the
observation layout are those of the AEC environment (:class:`~zipai_rules.rl.ZipaiEnv`),
taken on the windowed game; the rewards, on the step that ends the hand, the settlement's
payments. A hand over at the deal (a 天胡) shows all-zero masks after ``reset``; the first
``step`` (any actions) ends it and pays it.
"""

from __future__ import annotations

from typing import Any

# isort: off
from .rl import ZipaiEnv, hand_rewards, raw_env  # first: it names the [rl] install
from gymnasium import spaces
from pettingzoo import ParallelEnv
# isort: on

from .engine.game import Game
from .errors import IllegalActionError, ZipaiError
from .variant import Variant, VariantLike

__all__ = ["ZipaiParallelEnv", "parallel_env"]


class ZipaiParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo's base is untyped
    """The ParallelEnv of :func:`parallel_env`. ``game`` is the hand's
    :class:`~zipai_rules.engine.game.Game` (``windows=True``; every card open: for logging,
    not a policy)."""

    metadata = {"render_modes": ["ansi"], "name": "zipai_parallel_v0"}

    def __init__(self, variant: VariantLike = "hunan", seat_views: bool = True,
                 render_mode: str | None = None) -> None:
        # the AEC environment keeps the series of seeds and encodes the views
        self._aec: ZipaiEnv = raw_env(variant, seat_views, render_mode)
        self.variant: Variant = self._aec.variant
        self.render_mode = render_mode
        self.possible_agents = list(self._aec.possible_agents)
        self.agents: list[str] = []
        self.game: Game | None = None
        self.payments: tuple[int, ...] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """As :meth:`zipai_rules.rl.ZipaiEnv.observation_space`."""
        return self._aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """As :meth:`zipai_rules.rl.ZipaiEnv.action_space`."""
        return self._aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal a hand, seeded as :meth:`zipai_rules.rl.ZipaiEnv.reset` (``reset(seed=S)``
        the hand of ``zipai play --seed S``, later ``reset()`` the series' next hands);
        return ``(observations, infos)`` of every agent. ``options={"deal": deal}`` plays that
        :class:`~zipai_rules.engine.Deal` instead, as the AEC environment does (it was
        ignored). Raises :class:`~zipai_rules.errors.HandError` (``bad_seed``) for a bad
        seed, :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for bad options."""
        self._aec.reset(seed=seed, options=options)
        assert self._aec.game is not None
        deal = (options or {}).get("deal")
        self.game = (Game(self.variant, deal=deal, windows=True) if deal is not None else
                     Game(self.variant, seed=self._aec.game.seed, windows=True))
        self._aec.game = self.game  # its observe() and action() read the windowed game now
        self.payments = None
        self.agents = self.possible_agents[:]
        return self._observe(), {a: {} for a in self.agents}

    def _observe(self) -> dict[str, Any]:
        return {a: self._aec.observe(a) for a in self.possible_agents}

    def _acting(self) -> list[int]:
        """The seats the hand waits for, in turn order (a window's, or the one actor)."""
        assert self.game is not None
        return list(self.game.awaiting())

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                       dict[str, bool], dict[str, bool],
                                                       dict[str, dict[str, Any]]]:
        """Apply the codes of the agents that act (a mask with a 1); return
        ``(observations, rewards, terminations, truncations, infos)``, each keyed by the
        agents of the hand (``agents`` is empty once it is over). Every acting agent's code
        is checked before any is applied: a missing one raises
        :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``), one outside the action
        space or not legal :class:`~zipai_rules.errors.IllegalActionError` as the AEC
        environment's ``step`` does, naming the agent; nothing changes then. Entries of
        agents that do not act are ignored. ``bad_option`` before :meth:`reset` or after
        the hand is over."""
        if self.game is None or not self.agents:
            raise ZipaiError("reset() the environment: no hand is being played",
                             code="bad_option")
        if not isinstance(actions, dict):
            raise ZipaiError(f"actions: {type(actions).__name__} is not a dict of agent to "
                             "code", code="bad_argument")
        game = self.game
        plan = []
        for seat in self._acting():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ZipaiError(f"actions: {agent} acts now and has no action",
                                 code="bad_argument")
            try:
                action = self._aec.action(agent, actions[agent])
            except IllegalActionError as exc:
                raise IllegalActionError(f"{agent}: {exc}", code=exc.code) from exc
            problem = game.check(action, by=seat)
            if problem is not None:
                raise IllegalActionError(f"{agent}: {problem.message}", code=problem.code)
            plan.append((seat, action, game.decision(seat)))
        for seat, action, decision in plan:
            # an answer the window no longer needs (an earlier seat's 胡 decided it) lapses
            if game.is_over or game.decision(seat) != decision:
                continue
            game.apply(action, by=seat, decision=decision)
        rewards = {a: 0.0 for a in self.agents}
        terminations = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if game.is_over:
            result = game.result
            assert result is not None
            self.payments, shaped = hand_rewards(self.variant, game)
            for a in self.agents:
                rewards[a] = float(shaped[self.possible_agents.index(a)])
                terminations[a] = True
                infos[a] = {"result": str(result.kind), "winner": result.winner}
        observations = {a: self._aec.observe(a) for a in self.agents}
        truncations = {a: False for a in self.agents}
        if game.is_over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """As :meth:`zipai_rules.rl.ZipaiEnv.render`."""
        return self._aec.render()

    def close(self) -> None:
        self._aec.close()


def parallel_env(variant: VariantLike = "hunan", seat_views: bool = True,
                 render_mode: str | None = None) -> ZipaiParallelEnv:
    """The ParallelEnv of ``variant`` on claim windows (:class:`ZipaiParallelEnv`);
    ``variant``, ``seat_views`` and ``render_mode`` as :func:`zipai_rules.rl.env`."""
    return ZipaiParallelEnv(variant, seat_views, render_mode)
