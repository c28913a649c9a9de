"""A bot written only against the action encoding and the per-seat observation, the way a
reinforcement-learning agent sees the game: an observation (its seat view: own hand, the table
as the rules show it, the events it was shown, its options), a mask over the
``num_distinct_actions()`` action codes, and one code to answer with. It picks uniformly
among the legal codes; the environment decodes the code and applies it. One seeded hand of
Hunan 跑胡子.
"""

import random

from zipai_rules import find_variant
from zipai_rules.engine import Game
from zipai_rules.engine.encoding import decode_action, legal_mask, num_distinct_actions
from zipai_rules.engine.observation import Observation


class RandomCodeBot:
    """Sees only its observation and the legal-action mask; answers with an action code."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.decisions = 0

    def act(self, observation: Observation, mask: list[bool]) -> int:
        self.decisions += 1
        return self.rng.choice([code for code, legal in enumerate(mask) if legal])


def play_hand(variant, seed: int) -> Game:
    """The environment: observation and mask out, a code in, decoded and applied."""
    game = Game(variant, seed=seed)
    bots = [RandomCodeBot(seed * 10 + s) for s in range(variant.players)]
    while not game.is_over:
        seat = game.actor
        observation = game.observe(seat)  # never another seat's cards or decisions
        code = bots[seat].act(observation, legal_mask(observation.options))
        game.apply(decode_action(code, seat))  # the code came from the mask: always legal
    return game


if __name__ == "__main__":
    hunan = find_variant("hunan")
    first = Game(hunan, seed=7).observe(0)
    print(f"{num_distinct_actions()} action codes; seat 0 holds {sum(first.hand)} cards, "
          f"sees {first.hidden_cards} concealed cards per seat and a wall of {first.wall}")
    game = play_hand(hunan, seed=7)
    r = game.result
    who = "nobody (荒庄)" if r.winner is None else f"seat {r.winner} with {r.huxi} 胡息"
    print(f"{len(game.actions)} decisions, {r.kind}: {who}")
    hidden = sum(1 for e in game.events_for(0) if e.seat != 0 and e.card is None
                 and e.kind.value == "wei")
    print(f"seat 0 was shown {len(game.events_for(0))} of {len(game.events)} events "
          f"({hidden} face-down 偎 of other seats without their card)")
