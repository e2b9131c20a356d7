"""The contracts every part of the companion shares, at the bottom of the import graph: the
family of expected errors (:mod:`contract.errors`), what vision saw and the coin kinds
(:mod:`contract.observation`), and what lies on the table (:mod:`contract.table_state`).

Vision, calibration, the rules engines and the table above them import these; these import
nothing of theirs, so no import points upward.
"""
