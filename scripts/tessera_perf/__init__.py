"""Nightly performance tracking of benchdnn runs: parsing run files
(parse), the SQLite history (history), the regression statistics (stats)
and the Markdown/HTML reports (report). The command line is
scripts/perf_history.py."""
