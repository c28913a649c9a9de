"""Shared test setup: hypothesis profiles and common fixtures.

``ci`` (the default) is bounded and derandomised so every run checks the same examples;
``dev`` runs many more. Pick one with ``HYPOTHESIS_PROFILE=dev``. ``stateful_step_count`` is
the length of one run of a ``RuleBasedStateMachine`` (tests/test_stateful.py).
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, derandomize=True, deadline=None,
                          stateful_step_count=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=2000, deadline=None, stateful_step_count=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def hunan():
    from zipai_rules import find_variant

    return find_variant("hunan")
