# Two commands do everything: `make demo` and `make test`.
# Both create the project-local environment in .venv when it is missing (or when the pins change).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORES  ?= 2
# the report's stylesheet (figures fit the window; absolute: snakemake reads it in --directory)
REPORT_CSS := $(CURDIR)/workflow/report/report.css

.PHONY: demo test lint docs env clean study-chunking study-ner study-chunking-n600 study-ner-n600

env: $(STAMP)

# The lock includes the optional `transformers` extra (pyproject.toml), so make test tests it.
# torch comes first and alone so that pip takes the CPU wheel (torch==2.13.0) and never
# resolves the several-GB CUDA build as a side effect of another package's range; where pip is
# not pointed at CPU wheels, TORCH_INDEX=https://download.pytorch.org/whl/cpu takes them from
# PyTorch's own index (docs/guide.md, Install).
TORCH_INDEX ?=
# The package's source folders (pyproject.toml's package-dir; workflow/ holds workflow/schemas),
# byte-compiled before a run: an editable install's modules are otherwise compiled
# again by every job's fresh Python where PYTHONDONTWRITEBYTECODE is set (as on our CI
# machines): 0.06 CPU s of a training job's 0.45, 0.16 of a summary's 1.26
# (benchmarks/RESULTS.md, "Test suite"). Python checks each cached module against its source's
# time and size, so an edited module is compiled from its source, never run stale.
SOURCES := reprocompare corpora splitters strategies models estimators reports search \
           workflow profiles
COMPILE := $(BIN)/python -m compileall -q $(SOURCES)

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# The main job on the shipped CoNLL-2000 sample (config/config.yaml), then the HTML report.
demo: $(STAMP)
	$(COMPILE)
	$(BIN)/snakemake --profile profiles/local --cores $(CORES)
	$(BIN)/snakemake --report results/report.html --report-stylesheet $(REPORT_CSS)
	@echo
	@echo "Tables:  results/tables/table4.md (also .csv, .tex) and table3.md"
	@echo "Figures: results/figures/figure1.png, figure2.png (and .pdf)"
	@echo "Budget:  results/figures/budget.png, results/tables/budget.md (random search)"
	@echo "Checklist (Dodge et al.): results/checklist.md"
	@echo "Report:  results/report.html"

# The paper's study at this machine's scale (README, "Results"): resumes from the repetitions
# committed under studies/NAME/ (reprocompare resume restores their files and checks them
# against the config), trains the missing ones, rebuilds the tables, figures, checklist and
# report, and tabulates the repetitions' JSON records (records.jsonl per strategy: what git
# keeps of them, with each repetition's counts.tsv.gz; issue 35).
TABULATE = $(BIN)/python -c 'import sys; from reprocompare.commands.resume import tabulate; \
	tabulate(sys.argv[1])' 
# CoNLL-2002 Spanish NER is research-only and never committed (README, "Data"): the NER configs
# read data/conll2002/, linked to ../shared/corpora/conll2002 where that lies beside the project
# (as in CI); elsewhere place your own copy there.
CONLL2002 := data/conll2002/esp.train.gz
$(CONLL2002):
	@if [ -f ../shared/corpora/conll2002/esp.train.gz ]; then \
		mkdir -p data && ln -sfn ../../shared/corpora/conll2002 data/conll2002; \
	else \
		echo "$@ is missing: CoNLL-2002 (research use only) is not shipped; get esp.train.gz" \
		     "from the CoNLL-2002 shared task's data and place it at $@ (README, Data)"; \
		exit 2; \
	fi

study-ner study-ner-n600: $(CONLL2002)

study-chunking study-ner study-chunking-n600 study-ner-n600: study-%: $(STAMP)
	$(BIN)/reprocompare resume --configfile config/study-$*.yaml --directory studies/$*
	$(BIN)/snakemake --profile profiles/local --cores $(CORES) \
		--configfile config/study-$*.yaml --directory studies/$*
	$(BIN)/snakemake --configfile config/study-$*.yaml --directory studies/$* \
		--report results/report.html --report-stylesheet $(REPORT_CSS)
	$(TABULATE) studies/$*
	@echo "Tables: studies/$*/results/tables/table4.md, table3.md, claims.md"

# The sequential studies (issue 26: whole corpora, the sample-size curve, two comparisons):
# waves of repetitions until the verdicts are decided (reprocompare sequential), resumed from
# what studies/NAME/ holds, tables and figures rebuilt at the R reached.
SEQUENTIAL := study-chunking-full study-ner-full study-size-chunking study-size-ner \
	study-two-comparisons
.PHONY: $(SEQUENTIAL)
study-ner-full study-size-ner: $(CONLL2002)

$(SEQUENTIAL): study-%: $(STAMP)
	$(BIN)/reprocompare sequential --configfile config/study-$*.yaml --directory studies/$* \
		-- --profile profiles/local --cores $(CORES)
	$(TABULATE) studies/$*
	@echo "Tables: studies/$*/results/tables/table4.md, table3.md, claims.md"

# tests/system-packages.sh installs what the tests need from the system (pdflatex) when it can.
test: $(STAMP)
	bash tests/system-packages.sh
	@$(MAKE) --no-print-directory $(CONLL2002)
	$(COMPILE)
	$(BIN)/python -m pytest

# The documentation site (mkdocs.yml, docs/) into site/, warnings as errors (a broken link, a
# page missing from the navigation). docs/cli.md, config.md and model-types.md are generated from
# the command line's --help, the config schema and the model catalogue first, and the numbers
# README and docs/results.md quote from the committed studies by studies/prose.py;
# tests/test_docs.py builds it too (make test). It needs only docs/requirements.txt (mkdocs, the
# theme, what generate.py's and prose.py's commands import) in an environment of its own, at the
# lock's versions, and the project --no-deps: seconds, not the whole pinned environment's torch
# and transformers.
DOCS_VENV  := .venv-docs
DOCS_STAMP := $(DOCS_VENV)/.installed

$(DOCS_STAMP): docs/requirements.txt requirements.lock pyproject.toml
	$(PYTHON) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/pip install --quiet -c requirements.lock -r docs/requirements.txt
	$(DOCS_VENV)/bin/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

docs: $(DOCS_STAMP)
	$(DOCS_VENV)/bin/python docs/generate.py
	$(DOCS_VENV)/bin/python studies/prose.py
	$(DOCS_VENV)/bin/mkdocs build --strict --site-dir site

# The linters the workflow is held to (tests/test_workflow.py runs them too): Snakemake's own
# lint of the rules, and snakefmt's formatting of the Snakefile and workflow/.
lint: $(STAMP)
	$(BIN)/snakemake --lint --configfile config/config.yaml
	$(BIN)/snakefmt --check Snakefile workflow/

clean:
	rm -rf results logs .snakemake demo-out site
