"""Null offsets measured (issue 20): what the mixture shows when A and B do not differ.

    .venv/bin/python benchmarks/bench_null_offsets.py [--write]   # --write: into docs/statistics.md

Three measurements, all seeded, printed as the Markdown of docs/statistics.md's "Null offsets":

1. The closed form of estimators.null (bivariate normal orthant probability and Clark's moments)
   against 1,000,000 simulated pairs of centred, jointly normal Vote and Avg, for correlations
   and spreads around those of the committed studies.
2. How well one study measures its own offset from its centred repetitions: mean and standard
   deviation of the centred estimate over 2,000 simulated studies at R = 5, 30, 200 and 1000.
3. The offsets of the committed studies (studies/*/results/summaries): Vote and Avg's
   correlation, and the mixture's offset centred and in closed form.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from reprocompare.estimators.null import mixture_null_normal, mixture_null_offset

ROOT = Path(__file__).resolve().parents[1]
CASES = ((1.0, 1.0, 0.0), (1.0, 1.0, 0.3), (1.0, 1.0, 0.65), (1.0, 1.0, 0.9), (1.0, 2.0, 0.65),
         (1.0, 0.5, 0.3))
REPETITIONS = (5, 30, 200, 1000)
STUDIES_SIMULATED = 2000


def draws(sd_vote: float, sd_avg: float, rho: float, size, rng) -> np.ndarray:
    covariance = [[sd_vote**2, rho * sd_vote * sd_avg], [rho * sd_vote * sd_avg, sd_avg**2]]
    return rng.multivariate_normal([0.0, 0.0], covariance, size=size)


def closed_form_table() -> list[str]:
    rng = np.random.default_rng(2026)
    lines = ["| sd Vote | sd Avg | rho | reproducibility: closed form / simulated | "
             "SNR: closed form / simulated |", "|---|---|---|---|---|"]
    for sd_vote, sd_avg, rho in CASES:
        pairs = draws(sd_vote, sd_avg, rho, 1_000_000, rng)
        larger = pairs.max(axis=1)
        share, ratio = mixture_null_normal(sd_vote, sd_avg, rho)
        lines.append(f"| {sd_vote:g} | {sd_avg:g} | {rho:g} | {share:.4f} / "
                     f"{np.mean(larger > 0):.4f} | {ratio:.4f} / "
                     f"{larger.mean() / larger.std(ddof=1):.4f} |")
    return lines


def per_study_table() -> list[str]:
    rng = np.random.default_rng(7)
    sd_vote, sd_avg, rho = 1.0, 1.0, 0.65
    share, ratio = mixture_null_normal(sd_vote, sd_avg, rho)
    lines = [f"One study's estimate of its offset (sd 1 and 1, rho = 0.65; truth {share:.3f} / "
             f"{ratio:.3f}), centred and in closed form from its own sds and rho, mean +- sd "
             f"over {STUDIES_SIMULATED} studies:", "",
             "| R | reproducibility: centred | reproducibility: closed form | SNR: centred | "
             "SNR: closed form |", "|---|---|---|---|---|"]
    for r in REPETITIONS:
        # a true difference shifts both estimates; centring removes it, whatever it is
        shift = np.array([0.7, 0.4])
        found = np.array([mixture_null_offset(*(draws(sd_vote, sd_avg, rho, r, rng) + shift).T)
                          for _ in range(STUDIES_SIMULATED)])
        columns = [np.array([getattr(o, key) for o in found]) for key in (
            "reproducibility", "reproducibility_normal", "snr", "snr_normal")]
        lines.append(f"| {r} | " + " | ".join(f"{c.mean():.3f} +- {c.std():.3f}"
                                              for c in columns) + " |")
    return lines


def studies_table() -> list[str]:
    lines = ["| study | sentences | R | conclusion | rho(Vote, Avg) | mixture offset, centred | "
             "mixture offset, closed form |", "|---|---|---|---|---|---|---|"]
    for path in sorted(ROOT.glob("studies/*/results/summaries/*/*.json")):
        if path.name.endswith(".claims.json"):
            continue
        record = json.loads(path.read_text())
        summary, values = record["summary"], record["values"]
        offset = summary.get("null_offsets", {}).get("Mixture")
        if offset is None:
            continue
        rho = float(np.corrcoef(values["Vote"], values["Avg"])[0, 1])
        lines.append(f"| {path.parts[-5]} | {summary['sentences']} | {len(values['Avg'])} | "
                     f"{summary['conclusion']} | {rho:.2f} | {offset['reproducibility']:.3f} / "
                     f"{offset['snr']:.3f} | {offset['reproducibility_normal']:.3f} / "
                     f"{offset['snr_normal']:.3f} |")
    return lines


def main() -> None:
    parts = [closed_form_table(), per_study_table(), studies_table()]
    text = "\n\n".join("\n".join(part) for part in parts) + "\n"
    if sys.argv[1:] == ["--write"]:  # into docs/statistics.md, between its markers
        docs = ROOT / "docs" / "statistics.md"
        head, rest = docs.read_text().split("<!-- null-offsets:begin -->\n", 1)
        tail = rest.split("<!-- null-offsets:end -->", 1)[1]
        docs.write_text(f"{head}<!-- null-offsets:begin -->\n{text}<!-- null-offsets:end -->{tail}")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
