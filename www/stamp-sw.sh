#!/bin/sh
# Trunk post-build hook: writes the build's file list and a version (a digest of every file) into the service
# worker (www/sw.js) in Trunk's staging folder, so each build gets a cache of its own.
set -eu
cd "$TRUNK_STAGING_DIR"
files=$(find . -type f ! -name sw.js | sed 's|^\./||' | LC_ALL=C sort)
version=$(for f in $files; do sha256sum "$f"; done | sha256sum | cut -c1-16)
list=$(for f in $files; do printf "'%s'," "$f"; done)
sed -e "s|__VERSION__|$version|" -e "s|__FILES__|[${list%,}]|" sw.js > sw.js.tmp
mv sw.js.tmp sw.js
