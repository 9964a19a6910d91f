"""Exercises of lesson 03-essaim-particulaire (particle swarm): being migrated to this registry.

Until then its checks are the `check_*` functions of `sudoku_course.teaching.checks_swarm`.
"""
