#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler and kubelet (Kubernetes 1.20)
# from Debian's `kubernetes` source package with Debian's Go 1.19, offline (vendored sources,
# no module proxy), and caches them in OUT_DIR. No registry ships these binaries; Debian's
# source package is the one reachable source. A cold build takes about 10 minutes on 2 cores.
#
# Usage: infra/kube/build_kubernetes.sh [OUT_DIR]
#   OUT_DIR defaults to ${PHONEBUDDY_KUBE_CACHE:-$HOME/.cache/phonebuddy/kube}/v1.20.
# Safe to run again: it exits at once when OUT_DIR already holds the binaries and their stamp.
set -euo pipefail

out=${1:-${PHONEBUDDY_KUBE_CACHE:-$HOME/.cache/phonebuddy/kube}/v1.20}
binaries=(kube-apiserver kube-controller-manager kube-scheduler kubelet)
# The stamp names the Debian source they came from: "kubernetes 1.20.5+really1.20.2-1.1+deb12u1".
stamp="$out/.debian-source"

cached=true
for name in "${binaries[@]}"; do [ -x "$out/$name" ] || cached=false; done
if $cached && grep -q '^kubernetes [^ ]*1\.20\.' "$stamp" 2>/dev/null; then
  echo "kube-build: cached in $out ($(cat "$stamp"))"
  exit 0
fi

step="start"
work=$(mktemp -d)
stage=""
finish() {
  local rc=$?
  rm -rf "$work" ${stage:+"$stage"}
  [ "$rc" -eq 0 ] || echo "kube-build: FAILED at step: $step (exit $rc)" >&2
}
trap finish EXIT
progress() { step=$1; echo "kube-build: $1"; }
# Runs a chatty command with its output kept in a log that is shown only when it fails.
quietly() { "$@" >"$work/step.log" 2>&1 || { cat "$work/step.log" >&2; return 1; }; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for package in golang-1.19-go dpkg-dev golang-github-modern-go-reflect2-dev; do
  dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
update=false
[ ${#missing[@]} -eq 0 ] || update=true
if ! apt-cache showsrc kubernetes 2>/dev/null | grep -q '^Package: kubernetes$'; then
  progress "adding deb-src lines for Debian's archive"
  # The same archives as the binary packages (bookworm, -updates, -security), as sources.
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
    | $sudo tee /etc/apt/sources.list.d/phonebuddy-deb-src.sources >/dev/null
  update=true
fi
if $update; then
  progress "apt-get update"
  quietly $sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  progress "installing ${missing[*]}"
  quietly $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

progress "downloading Debian's kubernetes source package"
mkdir "$work/deb"
# apt fetches as the unprivileged _apt user when run as root; let it write here.
if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chmod 755 "$work"; chown _apt "$work/deb"; fi
(cd "$work/deb" && quietly apt-get source -qq --download-only kubernetes)
dsc=$(echo "$work"/deb/kubernetes_*.dsc)
deb_version=$(sed -n 's/^Version: //p' "$dsc")
upstream=${deb_version%-*}      # 1.20.5+really1.20.2-1.1+deb12u1 -> 1.20.5+really1.20.2
upstream=${upstream##*really}   # -> 1.20.2 (the version the tarball really holds)
case $upstream in
  1.20.*) ;;
  *) echo "kube-build: Debian's kubernetes source is $deb_version, not 1.20" >&2; exit 1 ;;
esac

progress "unpacking kubernetes $deb_version"
export GOPATH="$work/gopath" GOCACHE="$work/gocache" GOENV=off GO111MODULE=off GOPROXY=off \
  GOFLAGS="" CGO_ENABLED=0 PATH="/usr/lib/go-1.19/bin:$PATH"
unset GOROOT
tree="$GOPATH/src/k8s.io/kubernetes"
mkdir -p "$(dirname "$tree")"
quietly dpkg-source -x "$dsc" "$tree"
cd "$tree"

progress "replacing vendored reflect2 1.0.1 with Debian's 1.0.2"
# reflect2 1.0.1 go:linknames runtime.mapiterinit, whose signature changed in Go 1.18, so map
# iteration in json-iterator (API machinery's JSON) breaks; 1.0.2 fixes that, same API.
rm -rf vendor/github.com/modern-go/reflect2
cp -r /usr/share/gocode/src/github.com/modern-go/reflect2 vendor/github.com/modern-go/reflect2

progress "generating pkg/generated/openapi"
# The tarball lacks zz_generated.openapi.go. Generate it as build/root/Makefile.generated_files
# does: the input packages are every directory with a +k8s:openapi-gen tag (staging/src as
# vendor/, without code-generator and sample-apiserver); API rule violations go to a report
# instead of failing.
nice -n 10 go build -o "$work/bin/openapi-gen" ./vendor/k8s.io/kube-openapi/cmd/openapi-gen
inputs=$(find . \( -path ./vendor -o -path './.*' -o -path './_*' \) -prune -o -name '*.go' -print0 \
  | xargs -0 grep -lE '^// *\+k8s:openapi-gen=' \
  | sed 's|^\./staging/src/|vendor/|; s|^\./||' \
  | grep -v -e '^vendor/k8s.io/code-generator/' -e '^vendor/k8s.io/sample-apiserver/' \
  | xargs -n1 dirname | LC_ALL=C sort -u | sed 's|^|k8s.io/kubernetes/|' | paste -sd, -)
quietly nice -n 10 "$work/bin/openapi-gen" --logtostderr \
  --input-dirs "$inputs" \
  --output-package k8s.io/kubernetes/pkg/generated/openapi \
  --output-file-base zz_generated.openapi \
  --go-header-file vendor/k8s.io/code-generator/hack/boilerplate.go.txt \
  --report-filename "$work/api-rule-violations.report"

# The version the binaries report, as hack/lib/version.sh would set it from git.
version_pkgs=(k8s.io/kubernetes/vendor/k8s.io/component-base/version
  k8s.io/kubernetes/vendor/k8s.io/client-go/pkg/version)
build_date=$(date -u -d "@$(dpkg-parsechangelog -l debian/changelog -S Timestamp)" +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w -buildid="
for pkg in "${version_pkgs[@]}"; do
  ldflags+=" -X $pkg.gitVersion=v$upstream -X $pkg.gitMajor=1 -X $pkg.gitMinor=20"
  ldflags+=" -X $pkg.gitTreeState=archive -X $pkg.buildDate=$build_date"
done
mkdir "$work/out"
for name in "${binaries[@]}"; do
  progress "go build $name"
  # The tags are those of upstream's release builds (selinux support, no fuzzing helpers).
  nice -n 10 go build -trimpath -tags selinux,notest -ldflags "$ldflags" \
    -o "$work/out/$name" "./cmd/$name"
done

progress "checking versions"
for name in "${binaries[@]}"; do
  reported=$("$work/out/$name" --version 2>&1)
  [ "$reported" = "Kubernetes v$upstream" ] || { echo "$name --version: $reported" >&2; exit 1; }
done

progress "installing into $out"
mkdir -p "$out"
stage=$(mktemp -d "$out/.kube-build.XXXXXX")
cp "${binaries[@]/#/$work/out/}" "$stage/"
echo "kubernetes $deb_version" >"$stage/.debian-source"
# Renames within one file system; the stamp goes last, so a half-done install is never a cache hit.
rm -f "$stamp"
for name in "${binaries[@]}"; do mv -f "$stage/$name" "$out/$name"; done
mv -f "$stage/.debian-source" "$stamp"
for name in "${binaries[@]}"; do
  echo "kube-build: $out/$name $(du -h "$out/$name" | cut -f1) (v$upstream)"
done
