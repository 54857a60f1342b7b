#!/usr/bin/env node
// Validate a .glb / .gltf with the Khronos glTF validator and print its report as JSON on stdout.
// Exit status: 0 when the report has no errors, 1 when it has, 2 on a usage or install problem.
// The validator is installed by tools/install-gltf-validator.sh into .cache/node.
"use strict";
const fs = require("fs");
const path = require("path");

const file = process.argv[2];
if (!file) {
  console.error("usage: gltf_validate.js FILE.glb");
  process.exit(2);
}
let validator;
try {
  validator = require(path.join(__dirname, "..", ".cache", "node", "node_modules", "gltf-validator"));
} catch (e) {
  console.error("gltf-validator is not installed: run tools/install-gltf-validator.sh");
  process.exit(2);
}
const data = new Uint8Array(fs.readFileSync(file));
validator
  .validateBytes(data, { uri: path.basename(file), maxIssues: 200 })
  .then((report) => {
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
    process.exit(report.issues.numErrors > 0 ? 1 : 0);
  })
  .catch((err) => {
    console.error("validation failed: " + err);
    process.exit(2);
  });
