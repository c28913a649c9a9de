"""N hands stepped together: :class:`VectorEnv`, batched NumPy observations, masks and rewards
for the throughput training needs (extra ``[rl]``, as :mod:`zipai_rules.rl`).

Each of the ``num_envs`` slots plays hands of the AEC environment (:class:`~zipai_rules.rl.
ZipaiEnv`, whose observation, mask and rewards it returns unchanged), one after another: row
``i`` of every array is slot ``i``, and its observation and mask are those of the seat the slot
waits for (``info["seat"][i]``). ``step(actions)`` applies one code per slot; a slot whose
mask is all zeros (its hand is over, or it was over at the deal) ignores its code. A hand's end
is reported as Gymnasium's vector environments do by default (next-step autoreset): the step
that ends it returns each seat's reward and ``terminated[i] = True``, and the slot's next step
deals the slot's next hand and returns its first observation. A hand over at the deal (a 天胡)
shows an all-zero mask at once; the next step returns its rewards and ``terminated``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# isort: off
from .rl import ZipaiEnv, observation_size, raw_env  # first: it names the [rl] install
import numpy as np
# isort: on

from .arguments import int_arg, refuse
from .engine.encoding import num_distinct_actions
from .engine.seeds import check_seed, hand_seed
from .errors import IllegalActionError, ZipaiError
from .variant import VariantLike

__all__ = ["VectorEnv", "vector_env"]

# a slot's life: acting, ended (its last step returned terminated), over at the deal
_PLAYING, _ENDED, _DEALT_OVER = 0, 1, 2


class VectorEnv:
    """``num_envs`` hands of ``variant`` stepped together (:func:`vector_env`).

    Shapes, for ``N = num_envs``, ``P`` players, ``A = num_actions`` and ``S`` the
    observation size (:func:`~zipai_rules.rl.observation_size`): observations are
    ``{"observation": int8[N, S], "action_mask": int8[N, A]}``; ``info["seat"]`` is
    ``int64[N]``, the absolute seat whose observation row ``i`` is and who acts (``-1`` where
    the mask is all zeros); rewards ``float64[N, P]`` by absolute seat (the AEC env's
    rewards: the settlement's payments), zero but on the step that ends a hand;
    ``terminated`` and ``truncated`` ``bool[N]`` (hands always end: ``truncated`` stays
    false). ``info["winner"]`` is ``int64[N]``: the winner of a hand that ended this step,
    ``-1`` for none (荒庄) or no hand ending. ``envs`` are the slots' AEC environments
    (``envs[i].game`` is slot ``i``'s game, every card open: for logging, not a policy)."""

    def __init__(self, variant: VariantLike = "hunan", num_envs: int = 8,
                 seat_views: bool = True) -> None:
        self.num_envs = int_arg(num_envs, "num_envs", 1, 4096)
        self.envs: tuple[ZipaiEnv, ...] = tuple(raw_env(variant, seat_views)
                                                for _ in range(self.num_envs))
        first = self.envs[0]
        self.variant = first.variant
        self.players = self.variant.players
        self.possible_agents = list(first.possible_agents)
        self.single_observation_space = first.observation_space(self.possible_agents[0])
        self.single_action_space = first.action_space(self.possible_agents[0])
        self.num_actions = num_distinct_actions(self.variant)
        size = self.observation_size = observation_size(self.players, seat_views)
        n = self.num_envs
        self._obs = np.zeros((n, size), dtype=np.int8)
        self._mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self._seat = np.full(n, -1, dtype=np.int64)
        self._life = [_PLAYING] * n
        self._started = False

    def reset(self, seed: int | Sequence[int] | None = None
              ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, np.ndarray[Any, Any]]]:
        """Deal a hand in every slot; return ``(observations, info)``. ``seed``: an ``int``
        ``S`` seeds slot ``i``'s series with ``hand_seed(S, i + 1)`` (SHA-256, so no slot's
        hands tell another's); a sequence of ``num_envs`` ints seeds slot ``i`` with
        ``seed[i]`` (its first hand is that of ``zipai play --seed seed[i]``); ``None``
        deals each slot its series' next hand (a secret series if never seeded). Slot ``i``
        then plays the hands ``rl.env().reset(seed=that)`` and the later ``reset()`` deal.
        Raises :class:`~zipai_rules.errors.HandError` (``bad_seed``) for a bad seed and
        :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a sequence of the
        wrong length."""
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int) and not isinstance(seed, bool):
            base = check_seed(seed)
            seeds = [hand_seed(base, i + 1) for i in range(self.num_envs)]
        elif isinstance(seed, Sequence) and not isinstance(seed, str | bytes):
            if len(seed) != self.num_envs:
                raise refuse("seed", seed, f"an int or a sequence of {self.num_envs} seeds")
            seeds = [check_seed(s) for s in seed]
        else:
            seeds = [check_seed(seed)]  # raises bad_seed, naming the value
        for i, s in enumerate(seeds):
            self._deal(i, s)
        self._started = True
        return self._observations(), {"seat": self._seat.copy()}

    def _deal(self, i: int, seed: int | None) -> None:
        env = self.envs[i]
        env.reset(seed=seed)
        assert env.game is not None
        self._life[i] = _DEALT_OVER if env.game.is_over else _PLAYING
        self._show(i)

    def _show(self, i: int) -> None:
        """Row ``i``: the observation and mask of the seat slot ``i`` waits for."""
        env = self.envs[i]
        assert env.game is not None
        actor = env.game.actor
        if self._life[i] == _PLAYING and actor is not None:
            obs = env.observe(env.possible_agents[actor])
            self._obs[i] = obs["observation"]
            self._mask[i] = obs["action_mask"]
            self._seat[i] = actor
        else:  # the table as the last seat to act saw it, nothing to do
            last = int(self._seat[i]) if self._seat[i] >= 0 else 0
            self._obs[i] = env.observe(env.possible_agents[last])["observation"]
            self._mask[i] = 0
            self._seat[i] = -1

    def _observations(self) -> dict[str, np.ndarray[Any, Any]]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray[Any, Any]],
                                          np.ndarray[Any, Any], np.ndarray[Any, Any],
                                          np.ndarray[Any, Any], dict[str, np.ndarray[Any, Any]]]:
        """Apply ``actions`` (``N`` integer codes, a list or an integer array; a slot whose
        mask is all zeros ignores its entry); return ``(observations, rewards, terminated,
        truncated, info)`` as the class describes. Every code is checked before any slot
        moves: a code outside ``0..A-1`` raises :class:`~zipai_rules.errors.
        IllegalActionError` (``unencodable_action``), one its slot's mask does not allow
        raises it with the slot's refusal, both naming the slot, and nothing changes;
        ``bad_argument`` for ``actions`` that are not ``N`` integers, ``bad_option`` before
        :meth:`reset`."""
        if not self._started:
            raise ZipaiError("reset() the vector environment before stepping it",
                             code="bad_option")
        codes = self._codes(actions)
        for k in np.flatnonzero(self._seat >= 0):
            i, code = int(k), int(codes[k])
            if not 0 <= code < self.num_actions:
                raise IllegalActionError(
                    f"env {i}: action code {code} outside 0..{self.num_actions - 1}, the "
                    f"action space of {self.variant.id}", code="unencodable_action")
            if not self._mask[i, code]:
                try:  # the engine's own words for why not
                    self.envs[i].step(code)
                except IllegalActionError as exc:
                    raise IllegalActionError(f"env {i}: {exc}", code=exc.code) from exc
                raise RuntimeError(f"internal error: env {i} took code {code} its mask "
                                   "refused")
        n = self.num_envs
        rewards = np.zeros((n, self.players), dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        winner = np.full(n, -1, dtype=np.int64)
        for i in range(n):
            env = self.envs[i]
            life = self._life[i]
            if life == _ENDED:
                self._deal(i, None)
                continue
            if life == _PLAYING:
                env.step(int(codes[i]))
            assert env.game is not None
            if env.game.is_over:
                rewards[i] = self._rewards(env)
                terminated[i] = True
                result = env.game.result
                assert result is not None
                winner[i] = -1 if result.winner is None else result.winner
                self._life[i] = _ENDED
            self._show(i)
        return (self._observations(), rewards, terminated, np.zeros(n, dtype=bool),
                {"seat": self._seat.copy(), "winner": winner})

    @staticmethod
    def _rewards(env: ZipaiEnv) -> list[float]:
        """Each seat's reward for the hand just over: the AEC environment's (which ends a
        hand over at the deal at once, and pays it)."""
        assert all(env.terminations.values())
        return [float(env.rewards[a]) for a in env.possible_agents]

    def _codes(self, actions: Any) -> np.ndarray[Any, Any]:
        """``actions`` as ``N`` int64 codes, or refused (``bad_argument``)."""
        try:
            arr = np.asarray(actions)
        except (TypeError, ValueError):  # ragged lists
            arr = np.asarray(None)
        if arr.shape != (self.num_envs,) or not np.issubdtype(arr.dtype, np.integer):
            raise refuse("actions", actions, f"{self.num_envs} integer codes (one per env)")
        return arr.astype(np.int64, copy=False)

    def close(self) -> None:
        for env in self.envs:
            env.close()


def vector_env(variant: VariantLike = "hunan", num_envs: int = 8,
               seat_views: bool = True) -> VectorEnv:
    """``num_envs`` hands of ``variant`` (a preset id, a variant file or a
    :class:`~zipai_rules.variant.Variant`) stepped together (:class:`VectorEnv`);
    ``seat_views`` as :func:`zipai_rules.rl.env`. Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for ``num_envs`` not an int
    in 1..4096."""
    return VectorEnv(variant, num_envs, seat_views)
