"""Hypothesis strategies for property tests of bounds, the project's and users' own.

Requires the ``dev`` extra (hypothesis). Submodules hold one family each; this
package re-exports their public names.
"""

__all__: list[str] = []
