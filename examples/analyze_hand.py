"""Analyse the digest's worked example E17 (Hunan): seven 方门子 with a 提 and a 将.

Table: 提(x3×4) 9, 碰(d8 d8 d8) 3, 吃(d1 d2 d3) 6; hand x10 x10 x4 x5 x6 d4 d5 d6 x7 x8; another
player draws and shows x9. Expected: a win with 18 胡息.
"""

from zipai_rules import analyze, find_variant

hunan = find_variant("hunan")
result = analyze(hunan, "x10 x10 x4 x5 x6 d4 d5 d6 x7 x8",
                 ["ti=x3 x3 x3 x3", "peng=d8 d8 d8", "chi=d1 d2 d3"], "x9", "draw")
print("win" if result.win else f"no win ({result.reason})", result.huxi)
for group in result.best.groups:
    print(f"  {group.meld}  {group.huxi}  {group.place}")
