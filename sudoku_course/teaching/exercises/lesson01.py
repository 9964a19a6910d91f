"""Exercises of lesson 01-algorithme-genetique (genetic algorithm): being migrated to this registry.

Until then its checks are the `check_*` functions of `sudoku_course.teaching.checks_genetic`.
"""
