"""Draw a Hunan hand (seed 2, greedy bots): the table with every card open at the end, seat 1's
view in the middle of the hand, the winner's decomposition, and the settlement.

Writes table.svg, seat1.svg, win.svg and settlement.html into the folder named by the
ZIPAI_PICTURES environment variable (a new temporary folder when it is unset) and prints what
it wrote. Seat 1 wins with 24 胡息 on a card another seat drew. In Jupyter the same pictures
show by themselves: a Game, GameState, Observation or Analysis as its SVG, a Settlement as its
table.
"""

import os
import tempfile
from pathlib import Path

from zipai_rules import find_variant
from zipai_rules.bots import make_bots, play_out
from zipai_rules.engine import Game
from zipai_rules.settlement import settle
from zipai_rules.svg import render, render_analysis

hunan = find_variant("hunan")
game = play_out(Game(hunan, seed=2), make_bots(["greedy"], 2, hunan.players))
views = game.views(1)  # what seat 1 was sent: one view at each of its decisions
result = game.state.final_result

out = Path(os.environ.get("ZIPAI_PICTURES") or tempfile.mkdtemp(prefix="zipai-pictures-"))
out.mkdir(parents=True, exist_ok=True)
pictures = {
    "table.svg": render(game),                                   # every card open
    "seat1.svg": render(views[len(views) // 2], variant=hunan),  # seat 1's view, mid-hand
    "win.svg": render_analysis(result.decomposition, variant=hunan),
    "settlement.html": settle(game)._repr_html_(),
}
for name, text in pictures.items():
    (out / name).write_text(text, encoding="utf-8")
    print(f"{out / name}: {len(text)} characters")
print(f"seat {result.winner} wins with {result.huxi} 胡息 ({result.source})")
