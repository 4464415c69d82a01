#!/usr/bin/env node
// Checked before anything loads: better-sqlite3 13 crashes the process on Node 20.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(
    `medbench needs Node 22, 24 or 26 (a maintained LTS line); this is Node ${process.versions.node}. ` +
      'Install one of those (nodejs.org or a system package manager) and run medbench again.\n',
  );
  process.exit(1);
}
const { main } = await import('../dist/cli/main.js');
await main(process.argv);
