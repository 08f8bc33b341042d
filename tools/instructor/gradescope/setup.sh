#!/usr/bin/env bash
# Gradescope runs this once, as root and with the network, when it builds the autograder's image
# (tools/instructor/grade --gradescope-autograder wrote this package). It installs what the
# workbook's build needs where it is missing, then builds the pristine workbook once, for the
# host checks. Where everything is installed already (CI), it installs nothing.
#
#   AUTOGRADER_ROOT=/autograder bash setup.sh       (the root defaults to /autograder)
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
cuda_version=13.0                 # the CUDA packages installed where nvcc is missing
meson_venv=/opt/workbook-meson    # Meson from PyPI, where the distribution's is older than 1.0.1
export DEBIAN_FRONTEND=noninteractive
export PATH="/usr/local/cuda/bin:/usr/local/cuda-$cuda_version/bin:$meson_venv/bin:$PATH"

say() { printf 'setup.sh: %s\n' "$*"; }
at_least() { # at_least VERSION MINIMUM: whether VERSION (1.3.2, 1.3.2-1ubuntu1) >= MINIMUM
  /usr/bin/python3 -c 'import re, sys
v = [tuple(int(x) for x in re.findall(r"[0-9]+", a.split("-")[0])[:3]) for a in sys.argv[1:]]
sys.exit(0 if v[0] >= v[1] else 1)' "$1" "$2"
}
apt_updated=no
apt_update() { [ "$apt_updated" = yes ] || { apt-get update -qq; apt_updated=yes; }; }
apt_install() {
  apt_update
  say "installing $*"
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# The distribution's packages: Python, a C++ compiler, Ninja, Catch2 and pkg-config (Meson finds
# Catch2 through it), util-linux's sandbox tools.
missing=()
[ -x /usr/bin/python3 ] || missing+=(python3)
command -v c++ >/dev/null || missing+=(g++)
command -v ninja >/dev/null || missing+=(ninja-build)
[ -e /usr/include/catch2 ] || missing+=(catch2)
command -v pkg-config >/dev/null || missing+=(pkg-config)
for tool in unshare setpriv prlimit choom; do
  command -v "$tool" >/dev/null || { missing+=(util-linux); break; }
done
command -v nm >/dev/null || missing+=(binutils)
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

# Meson 1.0.1 or newer: the distribution's where it is new enough (Debian 12, Ubuntu 24.04),
# else from PyPI in a virtual environment (Ubuntu 22.04's is 0.61), as the README says.
if ! { command -v meson >/dev/null && at_least "$(meson --version)" 1.0.1; }; then
  apt_update
  candidate="$(apt-cache policy meson 2>/dev/null | awk '/Candidate:/ {print $2}')"
  if [ -n "$candidate" ] && [ "$candidate" != "(none)" ] && at_least "$candidate" 1.0.1; then
    apt_install meson
  else
    /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
    say "Meson from PyPI into $meson_venv (the distribution's is ${candidate:-missing})"
    /usr/bin/python3 -m venv "$meson_venv"
    "$meson_venv/bin/pip" install -q 'meson>=1.0.1'
  fi
fi

# The CUDA toolkit, where nvcc is missing: from NVIDIA's apt repository, only the packages the
# build needs (nvcc, the runtime, the driver API's headers, CCCL, CUPTI, and cuBLAS where the
# package's chapters link it: autograder.json's cuda_libraries) of one version.
# Untested by the workbook's CI, which cannot reach NVIDIA's repository.
if ! command -v nvcc >/dev/null; then
  . /etc/os-release
  case "$(uname -m)" in x86_64) arch=x86_64 ;; aarch64) arch=sbsa ;; *) arch="$(uname -m)" ;; esac
  repository="https://developer.download.nvidia.com/compute/cuda/repos/${ID}${VERSION_ID//./}/$arch"
  command -v curl >/dev/null || apt_install curl ca-certificates
  say "the CUDA toolkit $cuda_version from $repository"
  curl -fsSL -o /tmp/cuda-keyring.deb "$repository/cuda-keyring_1.1-1_all.deb"
  dpkg -i /tmp/cuda-keyring.deb >/dev/null
  rm -f /tmp/cuda-keyring.deb
  apt_updated=no
  v="${cuda_version//./-}"
  libraries="$(/usr/bin/python3 -c 'import json, sys
print(" ".join(json.load(open(sys.argv[1])).get("cuda_libraries", ["cublas"])))' \
    "$root/source/autograder.json")"
  apt_install "cuda-nvcc-$v" "cuda-cudart-dev-$v" "cuda-driver-dev-$v" "cuda-cccl-$v" \
    "cuda-cupti-dev-$v" $(case " $libraries " in *" cublas"*) echo "libcublas-dev-$v" ;; esac)
  command -v nvcc >/dev/null || { say "nvcc is still missing after installing CUDA $cuda_version"; exit 1; }
fi
# Meson finds the toolkit at /usr/local/cuda (or CUDA_PATH): NVIDIA's packages of one version
# install to /usr/local/cuda-X.Y, and not every set of them makes that link. The toolkit is the
# folder nvcc names (the nvcc on the PATH may be a wrapper script outside it).
nvcc_here="$({ nvcc --dryrun -c -x cu /dev/null -o /dev/null 2>&1 || true; } | sed -n 's/^#\$ _HERE_=//p;T;q')"
cuda_home="$(dirname "$(readlink -f "${nvcc_here:-$(dirname "$(command -v nvcc)")}")")"
if [ ! -e /usr/local/cuda ] && [ -z "${CUDA_PATH:-}" ] && [ "$cuda_home" != /usr ]; then
  say "linking /usr/local/cuda to $cuda_home, where Meson looks for the CUDA toolkit"
  ln -s "$cuda_home" /usr/local/cuda
fi
say "toolchain: $(nvcc --version | tail -n 1), meson $(meson --version), ninja $(ninja --version), $(/usr/bin/python3 --version)"

# The pristine workbook, once: what every submission is graded in.
exec /usr/bin/python3 -I "$root/source/tool/tools/instructor/gradescope_autograder" setup "$root"
