// The adec extension for VS Code: the language and its grammar are declared in package.json;
// this starts the adec language server over stdio and connects it to adec documents.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { workspace } = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** The server of this repository, when the extension runs from packages/language-server/editors/vscode. */
const BUNDLED_SERVER = join(__dirname, '..', '..', 'bin', 'adec-language-server.js');

let client;

function serverOptions() {
  const configured = workspace.getConfiguration('adec').get('languageServer.path');
  if (configured) return { command: configured, args: ['--stdio'], transport: TransportKind.stdio };
  if (existsSync(BUNDLED_SERVER)) return { module: BUNDLED_SERVER, args: ['--stdio'], transport: TransportKind.stdio };
  return { command: 'adec-language-server', args: ['--stdio'], transport: TransportKind.stdio };
}

function activate(context) {
  const debounceMs = workspace.getConfiguration('adec').get('languageServer.debounceMs');
  client = new LanguageClient('adec', 'adec language server', serverOptions(), {
    documentSelector: [{ language: 'adec' }],
    initializationOptions: { debounceMs },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client === undefined ? undefined : client.stop();
}

module.exports = { activate, deactivate };
