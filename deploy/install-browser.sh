#!/bin/sh
# Installs Debian's headless-capable Chromium for the browser tests (tests/web/).
# Playwright drives it through executable_path; Playwright's own browser builds are
# never downloaded. Needs root (or sudo) and Debian's package lists.
set -eu
if command -v chromium >/dev/null 2>&1; then
    echo "chromium is already installed: $(command -v chromium)"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# Another install on the machine (a parallel test run) holds dpkg's lock: wait for it.
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends chromium fonts-dejavu-core
command -v chromium
