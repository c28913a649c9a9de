"""The naive reference decomposer, the test oracle: it lives in the package
(:mod:`zipai_rules.reference`, where ``zipai bench`` measures against it); the tests import it
from here as ``reference``."""

from zipai_rules.reference import (  # noqa: F401  (re-exported for the tests)
    ALL_TRIPLES,
    HUXI,
    QUAD_KINDS,
    WILD,
    all_decompositions,
    best_huxi,
    best_huxi_wild,
    clear_dp,
    dp_best_huxi,
    identities,
    triple_kind,
)
