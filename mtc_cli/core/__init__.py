"""The math: criteria, models, mappings, data sets — each equation one function. Imports
nothing of mtc outside this package (``tests/test_layers.py``); every module here can
compute a task's rows, so each counts in the code version of the experiments importing it."""
