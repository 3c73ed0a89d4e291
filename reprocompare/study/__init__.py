"""What a study is and computes, independent of how it is run.

``config`` validates a study's configuration, ``variation`` says which data sample, split and seed a
repetition is, ``compare`` runs one repetition (split, train with ``models.engine``, predict,
estimate) and ``summary`` pools repetitions into the paper's Table 3 and Table 4 figures.
"""
