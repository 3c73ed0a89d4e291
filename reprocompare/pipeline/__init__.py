"""The Snakemake workflow's side: adapters between its rules and the study.

``provenance`` builds each rule's one canonical settings dict (what its outputs depend on),
``search_workflow`` the paths the search rules ask for, and ``jobs``, ``search_jobs`` and
``significance_jobs`` the plain functions the thin scripts of workflow/scripts/ call.
"""
