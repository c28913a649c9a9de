"""An independent referee for recorded zipai hands.

It is written from the seed texts (``shared/seeds``), the rules digest and
docs/regional-sources.md, and imports nothing of zipai_rules's rule modules: it reads a hand's
deal and event stream (the record JSON), the variant's normalised data as a plain mapping, and
judges every event with its own small state tracker (:mod:`.tracker`), its own exhaustive
decomposer (:mod:`.decomposer`) and its own settlement arithmetic (:mod:`.settlement`).
docs/testing.md describes the checks and what the referee does not model.
"""
