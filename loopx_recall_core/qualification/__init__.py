# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Stage 0 offline qualification (RFC sections 9 and 10): corpus, arms, measures, verdict.

:func:`.harness.run_qualification` builds the seeded corpus (:mod:`.corpus`, commands
from :mod:`.templates`, written to disk by :mod:`.materialize` with the transcript
generator :mod:`.transcripts`), runs each case through the three arms (:mod:`.arms`:
current context only, the provider through Replan and the recall service, full native
history as a cost ceiling read by :mod:`.native`), probes faults (:mod:`.faults`, each
staged by the provider's qualification runtime), computes the measures
(:mod:`.measures`), judges the promotion gates (:mod:`.verdict`) and returns a public-safe
report (:mod:`.assemble`) that :mod:`.report` writes. :func:`.result.record_verdict`
stores the verdict, keyed on the runtime it was earned on, that the stage-2 gate reads.

Nothing is imported here on purpose: ``loopx`` starts without loading the harness (the
command line needs only the size and seed defaults below).
How to read a report: ``docs/qualification.md``.
"""

DEFAULT_CASES = 200
DEFAULT_SEED = 7
MIN_CASES = 10
MAX_CASES = 2000
