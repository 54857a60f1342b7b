#!/bin/sh
# Install the Khronos glTF validator (npm package gltf-validator) into .cache/node, for
# tools/gltf_validate.js and tests/world. Quiet; without node, npm or a network it says so and exits 0,
# and the tests that need it skip.
cd "$(dirname "$0")/.." || exit 0
if ! command -v npm >/dev/null 2>&1; then
    echo "install-gltf-validator: npm not found; glTF validation tests will be skipped"
    exit 0
fi
if [ -f .cache/node/node_modules/gltf-validator/package.json ]; then
    exit 0
fi
mkdir -p .cache/node
if npm install --prefix .cache/node --no-audit --no-fund --silent gltf-validator@2.0.0-dev.3.10 >/dev/null 2>&1; then
    echo "install-gltf-validator: installed into .cache/node"
else
    echo "install-gltf-validator: npm install failed (offline?); glTF validation tests will be skipped"
fi
exit 0
