#!/bin/bash
# Installs kubernetes-validate (PyPI) into a cached venv for k8s-validate.sh: seconds once cached.
set -euo pipefail
venv=$HOME/.cache/sweepbench/k8s-validate-venv
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q kubernetes-validate==1.37.0
fi
"$venv/bin/kubernetes-validate" --version
