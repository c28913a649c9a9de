"""A PettingZoo AEC environment for self-play: :func:`env` (extra ``[rl]``: ``pettingzoo``,
``gymnasium``, ``numpy``; without them, import raises ``ModuleNotFoundError`` naming the extra
and how to install it).

One episode is one hand of a variant. The agents are ``seat_0`` .. ``seat_{n-1}`` (seat 0
deals); the agent to act is the seat the rules wait for (``Game.actor``): a discard, a claim
answered in tier order, a 胡 check. Actions are the integer codes of
:mod:`zipai_rules.engine.encoding` (``Discrete(num_distinct_actions(variant))``, the prefix
of the code table the variant uses); each observation is
``{"observation": int8 array, "action_mask": int8 array}`` with the legal codes marked 1, the
mask all zeros for a seat that does not act. The array encodes the seat's view
(``Game.observe``, docs/observations.md), or the whole table with ``seat_views=False``; its
layout is :func:`observation_layout` (docs/rl.md). The rewards, given when the hand ends, are
the settlement's ``payments`` (in the variant's unit). ``reset(seed=S)`` deals the hand of
``zipai play --seed S``; a ``reset()`` without a seed deals the next hand of a series derived
from the last seed by SHA-256 (``hand_seed``, as a match), or from a secret 128-bit seed.
"""

from __future__ import annotations

from typing import Any

import attrs

from .arguments import mapping_arg, of_type, refuse
from .errors import install_hint

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env import AECIterable
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers.order_enforcing import (
        AECOrderEnforcingIterable,
        AECOrderEnforcingIterator,
    )
except ModuleNotFoundError as exc:  # tested in a subprocess without them
    if (exc.name or "").split(".")[0] not in ("numpy", "gymnasium", "pettingzoo"):
        raise
    raise ModuleNotFoundError(
        f"zipai_rules.rl needs {exc.name}, which zipai_rules does not install: "
        + install_hint("rl"), name=exc.name) from exc

from .cards import N_KINDS, format_cards
from .engine.actions import Action, EventKind
from .engine.encoding import legal_mask
from .engine.game import Deal, Game
from .engine.observation import Observation, SeenMeld
from .engine.seeds import check_seed, fresh_seed, hand_seed
from .errors import IllegalActionError, ZipaiError
from .rl_encoder import (
    _EVENTS,
    _KINDS,
    _PHASES,
    _SOURCES,
    HIGH,
    RECENT,
    TableEncoder,
    observation_layout,
    observation_size,
)
from .settlement import settle
from .variant import Variant, VariantLike, as_variant

__all__ = ["ZipaiEnv", "action_code", "env", "full_encoding", "observation_layout",
           "observation_size", "raw_env"]

#: the reward shapes: the settlement's payments (in the variant's unit), or 1 for the winner
#: and -1 for every other seat (0 for all in a 荒庄)
REWARDS = ("units", "win_lose")


def encode_memory(view: Observation, players: int, turn: int,
                  chou_hu: tuple[tuple[int, int], ...]) -> np.ndarray[Any, Any]:
    """The ``memory`` blocks of :func:`observation_layout` for a seat's ``view``: ``turn``
    (capped at :data:`HIGH`), the 亮张 (the dealer's shown card, where the variant shows
    one), ``chou_hu`` (the seat's 臭胡 marks, ``(card, table 胡息)``: their cards), and,
    from the events the seat was shown (``view.history``, so only what it saw), the cards
    each seat passed on, and the last :data:`RECENT` events (kind, seat, card one-hot)."""
    me = view.seat
    sizes = [n for name, n in observation_layout(players, True, True)
             if name in ("turn", "lianzhang", "chou hu") or name.endswith(" declined")
             or name.startswith("event ")]
    out = np.zeros(sum(sizes), dtype=np.int8)
    out[0] = min(turn, HIGH)
    declined = 1 + 2 * N_KINDS
    for e in view.history:
        if e.kind == EventKind.DEAL and e.card is not None:
            out[1 + e.card] = 1
        elif e.kind == EventKind.PASS and e.seat is not None and e.card is not None:
            at = declined + (e.seat - me) % players * N_KINDS + e.card
            out[at] = min(out[at] + 1, HIGH)
    for card, _ in chou_hu:
        out[1 + N_KINDS + card] = 1
    at = declined + players * N_KINDS
    width = len(_EVENTS) + players + N_KINDS
    for e in view.history[::-1][:RECENT]:
        out[at + _EVENTS.index(e.kind)] = 1
        if e.seat is not None:
            out[at + len(_EVENTS) + (e.seat - me) % players] = 1
        if e.card is not None:
            out[at + len(_EVENTS) + players + e.card] = 1
        at += width
    return out


def _put_cards(out: np.ndarray[Any, Any], at: int, cards: Any) -> None:
    for c in cards:
        out[at + c] += 1


def encode_observation(view: Observation, players: int,
                       hands: tuple[tuple[int, ...], ...] | None = None) -> np.ndarray[Any, Any]:
    """The array of a seat's view (:func:`observation_layout`); ``hands``, every seat's
    concealed hand by absolute seat, adds the others' hands (``seat_views=False``)."""
    out = np.zeros(observation_size(players, hands is None), dtype=np.int8)
    me = view.seat
    out[:N_KINDS] = view.hand
    at = N_KINDS
    for r in range(players):
        s = (me + r) % players
        for m in view.melds[s]:
            _put_cards(out, at, m.cards)
            out[at + N_KINDS] += m.hidden
            k = len(_KINDS) if m.kind is None else _KINDS.index(m.kind)
            out[at + N_KINDS + 1 + k] += 1
        at += N_KINDS + 1 + len(_KINDS) + 1
        _put_cards(out, at, view.discards[s])
        at += N_KINDS
        out[at] = view.hidden_cards[s]
        at += 1
    out[at] = view.wall
    at += 1
    if view.pending is not None:
        card, source, by = view.pending
        out[at + card] = 1
        out[at + N_KINDS + _SOURCES.index(source)] = 1
        out[at + N_KINDS + len(_SOURCES) + (by - me) % players] = 1
    at += N_KINDS + len(_SOURCES) + players
    out[at + _PHASES.index(view.phase)] = 1
    at += len(_PHASES)
    _put_cards(out, at, view.chou_chi)
    at += N_KINDS
    _put_cards(out, at, view.chou_peng)
    at += N_KINDS
    out[at + me] = 1
    at += players
    if hands is not None:
        for r in range(1, players):
            out[at:at + N_KINDS] = hands[(me + r) % players]
            at += N_KINDS
    return out


def full_encoding(game: Game, seat: int, seat_views: bool = True, memory: bool = False
                  ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The observation array and action mask of ``seat`` in ``game``, encoded from scratch
    from its view (``game.observe``: :func:`encode_observation`, :func:`encode_memory` and
    :func:`~zipai_rules.engine.encoding.legal_mask`), for the whole table where
    ``seat_views`` is false: what the environments' incremental encoding
    (:class:`~zipai_rules.rl_encoder.TableEncoder`) equals at every step, at several times
    its cost. Raises :class:`~zipai_rules.errors.SeatError` for a bad seat."""
    view = own = game.observe(seat)
    state = game.state
    hands = None
    if not seat_views:
        view = attrs.evolve(view, melds=tuple(tuple(SeenMeld(m.kind, m.cards)
                                                    for m in st.melds)
                                              for st in state.seats))
        hands = tuple(st.hand for st in state.seats)
        p = state.pending
        view = attrs.evolve(view, pending=None if p is None else (p.card, p.source, p.by))
    mask = np.array(legal_mask(view.options, game.variant), dtype=np.int8)
    array = encode_observation(view, game.variant.players, hands)
    if memory:
        array = np.concatenate([array, encode_memory(
            own, game.variant.players, state.turn, state.seats[seat].chou_hu_marks)])
    return array, mask


def action_code(action: Any, codes: int, variant_id: str = "the variant") -> int:
    """``action`` as a code of an action space ``0..codes-1`` (an ``int`` or a NumPy
    integer), else :class:`~zipai_rules.errors.IllegalActionError` (``unencodable_action``,
    naming the space of ``variant_id``; never an ``assert``, which ``python -O`` drops):
    ``bool``, ``float`` and ``str`` are no codes (1.5 is not code 1, ``True`` not code 1).
    The one check of a code for every environment here (AEC, vectorised, parallel)."""
    space = f"0..{codes - 1}, the action space of {variant_id}"
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise IllegalActionError(f"action {action!r:.40} is a {type(action).__name__}, "
                                 f"not an integer code in {space}",
                                 code="unencodable_action")
    code = int(action)
    if not 0 <= code < codes:
        shown = str(code) if code.bit_length() <= 128 else \
            f"of {code.bit_length()} bits"  # too long to print whole
        raise IllegalActionError(f"action code {shown} outside {space}",
                                 code="unencodable_action")
    return code


class Codes(spaces.Discrete):
    """``Discrete(n)`` whose ``n`` and ``start`` are Python ``int`` (Gymnasium keeps them as
    NumPy ``int64``, which ``json``, ``range`` checks by ``type`` and typed code refuse)."""

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self.n: int = int(n)  # type: ignore[assignment]
        self.start: int = 0  # type: ignore[assignment]


def hand_rewards(variant: Variant, game: Game, reward: str = "units"
                 ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The payments of the finished ``game`` (its settlement's, per seat) and each seat's
    reward under the ``reward`` shape (:data:`REWARDS`): its payment (``units``), or 1 for
    the winner and −1 for every other seat (``win_lose``, 0 for all after a 荒庄). The one
    reward of a hand for every environment here (AEC, vectorised, parallel)."""
    result = game.result
    assert result is not None
    payments = settle(variant, result, events=game.events).payments
    if reward == "units":
        return payments, payments
    return payments, tuple(0 if result.winner is None else 1 if s == result.winner else -1
                           for s in range(len(payments)))


class ZipaiEnv(AECEnv):  # type: ignore[misc]  # pettingzoo's base class is untyped
    """The AEC environment of :func:`env`, without PettingZoo's checking wrappers."""

    metadata = {"render_modes": ["ansi"], "name": "zipai_v0", "is_parallelizable": False}

    def __init__(self, variant: VariantLike = "hunan", seat_views: bool = True,
                 render_mode: str | None = None, *, memory: bool = False,
                 reward: str = "units") -> None:
        super().__init__()
        self.variant: Variant = as_variant(variant)
        self.memory = of_type(memory, bool, "memory", "a bool")
        if reward not in REWARDS:
            raise refuse("reward", reward, "one of " + ", ".join(REWARDS))
        self.reward = reward
        if render_mode not in (None, "ansi"):
            raise ZipaiError(f"render_mode {render_mode!r} is not None or 'ansi'",
                             code="bad_option")
        self.render_mode = render_mode
        self.seat_views = seat_views
        n = self.variant.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self._encoder = TableEncoder(self.variant, seat_views, memory)
        codes = self._codes = self._encoder.codes
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, HIGH, (self._encoder.size,), np.int8),
            "action_mask": spaces.Box(0, 1, (codes,), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: Codes(codes) for a in self.possible_agents}
        self._series: int | None = None  # the seed the later hands derive from
        self._hands = 0                    # hands dealt in the series
        self.game: Game | None = None
        self.payments: tuple[int, ...] | None = None

    def _agent(self, agent: object) -> str:
        """``agent`` if it names an agent of this environment, else
        :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) naming the agents."""
        if not isinstance(agent, str) or agent not in self.agent_name_mapping:
            raise refuse("agent", agent, "an agent of this environment: "
                         + ", ".join(self.possible_agents))
        return agent

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``; refused (``bad_argument``) for a name that is no
        agent of this environment."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``; refused as :meth:`observation_space`."""
        return self.action_spaces[self._agent(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a hand. ``reset(seed=S)`` deals the hand of ``zipai play --seed S`` and starts
        a series seeded ``S``; each later ``reset()`` deals the series' next hand n (2, 3, …),
        shuffled with ``hand_seed(S, n)`` as a :class:`~zipai_rules.match.Match` shuffles its
        hands. An environment never seeded starts a series on a secret 128-bit seed
        (:func:`~zipai_rules.engine.seeds.fresh_seed`, hands 1, 2, …), so no hand's seed tells
        another's. ``env.game.seed`` is the seed the hand was shuffled with (to replay it).
        ``options={"deal": deal}`` plays that :class:`~zipai_rules.engine.Deal` instead.
        A hand over at the deal (a forced 天胡, a special win) ends the episode here: every
        agent terminated with its payment (Hunan seed 2857). Raises
        :class:`~zipai_rules.errors.HandError` (``bad_seed``) for a seed that is not a
        non-negative ``int``, :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``)
        for ``options`` that are not a mapping (or ``None``) and a ``deal`` that is no
        ``Deal``; a refused reset changes nothing."""
        if options is not None:
            mapping_arg(options, "options", "a mapping such as {'deal': deal}, or None")
        deal = (options or {}).get("deal")
        if deal is not None and not isinstance(deal, Deal):
            raise refuse("options['deal']", deal, "a zipai_rules.engine.Deal")
        if seed is not None:
            shuffle = self._series = check_seed(seed)
            self._hands = 1
        else:
            if self._series is None:
                self._series, self._hands = fresh_seed(), 0
            self._hands += 1
            shuffle = hand_seed(self._series, self._hands)
        self.game = Game(self.variant, seed=None if deal else shuffle, deal=deal)
        self.payments = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._end_if_over()  # a hand over at the deal (天胡, a special win) ends here
        self._select()
        self._accumulate_rewards()

    def _end_if_over(self) -> None:
        """If the hand is over, pay each agent its settlement payment and terminate them all
        (after a step, and at the deal: a dealt 天胡 or special win ends the hand at once)."""
        assert self.game is not None
        if not self.game.is_over:
            return
        result = self.game.result
        assert result is not None
        self.payments, shaped = hand_rewards(self.variant, self.game, self.reward)
        for a in self.agents:
            self.rewards[a] = shaped[self.agent_name_mapping[a]]
            self.terminations[a] = True
            self.infos[a] = {"result": str(result.kind), "winner": result.winner}

    def _select(self) -> None:
        assert self.game is not None
        actor = self.game.actor
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation array and action mask (new arrays, the caller's to keep),
        kept up to date incrementally (:class:`~zipai_rules.rl_encoder.TableEncoder`: equal
        to :func:`full_encoding`). Raises :class:`~zipai_rules.errors.ZipaiError`:
        ``bad_argument`` for a name that is no agent of this environment (``"seat_9"``),
        ``bad_option`` before the first ``reset()``."""
        seat = self.agent_name_mapping.get(agent) if type(agent) is str else None
        if seat is None:
            seat = self.agent_name_mapping[self._agent(agent)]
        if self.game is None:
            raise ZipaiError("reset() the environment before observing it", code="bad_option")
        array, mask = self._encoder.observe(self.game, seat)
        return {"observation": np.frombuffer(array, np.int8),
                "action_mask": np.frombuffer(mask, np.int8)}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action code (``None`` for an agent whose hand is
        over). Raises :class:`~zipai_rules.errors.IllegalActionError` for a code the mask
        does not allow: code ``unencodable_action`` for one that is not an integer (``bool``,
        ``float`` and ``str`` are refused; ``int`` and NumPy integers are codes) or lies
        outside the action space ``0..num_distinct_actions(variant) - 1``, and the game's
        own refusal for a code of the space that is not legal now."""
        if self.game is None:
            raise ZipaiError("reset() the environment before stepping it", code="bad_option")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        if type(action) is not int or not 0 <= action < self._codes:
            action = action_code(action, self._codes, self.variant.id)
        self.game.apply(self._encoder.action(self.game, self.agent_name_mapping[agent], action))
        if self.game.is_over:  # before, every reward is 0: nothing to reset or accumulate
            self.rewards = dict.fromkeys(self.agents, 0)
            self._end_if_over()
            self._accumulate_rewards()
        self._select()

    def action(self, agent: str, code: Any) -> Action:
        """The game action that ``code`` stands for when ``agent`` plays it: the agent's
        legal action of that code, else the decoded code (which ``game.apply`` refuses with
        the game's own words). Raises :class:`~zipai_rules.errors.IllegalActionError`
        (``unencodable_action``) for a ``code`` that is no code of this action space
        (:func:`action_code`), :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``)
        for an ``agent`` that is none of this environment, ``bad_option`` before
        ``reset()``."""
        seat = self.agent_name_mapping[self._agent(agent)]
        if self.game is None:
            raise ZipaiError("reset() the environment before stepping it", code="bad_option")
        if type(code) is not int or not 0 <= code < self._codes:
            code = action_code(code, self._codes, self.variant.id)
        return self._encoder.action(self.game, seat, code)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table, every hand shown (for a human watching)."""
        if self.render_mode is None or self.game is None:
            return None
        state = self.game.state
        lines = [f"{self.variant.id}: wall {len(state.wall)}, phase {state.phase}, "
                 f"actor {state.actor}"]
        for s, st in enumerate(state.seats):
            hand = format_cards([c for c, k in enumerate(st.hand) for _ in range(k)])
            melds = " ".join(format_cards(m.cards).replace(" ", "") for m in st.melds)
            lines.append(f"seat {s}: {hand} | {melds}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


class OrderEnforced(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's ``OrderEnforcingWrapper`` (its checks of the call order, and
    ``agent_iter``'s), reading what a loop reads at every step (``last()``, ``agents``,
    ``agent_selection``) from the environment at once rather than through the wrapper's
    ``__getattr__``: each read raises the same ``AttributeError`` before ``reset()``;
    ``step`` and ``agent_iter``'s iterator likewise call the environment at once, with the
    wrapper's checks and errors."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]


    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:  # the common case, without the wrapper's hops
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[Any, Any, Any]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]  # untyped base
    """``agent_iter``'s iterable: :class:`_Iterator`."""

    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]  # untyped base
    """PettingZoo's order-enforcing iterator of ``agent_iter`` (the same stop, the same
    check that each agent was stepped), reading the environment at once."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection  # type: ignore[no-any-return]


def raw_env(variant: VariantLike = "hunan", seat_views: bool = True,
            render_mode: str | None = None, *, memory: bool = False,
            reward: str = "units") -> ZipaiEnv:
    """The environment without PettingZoo's wrappers (:class:`ZipaiEnv`)."""
    return ZipaiEnv(variant, seat_views, render_mode, memory=memory, reward=reward)


def env(variant: VariantLike = "hunan", seat_views: bool = True,
        render_mode: str | None = None, *, memory: bool = False,
        reward: str = "units") -> AECEnv:
    """The AEC environment of ``variant`` (a preset id, a variant file or a
    :class:`~zipai_rules.variant.Variant`), with PettingZoo's call order enforced. A code
    outside the action space raises :class:`~zipai_rules.errors.IllegalActionError` (the
    environment checks it itself, where PettingZoo's ``AssertOutOfBoundsWrapper`` would
    assert, which ``python -O`` skips). ``seat_views``:
    each agent observes its seat view (the default), or, when false, the whole table (every
    hand and face-down meld: for training with perfect information, or a critic).
    ``memory``: append what the seat remembers (:func:`observation_layout`). ``reward``:
    ``"units"`` (the settlement's payments, the default) or ``"win_lose"`` (1 for the
    winner, -1 for the others, 0 in a 荒庄); another value is refused (``bad_argument``)."""
    return OrderEnforced(raw_env(variant, seat_views, render_mode, memory=memory,
                                 reward=reward))
