"""The entry points: the ``reprocompare`` command line (``cli``), ``resume`` of a committed study
and ``sequential`` waves of repetitions until the verdicts are decided."""
