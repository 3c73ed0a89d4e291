"""Corpora: CoNLL-style column files read and validated, their tag schemes, and chunk F1 scored
exactly as conlleval scores it."""
