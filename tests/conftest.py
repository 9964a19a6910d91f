"""Shared test settings.

Under CI (the CI environment variable is set), hypothesis draws the same examples on every run, so a red
build always means a change, never a rare draw; on a developer's machine it keeps exploring new examples.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
