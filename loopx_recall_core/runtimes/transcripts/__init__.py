# SPDX-FileCopyrightText: 2026 loopx-recall-core contributors
# SPDX-License-Identifier: Apache-2.0
"""Each runtime's own transcript format, written (the Stage 0 corpus and the tests'
archives: :func:`loopx_recall_core.qualification.transcripts.generate_archive`)."""
