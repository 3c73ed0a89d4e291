"""Tables (CSV, Markdown, LaTeX) and figures (PNG, PDF) of the paper, from run summaries."""
