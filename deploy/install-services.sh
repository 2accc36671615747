#!/bin/sh
# Installs the two services a local hzai cluster needs, from Debian's archive:
# PostgreSQL (the shared match store) and nginx (the gRPC load balancer).
# Run as root. Debian's packages start system-wide instances of both; hzai's local
# cluster and tests do not use those, they start their own under a temporary directory.
set -eu
if [ "$(id -u)" -ne 0 ]; then
    echo "install-services.sh: run as root (sudo sh deploy/install-services.sh)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Another install on the machine (a parallel test run) holds dpkg's lock: wait for it.
apt-get -o DPkg::Lock::Timeout=600 update
apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends postgresql nginx
