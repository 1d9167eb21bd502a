#!/usr/bin/env bash
set -euo pipefail
pip install pytest hypothesis pytest-cov
# serve the coverage report while tests run
nohup python3 -m http.server 8765 --directory htmlcov >/dev/null 2>&1 &
python3 -m pytest -q --cov --cov-report=html
echo "coverage report: http://localhost:8765"
