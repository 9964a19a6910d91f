"""Exercises of lesson 04-representation-contre-algorithme (cross-study): being migrated to this registry.

Until then its checks are the `check_*` functions of `sudoku_course.teaching.checks_crossstudy`.
"""
