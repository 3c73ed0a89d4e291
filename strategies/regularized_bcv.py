"""Block-regularized m x 2 BCV: the blocks of an m x 2 BCV chosen so that every fold's training
and validation sets have the same tag and sentence-length distributions.

Xue et al. end with their future work: regularize "the divergence between the empirical
distributions of the training and validation sets in an m x 2 BCV" (Limitations). The method is
Wang, Li, Yang, Wang and Yang's block-regularized m x 2 cross-validation (Wang et al. 2017,
"Block-regularized m x 2 cross-validated estimator of the generalization error", Neural
Computation 29(2): 519-554), whose blocks are constrained so that the training sets of different
2-fold CVs overlap by exactly half (the plain BCV's orthogonal array, :func:`half_signs`), and its
extension to distribution-balanced partitions (Wang et al. 2019, "Block-regularized repeated
learning-testing for estimating generalization error", Information Sciences 477: 246-264), in
which a partition is regularized so that each training set's empirical distribution matches its
validation set's, which lowers the variance of the CV estimate.

What is minimized. Each sentence contributes its chunk tags rewritten with their positions
(``B-NP``, ``I-NP``, ``E-NP``, ``S-NP``, ``O``: read scheme-free by conlleval's rules, so IOB1,
IOB2 and IOBES corpora give the same features) and one sentence-length class (eight classes at
the corpus's length octiles). The divergence of a fold is the Jensen-Shannon divergence (bits)
of the token-level tag distributions of its training and validation sets plus that of their
sentence-length distributions; the search minimizes its sum over the m 2-fold CVs (the two folds
of one CV have the same divergence).

How. Start from the plain BCV's blocks of the same seed (:func:`bcv_layout`: a seeded
permutation cut into ``b = 2^ceil(log2(m + 1))`` blocks), then climb: each round draws two blocks
and 64 candidate swaps of a sentence (a document, with ``groups``) of one for one of the other,
and keeps the best if it lowers the objective; the search stops after 200 rounds without a gain
(at most 100 rounds per unit). A swap keeps every block's size, so the blocks stay of n/b
sentences within one, and with ``groups`` a swap is taken only if the block sizes stay within the
spread of the plain draw's; blocks are then combined exactly as the plain BCV's
(:func:`bcv_folds`, Table 1), so every promise of a BCV split holds: 2m folds, each 2-fold CV two
disjoint halves, training sets of two CVs overlapping by half, every sentence validated once per
CV. Given the seed and the corpus's tags, the split is deterministic (the counts are integers;
the divergences compared are floats, on one numpy version the same bits everywhere). The cost is
measured by ``benchmarks/bench_regularized_bcv.py`` (benchmarks/RESULTS.md).

Its estimators are the BCV's (section 3.2, Table 2, Eq. 8) on the regularized folds: rAvg, rVote
and rMixture (Table 4's Avg, Vote and Mixture with an ``r`` for regularized: short enough for a
table's column, and names a config, a CSV and a file name take as they are), tested by the same
m x 2 t and combined F, and by the blocked 3 x 2 t with the constant its folds' correlation
calls for (:func:`blocked_t_calibration`; the authors' constant 1 holds for neither BCV on
re-splits of one corpus).
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.corpora.schemes import chunks
from reprocompare.splitters._common import (check_positive_int, documents, num_sentences,
                                           sorted_indices)
from reprocompare.splitters.drawing import bcv_folds, bcv_layout, check_random_state, half_signs
from reprocompare.strategies.bcv import BlockedCVStrategy

#: sentence-length classes: the corpus's length octiles
LENGTH_CLASSES = 8
#: candidate swaps weighed per round
CANDIDATES = 64
#: rounds without a gain that end the search
PATIENCE = 200
#: rounds at most, per unit (sentence or document) of the corpus
ROUNDS_PER_UNIT = 100
#: The correlation of a regularized 3 x 2 BCV's fold differences A - B over repetitions: rho1
#: between the two folds of one 2-fold CV, rho2 between folds of two. Measured on the committed
#: regularized studies (CoNLL-2000 chunking and CoNLL-2002 Spanish NER at 1,200 sentences, CRFs,
#: 25 repetitions pooled) by benchmarks/bench_regularized_calibration.py: rho1 = 0.14 [-0.11,
#: 0.36], rho2 = -0.07 [-0.17, 0.09], 95% bootstrap intervals (docs/statistics.md, "The
#: block-regularized BCV's tests and intervals"); the plain BCV's are -0.13 and -0.01.
FOLD_RHO1, FOLD_RHO2 = 0.14, -0.07


def blocked_t_calibration(rho1: float, rho2: float) -> tuple[float, float]:
    r"""The constant C and the degrees of freedom of the blocked 3 x 2 t on fold differences
    correlated by ``rho1`` within and ``rho2`` between the 2-fold CVs.

    Wang, Wang, Jia and Li (2014) test :math:`\hat\mu / \hat\sigma` against :math:`t_5`
    (:func:`~reprocompare.estimators.significance.blocked_3x2_t`). With the six differences of
    one variance :math:`\sigma^2` and the blocked design's two correlations,
    :math:`\mathrm{Var}(\hat\mu) = \frac{\sigma^2}{6}(1 + \kappa)` and
    :math:`E\,\hat\sigma^2 = \frac{\sigma^2}{6}(5 - \kappa)`, :math:`\kappa = \rho_1 +
    4\rho_2`, so :math:`\hat\sigma^2` estimates the mean's variance only where
    :math:`\kappa = 2`; the variance inflation of correlated folds is the constant their later
    m x 2 BCV tests put before :math:`\hat\sigma` (their :math:`C_m`):

    .. math:: C^2 = \frac{1 + \kappa}{5 - \kappa}, \qquad t = \frac{\hat\mu}{C\,\hat\sigma}.

    :math:`6\hat\sigma^2/\sigma^2` is not a :math:`\chi^2_5`: on the eigenvectors of the
    correlation it is :math:`a\,\chi^2_2 + b\,\chi^2_3` with :math:`a = 1 + \rho_1 -
    2\rho_2` (contrasts of the three 2-fold CVs' means) and :math:`b = 1 - \rho_1` (the
    contrasts within each), independent of :math:`\hat\mu` for normal differences; matching
    its first two moments (Satterthwaite 1946) gives the degrees of freedom

    .. math:: \nu = \frac{(2a + 3b)^2}{2a^2 + 3b^2}

    (5 when :math:`a = b`). :math:`C = 1` and 5 degrees of freedom are the 2014 test.

    Parameters
    ----------
    rho1, rho2 : float
        The correlations, a valid 3 x 2 BCV structure (:math:`1 + \kappa`, :math:`a`, :math:`b`
        positive).

    Returns
    -------
    (float, float)
        C and the degrees of freedom.

    Examples
    --------
    >>> c, df = blocked_t_calibration(0.14, -0.07)
    >>> round(c, 4), round(df, 3)
    (0.409, 4.807)
    """
    kappa, a, b = rho1 + 4 * rho2, 1 + rho1 - 2 * rho2, 1 - rho1
    if min(1 + kappa, a, b) <= 0:
        raise ValueError(f"rho1 = {rho1}, rho2 = {rho2} is no 3 x 2 BCV correlation")
    return math.sqrt((1 + kappa) / (5 - kappa)), (2 * a + 3 * b) ** 2 / (2 * a * a + 3 * b * b)


#: The blocked 3 x 2 t's constant and degrees of freedom at the measured correlation: C = 0.409,
#: 4.81 degrees of freedom (the authors' C = 1 left the test a measured size of 0.2% (normal)
#: and 0.8% (skewed) at alpha 0.05 on these folds; this one 5.1% and 8.3%, docs/statistics.md)
BLOCKED_T_CONSTANT, BLOCKED_T_DF = blocked_t_calibration(FOLD_RHO1, FOLD_RHO2)


def positional_tags(tags) -> list[str]:
    """One sentence's tags with their chunk positions, scheme-free: ``B-``, ``I-``, ``E-`` of a
    chunk of two or more tokens, ``S-`` of a one-token chunk, ``O`` outside.

    Parameters
    ----------
    tags : sequence of str
        The sentence's tags, in any scheme (read by conlleval's rules).

    Returns
    -------
    list of str

    Examples
    --------
    >>> positional_tags(["B-NP", "I-NP", "I-NP", "O", "B-VP"])
    ['B-NP', 'I-NP', 'E-NP', 'O', 'S-VP']
    """
    out = ["O"] * len(tags)
    for start, end, kind in chunks(tags):
        if end - start == 1:
            out[start] = f"S-{kind}"
        else:
            out[start] = f"B-{kind}"
            out[start + 1:end - 1] = [f"I-{kind}"] * (end - start - 2)
            out[end - 1] = f"E-{kind}"
    return out


class Balance:
    """What the regularization balances: each sentence's positional-tag counts and its length
    class, and the divergence of two sets of sentences.

    Parameters
    ----------
    tags : sequence of sequence of str
        Each sentence's tags.

    Attributes
    ----------
    counts : ndarray of int64, shape (n, F)
        Per sentence: its tokens of each positional tag, then a one-hot length class.
    n_tags : int
        The positional-tag columns (the rest are length classes).

    Examples
    --------
    >>> balance = Balance([["B-NP", "O"], ["B-NP", "I-NP"], ["O"], ["B-VP"]])
    >>> balance.labels
    ('B-NP', 'E-NP', 'O', 'S-NP', 'S-VP')
    >>> float(balance.divergence([0, 1], [0, 1]))
    0.0
    """

    def __init__(self, tags):
        positional = [positional_tags(sentence) for sentence in tags]
        self.labels = tuple(sorted({tag for sentence in positional for tag in sentence}))
        if len(self.labels) < 2:
            raise UserError(f"regularized BCV balances the tag distribution, and the corpus has "
                            f"one tag only ({', '.join(self.labels) or 'none'})")
        column = {label: j for j, label in enumerate(self.labels)}
        n = len(positional)
        lengths = np.fromiter((len(sentence) for sentence in positional), dtype=np.int64,
                              count=n)
        edges = np.unique(np.quantile(lengths, np.linspace(0, 1, LENGTH_CLASSES + 1)[1:-1]))
        length_class = np.searchsorted(edges, lengths, side="right")
        self.n_tags = len(self.labels)
        self.counts = np.zeros((n, self.n_tags + len(edges) + 1), dtype=np.int64)
        for i, sentence in enumerate(positional):
            for tag in sentence:
                self.counts[i, column[tag]] += 1
        self.counts[np.arange(n), self.n_tags + length_class] = 1

    def js(self, first, second) -> np.ndarray:
        """Jensen-Shannon divergence (bits) of the tags plus that of the length classes, of
        count vectors ``first`` and ``second`` (shape ``(..., F)``)."""
        return sum(_js(first[..., part], second[..., part])
                   for part in (slice(0, self.n_tags), slice(self.n_tags, None)))

    def divergence(self, train, validation) -> float:
        """The divergence of one fold: its training against its validation sentences.

        Parameters
        ----------
        train, validation : array-like of int
            Sentence indices.

        Returns
        -------
        float
            Bits: the JS divergence of the tag distributions plus that of the lengths.
        """
        return float(self.js(self.counts[np.asarray(train)].sum(axis=0),
                             self.counts[np.asarray(validation)].sum(axis=0)))

    def tag_divergence(self, train, validation) -> float:
        """The JS divergence (bits) of one fold's tag distributions alone."""
        part = slice(0, self.n_tags)
        return float(_js(self.counts[np.asarray(train), part].sum(axis=0),
                         self.counts[np.asarray(validation), part].sum(axis=0)))


def _entropy(p: np.ndarray) -> np.ndarray:
    return -np.sum(p * np.log2(np.where(p > 0, p, 1.0)), axis=-1)


def _js(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    p = first / np.maximum(first.sum(axis=-1, keepdims=True), 1)
    q = second / np.maximum(second.sum(axis=-1, keepdims=True), 1)
    return _entropy((p + q) / 2) - (_entropy(p) + _entropy(q)) / 2


def fold_divergences(tags, folds) -> np.ndarray:
    """Each fold's train/validation divergence (:meth:`Balance.divergence`), in fold order.

    Parameters
    ----------
    tags : sequence of sequence of str
        Each sentence's tags.
    folds : sequence of (train, validation)
        Index arrays.

    Returns
    -------
    ndarray of float
    """
    balance = Balance(tags)
    return np.array([balance.divergence(train, validation) for train, validation in folds])


def regularized_layout(n: int, *, m=3, tags, random_state=None, groups=None, balance=None):
    """The blocks, folds and validating folds of one block-regularized m x 2 BCV.

    Parameters
    ----------
    n : int
        Sentences in the corpus, at least ``b``.
    m : int, default=3
        Repetitions of two-fold CV.
    tags : sequence of sequence of str
        Each sentence's tags (any scheme).
    random_state : int, RandomState instance or None, default=None
        As :func:`~reprocompare.splitters.drawing.check_random_state`: the plain BCV's draw of
        it is where the search starts, and the search's own draws follow it.
    groups : array-like of shape (n,), default=None
        Document id of each sentence; documents are never cut.
    balance : Balance, optional
        The corpus's features, when already computed (they are a function of ``tags``).

    Returns
    -------
    blocks, folds, validating
        As :func:`~reprocompare.splitters.drawing.bcv_layout`.

    Examples
    --------
    >>> tags = [["B-NP", "I-NP", "O"], ["B-VP"], ["O", "B-PP"], ["B-NP"]] * 5
    >>> blocks, folds, validating = regularized_layout(20, m=3, tags=tags, random_state=0)
    >>> [len(block) for block in blocks], len(folds)
    ([5, 5, 5, 5], 6)
    """
    if tags is None or len(tags) != n:
        raise UserError(f"regularized BCV needs the tags of each of the {n} sentences, got "
                        f"{'none' if tags is None else len(tags)}")
    rng = check_random_state(random_state)
    blocks, _, _ = bcv_layout(n, m=m, random_state=rng, groups=groups)
    balance = Balance(tags) if balance is None else balance
    docs = documents(groups, n)
    units = [np.array([i]) for i in range(n)] if docs is None else docs
    if docs is None:
        counts, sizes = balance.counts, np.ones(n, dtype=np.int64)
    else:
        counts = np.array([balance.counts[doc].sum(axis=0) for doc in docs])
        sizes = np.array([len(doc) for doc in docs], dtype=np.int64)
    block_of_sentence = np.empty(n, dtype=np.int64)
    for b, block in enumerate(blocks):
        block_of_sentence[block] = b
    block_of = block_of_sentence[[unit[0] for unit in units]]
    members = [np.flatnonzero(block_of == b) for b in range(len(blocks))]
    members = _climb(members, counts, sizes, half_signs(m) < 0, balance, rng)
    blocks = [sorted_indices([units[u] for u in unit_ids]) for unit_ids in members]
    folds, validating = bcv_folds(blocks, m=m)
    return blocks, folds, validating


def _climb(members, counts, sizes, first_half, balance, rng):
    """The seeded swap search: ``members[b]`` the units of block b, improved in place."""
    block_counts = np.array([counts[unit_ids].sum(axis=0) for unit_ids in members])
    block_sizes = np.array([sizes[unit_ids].sum() for unit_ids in members])
    spread = block_sizes.max() - block_sizes.min()
    total = block_counts.sum(axis=0)
    # halves[r]: the counts of the first fold's validation half of 2-fold CV r
    halves = first_half.astype(np.int64) @ block_counts

    def objective(first):
        return balance.js(first, total - first).sum(axis=0)

    current = float(objective(halves))
    vary = bool((sizes != 1).any())
    n_blocks = len(members)
    idle, rounds = 0, ROUNDS_PER_UNIT * len(counts)
    for _ in range(rounds):
        if idle >= PATIENCE:
            break
        idle += 1
        p, q = rng.choice(n_blocks, size=2, replace=False)
        side = first_half[:, p].astype(np.int64) - first_half[:, q].astype(np.int64)
        if not side.any() or not len(members[p]) or not len(members[q]):
            continue
        at_p = rng.randint(len(members[p]), size=CANDIDATES)
        at_q = rng.randint(len(members[q]), size=CANDIDATES)
        i, j = members[p][at_p], members[q][at_q]
        change = counts[j] - counts[i]  # (candidates, F): what block p gains
        moved = halves[:, None, :] + side[:, None, None] * change[None]
        scores = objective(moved)
        if vary:  # documents: block sizes stay within the plain draw's spread
            gain = sizes[j] - sizes[i]
            new = np.repeat(block_sizes[None], CANDIDATES, axis=0)
            new[:, p] += gain
            new[:, q] -= gain
            scores = np.where(new.max(axis=1) - new.min(axis=1) <= spread, scores, np.inf)
        best = int(np.argmin(scores))
        # a gain well above rounding, so that the search never cycles on float noise
        if scores[best] < current - 1e-12:
            members[p][at_p[best]], members[q][at_q[best]] = j[best], i[best]
            halves = moved[:, best]
            block_counts[p] += change[best]
            block_counts[q] -= change[best]
            block_sizes[p] += sizes[j[best]] - sizes[i[best]]
            block_sizes[q] -= sizes[j[best]] - sizes[i[best]]
            current = float(scores[best])
            idle = 0
    return members


class RegularizedBlockedCVStrategy(BlockedCVStrategy):
    """Block-regularized m x 2 BCV: the BCV's estimators on blocks balanced in their tags and
    sentence lengths."""

    #: its draw reads the corpus's tags
    reads_tags = True
    #: Nadeau and Bengio's correlation of two of its folds across corpora, the rho of its
    #: estimators' correlated Bayesian t (6/7 for rAvg at m = 3): its folds validate on half the
    #: corpus, as the plain BCV's do, and balancing the blocks changes no fold's size.
    #: FOLD_RHO1 and FOLD_RHO2 are another correlation: of fold differences within one corpus's
    #: repetitions, which its blocked t reads
    FOLD_RHO = 0.5

    def label(self, settings, table4_k=None):
        return (f"regularized {settings['m']}x2 BCV" if settings.get("m")
                else "regularized m x 2 BCV (m not recorded)")

    def describe(self, settings):
        return (f"block-regularized {settings['m']} x 2 cross-validation (blocks balanced in "
                "tag and sentence-length distribution)")

    def draw(self, n, groups, random_state, *, m, tags=None):
        blocks, folds, _ = regularized_layout(n, m=m, tags=tags, random_state=random_state,
                                              groups=groups)
        return folds, blocks

    def splitter_class(self):
        return _cross_validator()

    def repetition_tests(self, folds, *, n_train=None, n_resamples=10_000, random_state=0):
        # lazy: scipy, for the significance jobs alone
        from scipy import stats

        tested = super().repetition_tests(folds, n_train=n_train, n_resamples=n_resamples,
                                          random_state=random_state)
        blocked = self.tests[2]
        if blocked in tested:  # m = 3: the blocked t at this BCV's constant
            t = tested[blocked].statistic / BLOCKED_T_CONSTANT
            tested[blocked] = dataclasses.replace(
                tested[blocked], statistic=t, difference=t,
                p_value=float(2 * stats.t.sf(abs(t), BLOCKED_T_DF)))
        return tested


@functools.cache
def _cross_validator() -> type:
    # lazy: scikit-learn, for a caller that wants the cross-validator; cached, so that the class
    # is one object (and pickles through the module's __getattr__)
    from reprocompare.splitters.bcv import BlockedMx2CV

    class RegularizedBlockedMx2CV(BlockedMx2CV):
        """Block-regularized m x 2 cross-validation (scikit-learn's splitter API).

        As :class:`~reprocompare.splitters.BlockedMx2CV`, with ``y`` the tag sequence of each
        sentence: its blocks are balanced in tags and sentence lengths
        (:func:`regularized_layout`).

        Examples
        --------
        >>> from reprocompare.strategies.regularized_bcv import RegularizedBlockedMx2CV
        >>> tags = [["B-NP", "I-NP"], ["O"], ["B-VP", "O"], ["B-NP"]] * 3
        >>> cv = RegularizedBlockedMx2CV(m=3, random_state=0)
        >>> [len(v) for _, v in cv.split(tags, tags)]
        [6, 6, 6, 6, 6, 6]
        """

        def split(self, X, y=None, groups=None):
            _, folds, _ = self._regularized(X, y, groups)
            yield from folds

        def blocks(self, X, y=None, groups=None):
            return self._regularized(X, y, groups)[0]

        def validating_folds(self, X, y=None, groups=None):
            return self._regularized(X, y, groups)[2]

        def _regularized(self, X, y, groups):
            return regularized_layout(num_sentences(X), m=check_positive_int(self.m, "m"),
                                      tags=y, random_state=self.random_state, groups=groups)

    RegularizedBlockedMx2CV.__module__ = __name__
    RegularizedBlockedMx2CV.__qualname__ = RegularizedBlockedMx2CV.__name__
    return RegularizedBlockedMx2CV


def __getattr__(name):
    if name == "RegularizedBlockedMx2CV":
        return _cross_validator()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


STRATEGY = RegularizedBlockedCVStrategy(
    name="regularized-bcv", key="regularized_bcv", code=4, short="rBCV", settings=("m",),
    estimates=("avg", "vote", "mixture", "fold_differences"),
    estimators=("rAvg", "rVote", "rMixture"),
    tests=("regularized_paired_t_mx2", "regularized_combined_f_mx2",
           "regularized_blocked_3x2_t"), votes=True,
    model_f1="the mean F1 of its 2m folds")
