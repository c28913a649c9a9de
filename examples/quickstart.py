"""The README example: analyse a hand, play a hand by hand, and let the bots play one."""

from zipai_rules import analyze, find_variant, waits
from zipai_rules.bots import make_bots, play_out
from zipai_rules.engine import Game

hunan = find_variant("跑胡子")
hand = "x4 x5 x6 x2 x7 x10 x8 x9 x10 d9 d10"
table = ["wei=d7 d7 d7", "peng=d2 d2 d2", "chi=x1 x2 x3"]
result = analyze(hunan, hand, table, "d8", "draw")
print(result.win, result.huxi, result.best)
print(waits(hunan, hand, table, "draw"))
game = Game(hunan, seed=7)
while not game.is_over:
    game.apply(game.legal_actions()[0])
print(game.result.kind)
finished = play_out(Game(hunan, seed=8), make_bots(["greedy", "random", "greedy"], 8, 3))
print(finished.result.kind, finished.result.winner, finished.result.huxi)
