"""The ground floor: the error type, seed derivation and the records (paths, names, readers, writers).

Nothing here imports from the rest of the project, so every stage and floor may use it.
"""
