"""The names of the hooks a variant may use where data cannot say a rule: the variant layer
checks a variant's names against these lists, and :mod:`zipai_rules.special` fills them
(one function per name), so loading a variant never imports the special-win code."""

from __future__ import annotations

#: the fixed-value shapes among them: judged on a complete hand's best decomposition, not at once
FIXED_VALUE_WINS: tuple[str, ...] = ("wu_hu",)
#: the special wins a variant may list under ``win.special`` (see :mod:`zipai_rules.special`)
SPECIAL_WINS: tuple[str, ...] = ("two_ti", "xiao_qi_dui") + FIXED_VALUE_WINS
