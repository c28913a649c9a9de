"""Opponents for :mod:`zipai_rules.rl`: policies that play from ``(observation, mask)`` alone,
the built-in bots as such policies, a Gymnasium single-agent environment against fixed
opponents, and a self-play helper (extra ``[rl]``).

A *policy* is any callable ``policy(observation, mask) -> int``: ``observation`` the int8
array of the AEC environment (:func:`~zipai_rules.rl.observation_layout`), ``mask`` its int8
action mask; it returns a code the mask allows. It never sees the game's state, so a policy
is as blind as the seat it plays (with ``seat_views=True``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import gymnasium  # noqa: E402  # after .rl, which explains a missing [rl] extra
import numpy as np  # noqa: E402

from .arguments import int_arg, refuse  # noqa: E402
from .bots import BOTS  # noqa: E402
from .engine.actions import Action  # noqa: E402
from .engine.encoding import decode_action, encode_action  # noqa: E402
from .engine.seeds import check_seed  # noqa: E402
from .errors import ZipaiError  # noqa: E402
from .rl import (  # first: it names the [rl] install
    ZipaiEnv,
    observation_layout,
    observation_size,
    raw_env,
)
from .variant import Variant, VariantLike, as_variant  # noqa: E402

__all__ = ["BotPolicy", "Episode", "Policy", "SingleAgentEnv", "bot_policy", "play_episode",
           "self_play"]

#: ``policy(observation, mask) -> code``
Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], int]


def _block(players: int, name: str, seat_views: bool = True) -> tuple[int, int]:
    """``(start, end)`` of the observation block ``name``."""
    at = 0
    for block, n in observation_layout(players, seat_views):
        if block == name:
            return at, at + n
        at += n
    raise AssertionError(name)  # pragma: no cover - every name asked for is in the layout


class BotPolicy:
    """A built-in bot (:data:`zipai_rules.bots.BOTS`: ``random``, ``greedy``) as a policy of
    ``variant``: it reads the seat (the ``own seat`` block), the concealed hand (``hand``)
    and the legal actions (the mask, decoded with
    :func:`~zipai_rules.engine.encoding.decode_action`) from the observation, and asks the
    bot's ``choose(variant, hand, options)``, the one the bot plays with the full state. So
    it plays as the bot seated at the table does. ``seed`` seeds the bot's generator.
    Raises :class:`~zipai_rules.errors.ZipaiError` (``unknown_bot``) for an unknown name and
    (``bad_argument``) when called with arrays of the wrong shape or an empty mask."""

    def __init__(self, name: str, variant: VariantLike = "hunan", seed: int | None = None,
                 seat_views: bool = True, memory: bool = False) -> None:
        if not isinstance(name, str) or name not in BOTS:
            raise ZipaiError(f"unknown bot name {name!r}; known: " + ", ".join(BOTS),
                             code="unknown_bot")
        self.name = name
        self.variant: Variant = as_variant(variant)
        self.bot = BOTS[name](None if seed is None else check_seed(seed))
        players = self.variant.players
        self._hand = _block(players, "hand", seat_views)
        self._seat = _block(players, "own seat", seat_views)
        self._size = observation_size(players, seat_views, memory)

    def options(self, observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]
                ) -> tuple[int, tuple[int, ...], list[Action]]:
        """The seat, its hand (21 counts) and its legal actions, read from the arrays."""
        if np.shape(observation) != (self._size,) or np.ndim(mask) != 1:
            raise refuse("observation", f"an array of shape {np.shape(observation)}",
                         f"an observation of {self._size} entries and a 1-d mask")
        codes = np.flatnonzero(mask)
        if not len(codes):
            raise refuse("mask", "all zeros", "a mask with a legal code (a seat that acts)")
        seat = int(np.argmax(observation[self._seat[0]:self._seat[1]]))
        hand = tuple(int(k) for k in observation[self._hand[0]:self._hand[1]])
        return seat, hand, [decode_action(int(c), seat) for c in codes]

    def __call__(self, observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        _, hand, options = self.options(observation, mask)
        return encode_action(self.bot.choose(self.variant, hand, options))

    def __repr__(self) -> str:
        return f"BotPolicy({self.name!r}, {self.variant.id!r})"


def bot_policy(name: str, variant: VariantLike = "hunan", seed: int | None = None,
               seat_views: bool = True, memory: bool = False) -> BotPolicy:
    """The built-in bot ``name`` as a policy of ``variant`` (:class:`BotPolicy`), reading
    arrays of the environment made with these ``seat_views`` and ``memory``."""
    return BotPolicy(name, variant, seed, seat_views, memory)


def _per_seat(policies: Any, keys: list[Any], argument: str) -> dict[Any, Policy]:
    """``policies`` by key: one policy for every key, a mapping by key, or a sequence in the
    order of ``keys``; refused (``bad_argument``) unless every key has a callable."""
    if callable(policies):
        return dict.fromkeys(keys, policies)
    if isinstance(policies, (str, bytes, bytearray)) or not isinstance(policies, Iterable):
        raise refuse(argument, policies, "a policy for each of " + ", ".join(map(str, keys)))
    table = dict(policies) if isinstance(policies, Mapping) else \
        dict(zip(keys, policies, strict=False))
    if sorted(table) != sorted(keys) or not all(callable(p) for p in table.values()):
        raise refuse(argument, policies, "a policy for each of " + ", ".join(map(str, keys)))
    return table


@attrs.frozen
class Episode:
    """One hand played by policies: ``rewards`` per agent (the settlement's payments),
    ``result`` (``hu``, ``tianhu``, ``huangzhuang``), ``winner`` (a seat or ``None``), the
    ``seed`` the hand was shuffled with, and, when recorded, ``steps``: per agent its
    decisions as ``(observation, mask, code)`` in order (for a policy-gradient update)."""

    rewards: dict[str, int]
    result: str
    winner: int | None
    seed: int | None
    steps: dict[str, list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int]]] = \
        attrs.field(factory=dict)


def play_episode(env: Any, policies: Mapping[str, Policy] | Sequence[Policy] | Policy,
                 seed: int | None = None, record: bool = False) -> Episode:
    """Reset the AEC ``env`` (``rl.env`` or ``rl.raw_env``; ``seed`` as its ``reset``) and
    play the hand out, each agent choosing with its policy: ``policies`` one per agent (a
    mapping by agent name, or a sequence by seat) or one policy for every seat (self-play).
    ``record``: keep every decision in :attr:`Episode.steps`. A hand over at the deal is an
    episode of no decisions. Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``)
    for policies that do not name every agent."""
    if not isinstance(getattr(env, "unwrapped", None), ZipaiEnv):
        raise refuse("env", env, "an AEC environment of rl.env or rl.raw_env")
    agents = list(env.possible_agents)
    chosen = _per_seat(policies, agents, "policies")
    env.reset(seed=seed)
    rewards = dict.fromkeys(agents, 0)
    steps: dict[str, list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int]]] = \
        {a: [] for a in agents} if record else {}
    info: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        code = int(chosen[agent](obs["observation"], obs["action_mask"]))
        if record:
            steps[agent].append((obs["observation"], obs["action_mask"], code))
        env.step(code)
    game = env.unwrapped.game
    return Episode(rewards, info.get("result", ""), info.get("winner"), game.seed, steps)


def self_play(variant: VariantLike, policy: Policy, hands: int, seed: int = 0,
              record: bool = True, seat_views: bool = True) -> Iterator[Episode]:
    """Self-play: ``hands`` hands of ``variant`` with ``policy`` in every seat, the first
    dealt with ``reset(seed=seed)``, the later ones the series' next hands (as a
    :class:`~zipai_rules.match.Match` seeded ``seed``); yields each :class:`Episode`, its
    decisions recorded unless ``record`` is false. The caller may update ``policy`` between
    hands (it is called, never copied). Raises :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for ``hands`` that is not an int in 0..10**9; ``bad_seed`` as
    ``reset``."""
    int_arg(hands, "hands", 0, 10 ** 9)
    check_seed(seed)
    env = raw_env(variant, seat_views)
    for n in range(hands):
        yield play_episode(env, policy, seed if n == 0 else None, record)


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray[Any, Any]], int]):
    """A Gymnasium environment: the learner plays seat ``seat`` of ``variant`` against fixed
    ``opponents`` (a policy for every other seat: a sequence in seat order without the
    learner's, a mapping by seat, or one policy for all; default the greedy bot).

    ``reset(seed=S)`` deals as the AEC environment's ``reset`` and lets the opponents play
    until the learner must decide. Observations, masks and the action space are the AEC
    environment's (``{"observation", "action_mask"}``; ``Discrete``); ``step(code)`` plays
    the learner's code, then the opponents, until the learner decides again or the hand ends
    (``terminated``, the reward the learner's payment, ``info`` the result and the winner;
    0 before). A hand in which the learner is never asked (over at the deal, or won before
    its first turn) cannot be an episode in Gymnasium's API: ``reset`` deals the next hand
    of the series, and its ``info["skipped"]`` lists the hands skipped as ``(seed, reward)``
    so that an evaluation can count their payments. Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a ``seat`` that is no
    seat or opponents that miss a seat; a code the mask does not allow as the AEC
    environment does; ``step`` before ``reset`` (``bad_option``) or after the hand ended
    (``hand_over``). ``memory`` and ``reward`` as :func:`zipai_rules.rl.env`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant: VariantLike = "hunan", opponents: Any = None, seat: int = 0,
                 seat_views: bool = True, render_mode: str | None = None, *,
                 memory: bool = False, reward: str = "units") -> None:
        self.aec: ZipaiEnv = raw_env(variant, seat_views, render_mode, memory=memory,
                                     reward=reward)
        n = self.aec.variant.players
        self.seat = int_arg(seat, "seat", 0, n - 1)
        others = [s for s in range(n) if s != seat]
        if opponents is None:
            opponents = [bot_policy("greedy", self.aec.variant, s, seat_views, memory)
                         for s in others]
        self.opponents: dict[int, Policy] = _per_seat(opponents, others, "opponents")
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def _advance(self) -> tuple[bool, int, dict[str, Any]]:
        """Let the opponents play until the learner must act or the hand is over; then
        whether it is over, the learner's reward and its info."""
        aec = self.aec
        while True:
            agent = aec.agent_selection
            if aec.terminations[agent] or not aec.agents:
                reward = aec.rewards[self.agent]
                return True, reward, dict(aec.infos[self.agent])
            if agent == self.agent:
                return False, 0, {}
            obs = aec.observe(agent)
            aec.step(self.opponents[aec.agent_name_mapping[agent]](
                obs["observation"], obs["action_mask"]))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        if seed is not None:
            check_seed(seed)  # the environment's own refusal, before Gymnasium's
        super().reset(seed=seed)
        skipped: list[tuple[int | None, int]] = []
        self.aec.reset(seed=seed, options=options)
        while True:
            over, reward, _ = self._advance()
            if not over:
                return self.aec.observe(self.agent), {"skipped": skipped}
            assert self.aec.game is not None
            skipped.append((self.aec.game.seed, reward))
            if options and options.get("deal") is not None:
                raise ZipaiError("the deal given ends the hand before seat "
                                 f"{self.seat} decides", code="bad_option")
            self.aec.reset()

    def step(self, action: int) -> tuple[dict[str, np.ndarray[Any, Any]], int, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        if aec.game is None:
            raise ZipaiError("reset() the environment before stepping it", code="bad_option")
        if not aec.agents or aec.terminations[self.agent]:
            raise ZipaiError("the hand is over: reset() deals the next", code="hand_over")
        aec.step(action)
        over, reward, info = self._advance()
        return self.aec.observe(self.agent), reward, over, False, info

    def render(self) -> str | None:
        return self.aec.render()
