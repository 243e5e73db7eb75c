#!/usr/bin/env node
// The adec language server: LSP over stdio. Editors start it as `adec-language-server --stdio`.
const { main } = await import('../dist/main.js');
main(process.argv.slice(2));
