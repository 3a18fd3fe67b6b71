"""Concepts and concept classes: the targets learners chase and adversaries certify.

Submodules hold one family each; this package re-exports their public names.
"""

__all__: list[str] = []
